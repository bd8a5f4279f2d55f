/**
 * The demo-tool API through real HTTP: sessions, texts, caps (atomic under concurrency), uploads
 * to the embedded store, and the errors of SPEC §4.1. Every request goes through a distinct
 * client IP (TRUST_PROXY=1) so the per-IP demo-api budget does not mix tests together.
 */
import { startApp, TestApp } from "../helpers/app";

let app: TestApp;
let ipCounter = 0;
const nextIp = () => `203.0.113.${++ipCounter % 250}`;

async function api(path: string, init: { method?: string; body?: unknown; ip?: string; headers?: Record<string, string> } = {}) {
	const res = await fetch(app.baseUrl + path, {
		method: init.method ?? (init.body === undefined ? "GET" : "POST"),
		headers: { "Content-Type": "application/json", "X-Forwarded-For": init.ip ?? nextIp(), ...init.headers },
		body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body)
	});
	const text = await res.text();
	return { res, status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function newSession(locale?: string) {
	const { status, body } = await api("/api/tools/sessions", { method: "POST", body: locale ? { locale } : undefined });
	expect(status).toBe(200);
	return body.demo as { session_id: string; slug: string; [k: string]: unknown };
}

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage" } });
});
afterAll(() => app.stop());

describe("createDemoSession / getDemoSession", () => {
	it("creates a session with the documented shape, caps and rate-limit headers", async () => {
		const { res, status, body } = await api("/api/tools/sessions", { method: "POST" });
		expect(status).toBe(200);
		expect(body.ok).toBe(true);
		const demo = body.demo;
		expect(demo.session_id).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 random bits
		expect(demo).toMatchObject({
			status: "queued",
			caps: { max_messages: 20, max_urls: 3, max_chars: 50000, max_files: 3 },
			sources: { urls: [], files: [], texts: [] },
			messages_used: 0,
			chars_used: 0,
			needs_retrain: false,
			locale: "en"
		});
		expect(demo.chat_url).toBe(`${app.baseUrl}/c/${demo.slug}`);
		expect(res.headers.get("ratelimit-policy")).toBe('"demo-api"; q=30; w=60');
		expect(res.headers.get("api-version")).toBe("1.0.0");
	});
	it("an empty body, no body and a JSON body with locale es all work", async () => {
		const noBody = await fetch(`${app.baseUrl}/api/tools/sessions`, { method: "POST", headers: { "X-Forwarded-For": nextIp() } });
		expect(noBody.status).toBe(200);
		const empty = await api("/api/tools/sessions", { method: "POST", body: "" });
		expect(empty.status).toBe(200);
		expect((await newSession("es")).locale).toBe("es");
		expect((await newSession("fr")).locale).toBe("en");
	});
	it("stores only a hash of the session id", async () => {
		const demo = await newSession();
		const fs = await import("node:fs");
		const stored = fs.readFileSync(`${app.dataDir}/demo_sessions.db`, "utf8");
		expect(stored).not.toContain(demo.session_id);
	});
	it("get returns the session; an unknown id is 404 expired", async () => {
		const demo = await newSession();
		const got = await api(`/api/tools/sessions/${demo.session_id}`);
		expect(got.status).toBe(200);
		expect(got.body.demo.slug).toBe(demo.slug);
		const unknown = await api("/api/tools/sessions/not-a-real-session-id");
		expect(unknown.status).toBe(404);
		expect(unknown.body).toMatchObject({ ok: false, code: "expired", status: 404 });
		const bodies: Record<string, unknown> = {
			texts: { text: "x" },
			urls: { url: "https://example.com/" },
			uploads: { filename: "a.txt", content_type: "text/plain" },
			files: { file_name: "a", file_s3_key: "k" },
			training: undefined
		};
		for (const [path, body] of Object.entries(bodies)) {
			const r = await api(`/api/tools/sessions/not-a-real-session-id/${path}`, { method: "POST", body });
			expect([r.status, r.body.code]).toEqual([404, "expired"]);
		}
	});
});

describe("addDemoSessionText and the character cap", () => {
	it("adds a text and counts its characters", async () => {
		const demo = await newSession();
		const { status, body } = await api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "Our kettles ship from Lisbon." } });
		expect(status).toBe(200);
		expect(body.demo.chars_used).toBe(29);
		expect(body.demo.needs_retrain).toBe(true);
		expect(body.demo.sources.texts).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: "ready", char_count: 29, failure: null }]);
	});
	it("12 simultaneous 6,000-character texts give exactly 8 successes and 4 char_cap, and 48,000 characters used", async () => {
		const demo = await newSession();
		const text = "a".repeat(6000);
		const results = await Promise.all(Array.from({ length: 12 }, () => api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text } })));
		expect(results.filter(r => r.status === 200)).toHaveLength(8);
		const refused = results.filter(r => r.status !== 200);
		expect(refused).toHaveLength(4);
		for (const r of refused) expect(r.body).toMatchObject({ status: 422, code: "char_cap" });
		const after = await api(`/api/tools/sessions/${demo.session_id}`);
		expect(after.body.demo.chars_used).toBe(48000);
		expect(after.body.demo.sources.texts).toHaveLength(8);
	});
	it("a text over 50,000 characters is 422 char_cap and writes nothing", async () => {
		const demo = await newSession();
		const r = await api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "b".repeat(50001) } });
		expect([r.status, r.body.code]).toEqual([422, "char_cap"]);
		const after = await api(`/api/tools/sessions/${demo.session_id}`);
		expect(after.body.demo.chars_used).toBe(0);
		expect(after.body.demo.sources.texts).toEqual([]);
	});
	it("a blank text is 422 empty; a missing text is 400 with field detail", async () => {
		const demo = await newSession();
		const blank = await api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "   \n " } });
		expect([blank.status, blank.body.code]).toEqual([422, "empty"]);
		const missing = await api(`/api/tools/sessions/${demo.session_id}/texts`, { body: {} });
		expect([missing.status, missing.body.code]).toEqual([400, "validation_failed"]);
		expect(missing.body.errors.detail).toContain("'text' is required");
		const malformed = await api(`/api/tools/sessions/${demo.session_id}/texts`, { body: '{"text": ' });
		expect([malformed.status, malformed.body.code]).toEqual([400, "invalid_json"]);
	});
});

describe("uploads (embedded store)", () => {
	it("refuses an unaccepted type and an oversize declaration with 422", async () => {
		const demo = await newSession();
		const type = await api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "x.exe", content_type: "application/x-msdownload" } });
		expect([type.status, type.body.code]).toEqual([422, "file_type"]);
		const size = await api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "big.pdf", content_type: "application/pdf", size: 10_000_001 } });
		expect([size.status, size.body.code]).toEqual([422, "file_size"]);
	});
	it("issues a session-scoped key with a sanitised name and a URL valid 10 minutes", async () => {
		const demo = await newSession();
		const r = await api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "../../etc/pass wd.txt", content_type: "text/plain" } });
		expect(r.status).toBe(200);
		expect(r.body.ok).toBe(true);
		expect(r.body.s3_key).toMatch(/^demo\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/pass_wd\.txt$/);
		expect(r.body.upload_url).toMatch(new RegExp(`^${app.baseUrl}/uploads/`));
		const ttl = Date.parse(r.body.expires_at) - Date.now();
		expect(ttl).toBeGreaterThan(590_000);
		expect(ttl).toBeLessThanOrEqual(600_000);
	});
	it("refuses a PUT with another Content-Type, a bad signature, or over the size", async () => {
		const demo = await newSession();
		const r = await api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "a.txt", content_type: "text/plain", size: 10 } });
		const url: string = r.body.upload_url;
		const wrongType = await fetch(url, { method: "PUT", headers: { "Content-Type": "application/pdf" }, body: "0123456789" });
		expect(wrongType.status).toBe(403);
		expect((await wrongType.json()).code).toBe("forbidden");
		const badSig = await fetch(url.replace(/sig=[^&]+/, "sig=AAAA"), { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "0123456789" });
		expect(badSig.status).toBe(403);
		const tooBig = await fetch(url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "0123456789ABC" });
		expect(tooBig.status).toBe(413);
		expect((await tooBig.json()).code).toBe("payload_too_large");
		const tampered = await fetch(url.replace("max=10", "max=99999"), { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "0123456789ABC" });
		expect(tampered.status).toBe(403);
		const ok = await fetch(url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "0123456789" });
		expect(ok.status).toBe(200);
	});
	it("attaching needs a key of this session that was actually uploaded", async () => {
		const a = await newSession();
		const b = await newSession();
		const target = await api(`/api/tools/sessions/${a.session_id}/uploads`, { body: { filename: "notes.txt", content_type: "text/plain" } });
		const notYet = await api(`/api/tools/sessions/${a.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: target.body.s3_key } });
		expect([notYet.status, notYet.body.code]).toEqual([422, "empty"]);
		const foreign = await api(`/api/tools/sessions/${b.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: target.body.s3_key } });
		expect([foreign.status, foreign.body.code]).toEqual([400, "validation_failed"]);
		const traversal = await api(`/api/tools/sessions/${a.session_id}/files`, { body: { file_name: "x", file_s3_key: "demo/../../etc/passwd" } });
		expect(traversal.status).toBe(400);
		const after = await api(`/api/tools/sessions/${a.session_id}`);
		expect(after.body.demo.sources.files).toEqual([]);
	});
});
