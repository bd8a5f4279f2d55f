/**
 * The janitor against the real services: an expired demo goes with its session record, its chatbot
 * and sources, and its uploaded files on disk; an extraction whose message was lost with its process
 * is re-queued and finished after a restart. The clock is moved by passing `now` to the sweep.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ServiceSchema } from "moleculer";
import type { SweepReport } from "../../services/janitor.service";
import createExtractorService from "../../services/extractor.service";
import { startApp, TestApp } from "../helpers/app";
import { demoClient } from "../helpers/demo-client";
import { producerOnly } from "../helpers/services";

const HOUR = 3_600_000;
const notes = fs.readFileSync(path.join(__dirname, "..", "fixtures", "notes.txt"));

describe("expired demos", () => {
	let app: TestApp;

	beforeAll(async () => {
		app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,extractor,janitor" } });
	});
	afterAll(() => app?.stop());

	it("are removed after 72 hours with their session record, chatbot, sources and uploaded files", async () => {
		const client = demoClient(app.baseUrl, "203.0.113");
		const demo = await client.newSession();
		const other = await client.newSession();
		await client.api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "Zephyr kettles are made in Tromsø." } });
		const { s3_key } = await client.upload(demo.session_id, "notes.txt", "text/plain", notes);
		const attached = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: s3_key } });
		expect((await client.settledFile(demo.session_id, attached.body.demo.sources.files[0].id)).status).toBe("ready");
		const chatbotDir = path.join(app.dataDir, "uploads", ...s3_key.split("/").slice(0, 2));
		expect(fs.existsSync(path.join(app.dataDir, "uploads", s3_key))).toBe(true);

		const early = (await app.broker.call("janitor.sweep", { now: Date.now() + 71 * HOUR })) as SweepReport;
		expect(early).toMatchObject({ chatbotsRemoved: 0, filesRemoved: 0, sessionsRemoved: 0, errors: [] });
		expect((await client.get(demo.session_id)).sources.files).toHaveLength(1);

		const report = (await app.broker.call("janitor.sweep", { now: Date.now() + 73 * HOUR })) as SweepReport;
		expect(report).toMatchObject({ chatbotsRemoved: 2, filesRemoved: 1, sessionsRemoved: 2, errors: [] });

		// By the real clock both sessions have 71 more hours to live: a 404 now means the records are gone.
		for (const session of [demo, other]) {
			const gone = await client.api(`/api/tools/sessions/${session.session_id}`);
			expect([gone.status, gone.body.code]).toEqual([404, "expired"]);
			expect(await app.broker.call("chatbots.findBySlug", { slug: session.slug })).toBeNull();
		}
		expect(fs.existsSync(path.join(app.dataDir, "uploads", s3_key))).toBe(false);
		expect(fs.existsSync(chatbotDir)).toBe(false);

		const again = (await app.broker.call("janitor.sweep", { now: Date.now() + 73 * HOUR })) as SweepReport;
		expect(again).toMatchObject({ chatbotsRemoved: 0, sessionsRemoved: 0 });
	});

	it("take turns when sweeps are asked for at once: one pass at a time, each expired demo removed once, no errors", async () => {
		// Every pass is watched: how many run at the same moment.
		const janitor = app.broker.getLocalService("janitor") as unknown as { sweepOnce(...args: unknown[]): Promise<SweepReport> };
		const original = janitor.sweepOnce;
		let running = 0;
		let most = 0;
		janitor.sweepOnce = async (...args) => {
			most = Math.max(most, ++running);
			try {
				return await original.apply(janitor, args);
			} finally {
				running--;
			}
		};
		try {
			const client = demoClient(app.baseUrl, "203.0.116");
			for (let i = 0; i < 3; i++) await client.newSession();
			const later = Date.now() + 73 * HOUR;
			const reports = (await Promise.all([1, 2, 3].map(() => app.broker.call("janitor.sweep", { now: later })))) as SweepReport[];
			expect(most).toBe(1);
			expect(reports.map(r => r.errors)).toEqual([[], [], []]);
			expect(reports.map(r => [r.chatbotsRemoved, r.sessionsRemoved])).toEqual([
				[3, 3],
				[0, 0],
				[0, 0]
			]);
		} finally {
			janitor.sweepOnce = original;
		}
	});
});

describe("stuck extractions", () => {
	it("an extraction whose message was lost with its process is re-queued by the janitor and finished", async () => {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-janitor-requeue-"));
		try {
			// First process: files can be attached and their extraction queued, but no node consumes the
			// queue before the process stops; the in-memory channel loses the message with it.
			const first = await startApp({ dataDir, env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage" } });
			first.broker.createService(producerOnly(createExtractorService(first.config)));
			await first.broker.waitForServices(["extractor"]);
			const firstClient = demoClient(first.baseUrl, "203.0.114");
			const demo = await firstClient.newSession();
			const attached = await firstClient.attach(demo.session_id, "notes.txt", "text/plain", notes);
			expect(attached.status).toBe(200);
			const fileId: string = attached.body.demo.sources.files[0].id;
			expect(attached.body.demo.sources.files[0].status).toBe("pending");
			await first.stop();

			const second = await startApp({ dataDir, env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,extractor,janitor" } });
			try {
				const client = demoClient(second.baseUrl, "203.0.115");
				expect((await client.get(demo.session_id)).sources.files[0].status).toBe("pending");
				// A job queued a moment ago is not stale yet.
				expect(((await second.broker.call("janitor.sweep", { now: Date.now() })) as SweepReport).requeued.extractions).toBe(0);
				const sweep = (await second.broker.call("janitor.sweep", { now: Date.now() + 5 * 60_000 })) as SweepReport;
				expect(sweep.requeued.extractions).toBe(1);
				const settled = await client.settledFile(demo.session_id, fileId);
				expect(settled.status).toBe("ready");
				expect((await client.get(demo.session_id)).chars_used).toBe(settled.char_count);
				// Finished jobs are gone: the next sweep has nothing to re-send.
				expect(((await second.broker.call("janitor.sweep", { now: Date.now() + 5 * 60_000 })) as SweepReport).requeued.extractions).toBe(0);
			} finally {
				await second.stop();
			}
		} finally {
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	});
});

describe("files attached while the extractor was down", () => {
	it("stay pending, and a janitor sweep queues their extraction once the extractor runs", async () => {
		const app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,janitor" } });
		try {
			const client = demoClient(app.baseUrl, "198.51.100");
			const demo = await client.newSession();
			const { s3_key } = await client.upload(demo.session_id, "notes.txt", "text/plain", notes);
			const attached = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: s3_key } });
			expect(attached.status).toBe(200);
			const file = attached.body.demo.sources.files[0];
			expect(file.status).toBe("pending");

			// Too recent to be an orphan: nothing is queued (and there is no extractor yet anyway).
			const early = (await app.broker.call("janitor.sweep", { now: Date.now() })) as SweepReport;
			expect(early.requeued.orphanedFiles).toBe(0);

			app.broker.createService(createExtractorService(app.config) as ServiceSchema);
			await app.broker.waitForServices(["extractor"], 10_000);
			const report = (await app.broker.call("janitor.sweep", { now: Date.now() + 11 * 60_000 })) as SweepReport;
			expect(report.requeued.orphanedFiles).toBe(1);
			const settled = await client.settledFile(demo.session_id, file.id);
			expect(settled.status).toBe("ready");
			expect(settled.char_count).toBeGreaterThan(0);
		} finally {
			await app.stop();
		}
	});
});
