/**
 * Files end to end through HTTP: createDemoSessionUpload → PUT to the signed URL (embedded store,
 * served by the gateway) → addDemoSessionFile → background extraction by the extractor service
 * (durable channel job) → getDemoSession shows the file move on. Real PDF, DOCX and DOC made by
 * LibreOffice, real text and Markdown, a scan-like PDF without a text layer and a malformed PDF
 * (test/fixtures/README.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { charCount, Chatbot, Source } from "../../lib/chatbots/model";
import { createLocalStore } from "../../lib/storage";
import { startApp, TestApp } from "../helpers/app";
import { demoClient, DemoClient } from "../helpers/demo-client";
import { eventually } from "../helpers/processes";

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "..", "fixtures", name));

const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const DOC = "application/msword";
/** In every fixture (test/fixtures/source/facts.txt, notes.txt, guide.md), in slightly different sentences. */
const FACT = "warranty lasts 37 months";

let app: TestApp;
let client: DemoClient;

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,extractor" } });
	client = demoClient(app.baseUrl, "198.18.0");
});
afterAll(() => app?.stop());

async function chatbotOf(slug: string): Promise<Chatbot> {
	return (await app.broker.call("chatbots.findBySlug", { slug })) as Chatbot;
}

/** Ready sources with their text, as training reads them. */
async function storedTexts(slug: string): Promise<Source[]> {
	const chatbot = await chatbotOf(slug);
	return ((await app.broker.call("chatbots.trainingInput", { id: chatbot._id })) as { sources: Source[] }).sources;
}

/** Attaches a file and returns its id (the attach answers at once, before extraction). */
async function attachFile(sessionId: string, name: string, type: string, bytes = fixture(name)): Promise<string> {
	const r = await client.attach(sessionId, name, type, bytes);
	expect(r.status).toBe(200);
	const file = r.body.demo.sources.files.find((f: { file_name: string }) => f.file_name === name);
	expect(file).toBeDefined();
	return file.id;
}

describe("each accepted file type", () => {
	it.each([
		["facts.pdf", PDF, "exactly 4,812 units"],
		["facts.docx", DOCX, "exactly 4,812 units"],
		["facts.doc", DOC, "exactly 4,812 units"],
		["notes.txt", "text/plain", "14 euros in Tromsø"],
		["guide.md", "text/markdown", "Descale every 11 weeks"]
	])("%s is extracted in the background and counted", async (name, type, secondFact) => {
		const demo = await client.newSession();
		const attached = await client.attach(demo.session_id, name, type, fixture(name));
		expect(attached.status).toBe(200);
		const [file] = attached.body.demo.sources.files;
		expect(file).toMatchObject({ file_name: name, failure: null });
		expect(["pending", "processing", "ready"]).toContain(file.status);

		const settled = await client.settledFile(demo.session_id, file.id);
		expect(settled.status).toBe("ready");
		expect(settled.failure).toBeNull();
		const [stored] = await storedTexts(demo.slug);
		expect(stored.text).toContain(FACT);
		expect(stored.text).toContain(secondFact);
		expect(settled.char_count).toBe(charCount(stored.text ?? ""));
		const after = await client.get(demo.session_id);
		expect(after.chars_used).toBe(settled.char_count);
		if (name === "guide.md") expect(stored.text).not.toContain("FRONTMATTER-ONLY-7731");
	});
});

describe("files that give no text", () => {
	it("a scan-like PDF ends failed with empty and counts no characters", async () => {
		const demo = await client.newSession();
		const id = await attachFile(demo.session_id, "scan-no-text.pdf", PDF);
		const settled = await client.settledFile(demo.session_id, id);
		expect(settled).toMatchObject({ status: "failed", char_count: 0, failure: { code: "empty" } });
		expect(settled.failure?.message).toMatch(/text layer/);
		expect((await client.get(demo.session_id)).chars_used).toBe(0);
	});

	it("a file over the remaining budget ends failed with char_cap; the budget is untouched", async () => {
		const demo = await client.newSession();
		expect((await client.api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "t".repeat(49_950) } })).status).toBe(200);
		const id = await attachFile(demo.session_id, "facts.docx", DOCX);
		const settled = await client.settledFile(demo.session_id, id);
		expect(settled).toMatchObject({ status: "failed", char_count: 0, failure: { code: "char_cap" } });
		expect((await client.get(demo.session_id)).chars_used).toBe(49_950);
	});

	it("a malformed PDF fails its source and the service carries on", async () => {
		const demo = await client.newSession();
		const bad = await attachFile(demo.session_id, "malformed.pdf", PDF);
		expect(await client.settledFile(demo.session_id, bad)).toMatchObject({ status: "failed", char_count: 0, failure: { code: "unreadable" } });
		const good = await attachFile(demo.session_id, "notes.txt", "text/plain");
		expect((await client.settledFile(demo.session_id, good)).status).toBe("ready");
	});

	it("bytes that are not what the declared type says end failed with file_type", async () => {
		const demo = await client.newSession();
		const id = await attachFile(demo.session_id, "fake.pdf", PDF, Buffer.from("plain words pretending to be a PDF"));
		expect(await client.settledFile(demo.session_id, id)).toMatchObject({ status: "failed", failure: { code: "file_type" } });
	});
});

describe("the file cap", () => {
	it("the fourth file is 422 file_cap, at upload and at attach, and nothing is written", async () => {
		const demo = await client.newSession();
		// A chatbot holds at most as many unattached upload URLs as files it can still attach: three.
		const keys: string[] = [];
		for (let i = 1; i <= 3; i++) keys.push((await client.upload(demo.session_id, `notes-${i}.txt`, "text/plain", fixture("notes.txt"))).s3_key);
		const early = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "notes-4.txt", content_type: "text/plain" } });
		expect([early.status, early.body.code]).toEqual([422, "file_cap"]);
		// A fourth upload granted by the storage service itself stands for one issued while the cap
		// still had room: the attach is where the cap holds last.
		const chatbot = await chatbotOf(demo.slug);
		const fourth = `demo/${chatbot._id}/6f0c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f/notes-4.txt`;
		const target = (await app.broker.call("storage.presignPut", { key: fourth, content_type: "text/plain", max_bytes: 10_000_000, ttl_seconds: 600, slots: 4 })) as { url: string };
		expect((await fetch(target.url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: new Uint8Array(fixture("notes.txt")) })).status).toBe(200);
		keys.push(fourth);
		for (const [i, key] of keys.slice(0, 3).entries()) {
			const r = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: `notes-${i + 1}.txt`, file_s3_key: key } });
			expect(r.status).toBe(200);
		}
		const fourthAttach = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes-4.txt", file_s3_key: keys[3] } });
		expect([fourthAttach.status, fourthAttach.body.code]).toEqual([422, "file_cap"]);
		const another = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "notes-5.txt", content_type: "text/plain" } });
		expect([another.status, another.body.code]).toEqual([422, "file_cap"]);

		const after = await client.get(demo.session_id);
		expect(after.sources.files.map(f => f.file_name)).toEqual(["notes-1.txt", "notes-2.txt", "notes-3.txt"]);
		for (const file of after.sources.files) expect((await client.settledFile(demo.session_id, file.id)).status).toBe("ready");
	});
});

describe("upload URLs expire", () => {
	it("an issued URL is accepted until 10 minutes after issue and refused after", async () => {
		const demo = await client.newSession();
		const target = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "notes.txt", content_type: "text/plain" } });
		const url = new URL(target.body.upload_url);
		const store = createLocalStore(app.config);
		const issued = Date.now();
		expect(store.verifyPut(target.body.s3_key, url.searchParams, "text/plain", issued + 9 * 60_000)).toMatchObject({ key: target.body.s3_key });
		expect(store.verifyPut(target.body.s3_key, url.searchParams, "text/plain", issued + 10 * 60_000 + 2_000)).toEqual({ refused: "expired" });
	});

	it("a PUT to an expired URL is refused over HTTP, and the key cannot be attached", async () => {
		const demo = await client.newSession();
		const chatbot = await chatbotOf(demo.slug);
		const key = `demo/${chatbot._id}/0b7c6a52-5a43-4c36-9d1e-6f1f0e3a9b11/late.txt`;
		// Issued by the storage service with a validity that ended a minute ago.
		const target = (await app.broker.call("storage.presignPut", { key, content_type: "text/plain", max_bytes: 10_000_000, ttl_seconds: -60 })) as { url: string };
		const put = await fetch(target.url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "late bytes" });
		expect(put.status).toBe(403);
		const refusal = await put.json();
		expect(refusal).toMatchObject({ ok: false, code: "forbidden" });
		expect(refusal.message).toMatch(/expired/);
		const attach = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "late.txt", file_s3_key: key } });
		expect([attach.status, attach.body.code]).toEqual([422, "empty"]);
		expect((await client.get(demo.session_id)).sources.files).toEqual([]);
	});
});

describe("extraction jobs", () => {
	it("queuing a finished extraction again changes nothing", async () => {
		const demo = await client.newSession();
		const id = await attachFile(demo.session_id, "notes.txt", "text/plain");
		const first = await client.settledFile(demo.session_id, id);
		expect(first.status).toBe("ready");
		const chatbot = await chatbotOf(demo.slug);
		await app.broker.call("extractor.enqueue", { chatbot_id: chatbot._id, source_id: id });
		// The duplicate job is dropped once its worker sees the source is done; until then a sweep would re-send it.
		await eventually(async () => ((await app.broker.call("extractor.requeueStale", { now: Date.now() + 3_600_000 })) as { requeued: number }).requeued === 0 || undefined);
		const after = await client.get(demo.session_id);
		expect(after.sources.files).toEqual([first]);
		expect(after.chars_used).toBe(first.char_count);
	});
});
