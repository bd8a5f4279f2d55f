/**
 * The gateway's cross-cutting contract over real HTTP: version and link headers, JSON errors for
 * every failure, negotiated 404s, validation detail, the deprecation machinery and rate limits.
 */
import { probeRoutes, probeService } from "../helpers/probe-service";
import { startApp, TestApp } from "../helpers/app";
import type { RouteDef } from "../../lib/http/routes/types";

const deprecatedRoute: RouteDef = { ...probeRoutes[1], operationId: "probeOld", path: "/api/v0/probe", rateLimit: undefined };

let app: TestApp;

beforeAll(async () => {
	app = await startApp({
		env: { SERVICES: "gateway,chatbots", TRUST_PROXY: "1" },
		extraServices: [probeService],
		gateway: {
			extraRoutes: [...probeRoutes, deprecatedRoute],
			deprecations: [
				{
					pathPrefix: "/api/v0",
					deprecatedAt: new Date("2026-06-01T00:00:00Z"),
					sunsetAt: new Date("2027-06-01T00:00:00Z"),
					successor: "https://svc.example/api/v1"
				}
			]
		}
	});
});
afterAll(() => app.stop());

function expectCommonHeaders(res: Response) {
	expect(res.headers.get("api-version")).toBe("1.0.0");
	const link = res.headers.get("link") ?? "";
	expect(link).toContain('rel="service-desc"');
	expect(link).toContain('rel="service-doc"');
	expect(link).toContain('rel="deprecation-policy"');
}

async function expectErrorBody(res: Response, status: number, code: string) {
	expect(res.status).toBe(status);
	expect(res.headers.get("content-type")).toMatch(/^application\/json/);
	const body = await res.json();
	expect(body).toMatchObject({ ok: false, code, status, error: code });
	expect(typeof body.message).toBe("string");
	expect(typeof body.hint).toBe("string");
	expect(body.documentation_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/docs\/reference\/errors#/);
	return body;
}

describe("headers on every response", () => {
	it.each([
		["GET", "/v2/health"],
		["GET", "/api/nope"],
		["GET", "/nowhere"],
		["GET", "/api/probe/crash"]
	])("%s %s carries API-Version and Link", async (method, path) => {
		const res = await fetch(app.baseUrl + path, { method });
		expectCommonHeaders(res);
		await res.arrayBuffer();
	});
	it("sends no deprecation headers on supported surfaces", async () => {
		const res = await fetch(`${app.baseUrl}/v2/health`);
		expect(res.headers.get("deprecation")).toBeNull();
		expect(res.headers.get("sunset")).toBeNull();
	});
	it("marks a surface listed in the deprecation table", async () => {
		const res = await fetch(`${app.baseUrl}/api/v0/probe`);
		expect(res.status).toBe(200);
		expect(res.headers.get("deprecation")).toBe(`@${Date.parse("2026-06-01T00:00:00Z") / 1000}`);
		expect(res.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
		expect(res.headers.get("link")).toContain('<https://svc.example/api/v1>; rel="successor-version"');
		expectCommonHeaders(res);
	});
});

describe("errors", () => {
	const echo = (body: string, headers: Record<string, string> = { "Content-Type": "application/json" }, id = "abc123") =>
		fetch(`${app.baseUrl}/api/probe/echo/${id}`, { method: "POST", headers, body });

	it("answers a good request", async () => {
		const res = await echo(JSON.stringify({ url: "https://example.com/" }));
		expect(res.status).toBe(200);
		expect((await res.json()).params.url).toBe("https://example.com/");
	});
	it("malformed JSON → 400 invalid_json", async () => {
		await expectErrorBody(await echo('{"url": '), 400, "invalid_json");
	});
	it("body too large → 413 payload_too_large", async () => {
		await expectErrorBody(await echo(JSON.stringify({ url: "https://e.com/", pad: "x".repeat(600_000) })), 413, "payload_too_large");
	});
	it("validation → 400 with field-level detail", async () => {
		const body = await expectErrorBody(await echo(JSON.stringify({ url: "not a url", extra: 1, count: 0 }), undefined, "BAD!"), 400, "validation_failed");
		const fields = body.errors.fields.map((f: { field: string }) => f.field);
		expect(fields).toEqual(expect.arrayContaining(["url", "count", "item_id"]));
		expect(body.errors.detail).toContain("'url' must be a valid uri");
		expect(body.errors.detail).toContain("'extra' is not an accepted field");
	});
	it("a missing required field is named", async () => {
		const body = await expectErrorBody(await echo("{}"), 400, "validation_failed");
		expect(body.errors.detail).toContain("'url' is required");
	});
	it("a JSON array where an object is expected is refused, not crashed", async () => {
		await expectErrorBody(await echo("[1,2]"), 400, "validation_failed");
	});
	it("typed service errors keep their code and status", async () => {
		await expectErrorBody(await fetch(`${app.baseUrl}/api/probe/fail/char_cap`), 422, "char_cap");
		await expectErrorBody(await fetch(`${app.baseUrl}/api/probe/fail/expired`), 404, "expired");
		await expectErrorBody(await fetch(`${app.baseUrl}/api/probe/fail/global_cap`), 503, "global_cap");
	});
	it("an unexpected crash → 500 internal without internals", async () => {
		const res = await fetch(`${app.baseUrl}/api/probe/crash`);
		const text = await res.clone().text();
		await expectErrorBody(res, 500, "internal");
		expect(text).not.toMatch(/hunter2|db\.ts|at .*\(/);
	});
	it("a wrong method on a known path is a JSON 404 under /api", async () => {
		await expectErrorBody(await fetch(`${app.baseUrl}/api/probe/crash`, { method: "DELETE" }), 404, "not_found");
	});
});

describe("unknown paths (SPEC §7.3)", () => {
	it.each(["/api/nope", "/mcp/nope", "/.well-known/nope"])("%s → JSON 404 even with no Accept", async path => {
		const res = await fetch(app.baseUrl + path, { headers: { Accept: "" } });
		await expectErrorBody(res, 404, "not_found");
	});
	it("a browser gets a designed HTML page", async () => {
		const res = await fetch(`${app.baseUrl}/no/such/page`, { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
		expect(res.status).toBe(404);
		expect(res.headers.get("content-type")).toMatch(/^text\/html/);
		expect(await res.text()).toMatch(/<html[\s\S]*Page not found/i);
	});
	it("application/json gets the Error body", async () => {
		await expectErrorBody(await fetch(`${app.baseUrl}/no/such/page`, { headers: { Accept: "application/json" } }), 404, "not_found");
	});
	it.each(["*/*", "text/plain", undefined])("Accept %s gets the markdown pointer document", async accept => {
		const res = await fetch(`${app.baseUrl}/no/such/page`, { headers: accept === undefined ? {} : { Accept: accept } });
		expect(res.status).toBe(404);
		expect(res.headers.get("content-type")).toMatch(/^text\/markdown/);
		const text = await res.text();
		for (const target of ["/sitemap.xml", "/llms.txt", "/docs", "/developers"]) expect(text).toContain(target);
	});
});

describe("rate limits", () => {
	it("every response carries the headers and 60 concurrent calls against 30 give exactly 30 refusals", async () => {
		const ip = "198.51.100.7";
		const responses = await Promise.all(
			Array.from({ length: 60 }, () => fetch(`${app.baseUrl}/api/probe/limited`, { headers: { "X-Forwarded-For": ip } }))
		);
		const statuses = responses.map(r => r.status);
		expect(statuses.filter(s => s === 200)).toHaveLength(30);
		expect(statuses.filter(s => s === 429)).toHaveLength(30);
		for (const res of responses) {
			expect(res.headers.get("ratelimit-limit")).toBe("30");
			expect(res.headers.get("ratelimit-policy")).toBe('"demo-api"; q=30; w=60');
			const reset = Number(res.headers.get("ratelimit-reset"));
			expect(reset).toBeGreaterThan(0);
			expect(reset).toBeLessThanOrEqual(60);
			expect(res.headers.get("ratelimit")).toBe(`limit=30, remaining=${res.headers.get("ratelimit-remaining")}, reset=${reset}`);
		}
		const remaining = responses.filter(r => r.status === 200).map(r => Number(r.headers.get("ratelimit-remaining"))).sort((a, b) => a - b);
		expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => i));
		const refused = responses.find(r => r.status === 429) as Response;
		expect(refused.headers.get("retry-after")).toBe(refused.headers.get("ratelimit-reset"));
		await expectErrorBody(refused, 429, "rate_limited");
	});
	it("counts per client IP (another client still has its budget)", async () => {
		const res = await fetch(`${app.baseUrl}/api/probe/limited`, { headers: { "X-Forwarded-For": "198.51.100.8" } });
		expect(res.status).toBe(200);
		expect(res.headers.get("ratelimit-remaining")).toBe("29");
	});
});
