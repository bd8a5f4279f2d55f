/**
 * Uploads to the embedded store over HTTP (issue 11, items 5 and 6): each upload URL takes one
 * upload (also when several PUTs race, each with its own temporary file), nothing replaces attached
 * bytes, the PUT has its own budget, unattached uploads are deleted after expiry by the janitor,
 * and what the service writes under DATA_DIR is readable by its own user only.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { demoClient, DemoClient } from "../helpers/demo-client";
import { eventually } from "../helpers/processes";

let app: TestApp;
let client: DemoClient;

beforeAll(async () => {
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,extractor,trainer,vectors,janitor" },
		// A small PUT budget so the test can spend it; each PUT below sends its own client address otherwise.
		gateway: { ratePolicies: { uploads: { name: "uploads", scope: "PUT /uploads/{token}", limit: 3, windowSeconds: 600 } } }
	});
	client = demoClient(app.baseUrl, "100.70.1");
});
afterAll(() => app?.stop());

let putIp = 0;
function put(url: string, body: string, ip = `100.71.${Math.floor(++putIp / 250)}.${(putIp % 250) + 1}`): Promise<Response> {
	return fetch(url, { method: "PUT", headers: { "Content-Type": "text/plain", "X-Forwarded-For": ip }, body });
}

async function target(sessionId: string, filename = "notes.txt"): Promise<{ upload_url: string; s3_key: string }> {
	const r = await client.api(`/api/tools/sessions/${sessionId}/uploads`, { body: { filename, content_type: "text/plain" } });
	expect(r.status).toBe(200);
	return r.body;
}

const stored = (key: string) => fs.readFileSync(path.join(app.dataDir, "uploads", key), "utf8");

describe("an upload URL takes one upload", () => {
	it("a second PUT is 409 conflict, before and after attaching, and the attached bytes are the first ones", async () => {
		const demo = await client.newSession();
		const t = await target(demo.session_id);
		expect((await put(t.upload_url, "The warranty lasts 37 months.")).status).toBe(200);
		const again = await put(t.upload_url, "Replaced before attaching.");
		expect(again.status).toBe(409);
		expect(await again.json()).toMatchObject({ ok: false, code: "conflict", status: 409 });
		const attached = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: t.s3_key } });
		expect(attached.status).toBe(200);
		const settled = await client.settledFile(demo.session_id, attached.body.demo.sources.files[0].id);
		expect(settled.status).toBe("ready");
		const after = await put(t.upload_url, "Replaced after extraction.");
		expect(after.status).toBe(409);
		expect(stored(t.s3_key)).toBe("The warranty lasts 37 months.");
		const twice = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: t.s3_key } });
		expect([twice.status, twice.body.code]).toEqual([409, "conflict"]);
	});

	it("10 simultaneous PUTs to one URL: exactly one is stored, the others are 409, no temporary file is left", async () => {
		const demo = await client.newSession();
		const t = await target(demo.session_id);
		const bodies = Array.from({ length: 10 }, (_, i) => `Body number ${i} `.repeat(2000));
		const responses = await Promise.all(bodies.map(b => put(t.upload_url, b)));
		const statuses = responses.map(r => r.status);
		expect(statuses.filter(s => s === 200)).toHaveLength(1);
		expect(statuses.filter(s => s === 409)).toHaveLength(9);
		expect(stored(t.s3_key)).toBe(bodies[statuses.indexOf(200)]);
		const dir = path.dirname(path.join(app.dataDir, "uploads", t.s3_key));
		expect(fs.readdirSync(dir).sort()).toEqual(["notes.txt", "notes.txt.meta.json"]);
	});

	it("a PUT that fails (over the signed size) can be sent again", async () => {
		const demo = await client.newSession();
		const r = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "small.txt", content_type: "text/plain", size: 5 } });
		// Chunked, so the size is only found out while the bytes are written.
		const chunked = await fetch(r.body.upload_url, {
			method: "PUT",
			headers: { "Content-Type": "text/plain", "X-Forwarded-For": "100.72.0.1" },
			body: new ReadableStream({
				start(controller) {
					controller.enqueue(new TextEncoder().encode("0123456789"));
					controller.close();
				}
			}),
			duplex: "half"
		} as RequestInit);
		expect(chunked.status).toBe(413);
		expect((await put(r.body.upload_url, "12345")).status).toBe(200);
	});
});

describe("how many upload URLs a chatbot holds", () => {
	it("at most max_files minus the files attached; attaching hands the slot to the file count", async () => {
		const demo = await client.newSession();
		const targets = [await target(demo.session_id, "a.txt"), await target(demo.session_id, "b.txt"), await target(demo.session_id, "c.txt")];
		const fourth = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "d.txt", content_type: "text/plain" } });
		expect([fourth.status, fourth.body.code]).toEqual([422, "file_cap"]);
		expect((await put(targets[0].upload_url, "Alpha facts.")).status).toBe(200);
		const attached = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "a.txt", file_s3_key: targets[0].s3_key } });
		expect(attached.status).toBe(200);
		// One file attached and two URLs still out: 3 - 1 = 2 slots, both taken.
		const fifth = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "e.txt", content_type: "text/plain" } });
		expect([fifth.status, fifth.body.code]).toEqual([422, "file_cap"]);
	});
});

describe("the janitor's upload sweep", () => {
	it("deletes uploads never attached once their URL has expired, and keeps attached ones", async () => {
		const demo = await client.newSession();
		const kept = await target(demo.session_id, "kept.txt");
		const dropped = await target(demo.session_id, "dropped.txt");
		expect((await put(kept.upload_url, "Kept facts.")).status).toBe(200);
		expect((await put(dropped.upload_url, "Dropped facts.")).status).toBe(200);
		expect((await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "kept.txt", file_s3_key: kept.s3_key } })).status).toBe(200);

		const early = (await app.broker.call("janitor.sweep", { now: Date.now() + 5 * 60_000 })) as { uploadsRemoved: number };
		expect(early.uploadsRemoved).toBe(0);
		const report = (await app.broker.call("janitor.sweep", { now: Date.now() + 20 * 60_000 })) as { uploadsRemoved: number; chatbotsRemoved: number };
		expect(report.uploadsRemoved).toBeGreaterThanOrEqual(1);
		expect(report.chatbotsRemoved).toBe(0);
		expect(fs.existsSync(path.join(app.dataDir, "uploads", dropped.s3_key))).toBe(false);
		expect(stored(kept.s3_key)).toBe("Kept facts.");
		const late = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "dropped.txt", file_s3_key: dropped.s3_key } });
		expect([late.status, late.body.code]).toEqual([422, "empty"]);
	});
});

describe("the uploads budget", () => {
	it("PUTs from one network are limited, with the RateLimit headers of `uploads`", async () => {
		const demo = await client.newSession();
		const targets = [await target(demo.session_id, "1.txt"), await target(demo.session_id, "2.txt"), await target(demo.session_id, "3.txt")];
		const ip = "2001:db8:99:1::1";
		for (const [i, t] of targets.entries()) {
			const res = await put(t.upload_url, `file ${i}`, i === 1 ? "2001:db8:99:1::abcd" : ip);
			expect(res.status).toBe(200);
			expect(res.headers.get("ratelimit-policy")).toBe('"uploads"; q=3; w=600');
		}
		const refused = await put(targets[0].upload_url, "again", "2001:db8:99:1::2");
		expect(refused.status).toBe(429);
		expect(await refused.json()).toMatchObject({ ok: false, code: "rate_limited", status: 429 });
	});
});

describe("files under DATA_DIR", () => {
	it("documents, uploads, vectors and the signing secret are 0600, their directories 0700", async () => {
		const demo = await client.newSession();
		await client.api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "The lighthouse opens at ten." } });
		await client.api(`/api/tools/sessions/${demo.session_id}/training`, { method: "POST" });
		await eventually(async () => ((await client.get(demo.session_id)).status === "ready" ? true : undefined), 30_000, "training");

		const mode = (p: string) => fs.statSync(p).mode & 0o777;
		const files: string[] = [];
		const dirs: string[] = [];
		const walk = (dir: string) => {
			for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) {
					dirs.push(full);
					walk(full);
				} else files.push(full);
			}
		};
		walk(app.dataDir);
		const relative = (list: string[]) => list.map(p => path.relative(app.dataDir, p));
		expect(relative(files)).toEqual(expect.arrayContaining(["signing-secret", "demo_sessions.db", "upload_grants.db"]));
		expect(relative(files).some(f => f.startsWith("vectors/"))).toBe(true);
		expect(relative(files).some(f => f.startsWith("uploads/"))).toBe(true);
		expect(files.filter(f => mode(f) !== 0o600).map(f => `${path.relative(app.dataDir, f)} ${mode(f).toString(8)}`)).toEqual([]);
		expect(dirs.filter(d => mode(d) !== 0o700).map(d => `${path.relative(app.dataDir, d)} ${mode(d).toString(8)}`)).toEqual([]);
	});
});
