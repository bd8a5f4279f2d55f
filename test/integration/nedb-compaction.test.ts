/**
 * NeDB's datafile is append-only: every update adds a line. The document collections compact it
 * periodically, so a long-running `npm start` keeps files the size of their documents.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import DbService from "moleculer-db";
import { DocumentCollection } from "../../mixins/db.mixin";
import { eventually } from "../helpers/processes";

it("rewrites the datafile to one line per document", async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-nedb-"));
	const file = path.join(dir, "counters.db");
	const adapter = new DbService.MemoryAdapter({ filename: file });
	adapter.init({} as never, { logger: console } as never);
	await adapter.connect();
	const collection = new DocumentCollection<{ _id: string; n: number }>(adapter as never);
	try {
		await collection.insert({ _id: "c", n: 0 });
		for (let i = 0; i < 200; i++) await collection.update({ _id: "c" }, { $inc: { n: 1 } });
		const lines = () => fs.readFileSync(file, "utf8").split("\n").filter(Boolean).length;
		expect(lines()).toBeGreaterThan(200);

		collection.startMaintenance(5000); // NeDB's shortest interval
		await eventually(async () => (lines() === 1 ? true : undefined), 15_000, "the datafile to be compacted");
		expect((await collection.findOne({ _id: "c" }))?.n).toBe(200);
	} finally {
		collection.stopMaintenance();
		await adapter.disconnect();
		fs.rmSync(dir, { recursive: true, force: true });
	}
});
