/**
 * The demo API's routes are dispatched by the gateway itself (services/gateway/direct-actions.ts)
 * when the request names one exactly; anything else goes through moleculer-web. Both ways must
 * answer alike: the same request with an empty query string appended takes moleculer-web's way, so
 * each pair below compares the two answers (status, headers, body) directly.
 */
import { processMetrics } from "../../lib/ops/metrics";
import { startApp, TestApp } from "../helpers/app";

let app: TestApp;
let sessionId: string;

beforeAll(async () => {
	app = await startApp();
	const created = await fetch(`${app.baseUrl}/api/tools/sessions`, { method: "POST" });
	expect(created.status).toBe(200);
	sessionId = ((await created.json()) as { demo: { session_id: string } }).demo.session_id;
});
afterAll(() => app.stop());

/** Headers that differ by nature between two requests: the clock, the request id, the remaining budget. */
const VARYING = new Set(["date", "x-request-id", "ratelimit-remaining", "ratelimit", "ratelimit-reset"]);

async function answer(path: string, init: RequestInit = {}) {
	const res = await fetch(`${app.baseUrl}${path}`, init);
	const kept: Array<[string, string]> = [];
	res.headers.forEach((value, name) => {
		if (!VARYING.has(name)) kept.push([name, value]);
	});
	const headers = Object.fromEntries(kept.sort());
	return { status: res.status, headers, body: await res.text() };
}

/** The answer the gateway gives directly, and the one moleculer-web gives for the same request. */
async function bothWays(path: string, init: RequestInit = {}) {
	return { direct: await answer(path, init), viaAliases: await answer(`${path}?`, init) };
}

const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe("demo API routes dispatched by the gateway", () => {
	it("answer a live session as moleculer-web does, without going through it", async () => {
		// moleculer-web answers through its `rest` action, which the action metrics count.
		const restCalls = () => processMetrics.counter("moleculer_action_calls_total", "").get({ action: "gateway.rest", outcome: "ok" });
		const before = restCalls();
		const direct = await answer(`/api/tools/sessions/${sessionId}`);
		expect(restCalls()).toBe(before);
		const viaAliases = await answer(`/api/tools/sessions/${sessionId}?`);
		expect(restCalls()).toBe(before + 1);
		expect(direct.status).toBe(200);
		expect(direct.headers["content-type"]).toBe("application/json; charset=utf-8");
		expect(JSON.parse(direct.body)).toMatchObject({ ok: true, demo: { session_id: sessionId } });
		expect(direct).toEqual(viaAliases);
	});

	it.each([
		["an unknown session", "/api/tools/sessions/nope", {}],
		["an escaped id", "/api/tools/sessions/a%20b%2Fc", {}],
		["a body that breaks the schema", "/api/tools/sessions/SESSION/texts", json({ text: 42 })],
		["an array for a body", "/api/tools/sessions/SESSION/texts", json([{ text: "x" }])],
		["a body that is not JSON", "/api/tools/sessions/SESSION/texts", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{oops" }],
		["a body of another type", "/api/tools/sessions/SESSION/texts", { method: "POST", headers: { "Content-Type": "text/plain" }, body: "hello" }],
		["a URL the crawler may not read", "/api/tools/sessions/SESSION/urls", json({ url: "http://127.0.0.1:9/" })]
	] as Array<[string, string, RequestInit]>)("refuse %s with the same error either way", async (_name, path, init) => {
		const { direct, viaAliases } = await bothWays(path.replace("SESSION", sessionId), init);
		expect(direct.status).toBeGreaterThanOrEqual(400);
		expect(direct.status).toBeLessThan(500);
		expect(JSON.parse(direct.body)).toMatchObject({ ok: false, status: direct.status });
		expect(direct).toEqual(viaAliases);
	});

	it("add a text as moleculer-web does (two sessions, one each way)", async () => {
		const other = ((await (await fetch(`${app.baseUrl}/api/tools/sessions`, { method: "POST" })).json()) as { demo: { session_id: string } }).demo.session_id;
		const text = json({ text: "The shop opens at nine." });
		const direct = await answer(`/api/tools/sessions/${sessionId}/texts`, text);
		const viaAliases = await answer(`/api/tools/sessions/${other}/texts?`, text);
		expect(direct.status).toBe(200);
		expect(direct.headers).toEqual(viaAliases.headers);
		// The same answer but for each session's own ids, links and times.
		const own = /^(id|slug|chat_url|embed_snippet)$|_id$|_at$/;
		const shape = (body: string) => JSON.stringify(JSON.parse(body), (key, value) => (own.test(key) ? typeof value : value));
		expect(shape(direct.body)).toBe(shape(viaAliases.body));
	});

	it("charge the demo budget once per request, whichever way it goes", async () => {
		const remaining = async (path: string) => Number((await fetch(`${app.baseUrl}${path}`)).headers.get("ratelimit-remaining"));
		const first = await remaining(`/api/tools/sessions/${sessionId}`);
		expect(await remaining(`/api/tools/sessions/${sessionId}?`)).toBe(first - 1);
		expect(await remaining(`/api/tools/sessions/${sessionId}`)).toBe(first - 2);
	});

	it("leave to moleculer-web what the table does not name exactly, which still answers it", async () => {
		const exact = await answer(`/api/tools/sessions/${sessionId}`);
		for (const path of [`/api/tools/sessions/${sessionId}/`, `/API/tools/sessions/${sessionId}`]) {
			const other = await answer(path);
			expect({ path, status: other.status, body: other.body }).toEqual({ path, status: exact.status, body: exact.body });
		}
		const malformed = await answer("/api/tools/sessions/%E0%A4%A");
		expect(malformed.status).toBeGreaterThanOrEqual(400);
		expect(malformed.status).toBeLessThan(500);
		expect(JSON.parse(malformed.body)).toMatchObject({ ok: false });
	});

	it("answer 503 when no node runs the demo service, before any budget is charged, as moleculer-web does", async () => {
		const lonely = await startApp({ env: { SERVICES: "gateway" } });
		try {
			const get = async (path: string) => {
				const res = await fetch(`${lonely.baseUrl}${path}`);
				return { status: res.status, budget: res.headers.get("ratelimit-remaining"), body: await res.text() };
			};
			const direct = await get("/api/tools/sessions/abc");
			expect(direct.status).toBe(503);
			expect(direct.budget).toBeNull();
			expect(JSON.parse(direct.body)).toMatchObject({ ok: false, code: "unavailable" });
			expect(await get("/api/tools/sessions/abc?")).toEqual(direct);
		} finally {
			await lonely.stop();
		}
	});
});
