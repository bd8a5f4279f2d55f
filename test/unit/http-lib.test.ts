import { clientIp } from "../../lib/http/client-ip";
import { explicitlyAccepts, negotiate } from "../../lib/http/negotiate";
import { renderError } from "../../lib/http/error-body";
import { appError } from "../../lib/errors";
import { bindingDecision, RATE_POLICIES, rateLimitHeaders } from "../../lib/http/rate-policies";
import { deprecationHeaders, findDeprecation, linkHeader } from "../../lib/http/versioning";
import { Errors } from "moleculer";

describe("clientIp", () => {
	it("uses the socket address and ignores X-Forwarded-For by default", () => {
		expect(clientIp("10.0.0.5", "1.2.3.4", 0)).toBe("10.0.0.5");
		expect(clientIp("::ffff:127.0.0.1", undefined, 0)).toBe("127.0.0.1");
	});
	it("trusts exactly N proxy hops", () => {
		// client 1.1.1.1 → spoofed entry → proxy A (2.2.2.2) → proxy B (socket 3.3.3.3)
		const xff = "9.9.9.9, 1.1.1.1, 2.2.2.2";
		expect(clientIp("3.3.3.3", xff, 1)).toBe("2.2.2.2");
		expect(clientIp("3.3.3.3", xff, 2)).toBe("1.1.1.1");
		expect(clientIp("3.3.3.3", "1.1.1.1", 5)).toBe("1.1.1.1");
	});
});

describe("negotiate", () => {
	it("honours q-values and specificity", () => {
		expect(negotiate("application/json", ["text/plain", "application/json"])).toBe("application/json");
		expect(negotiate(undefined, ["text/plain", "application/json"])).toBe("text/plain");
		expect(negotiate("*/*", ["text/plain", "application/json"])).toBe("text/plain");
		expect(negotiate("text/html;q=0.5, application/json", ["text/html", "application/json"])).toBe("application/json");
		expect(negotiate("image/png", ["text/plain"])).toBeUndefined();
		expect(negotiate("text/*;q=0.3, application/json;q=0", ["application/json", "text/plain"])).toBe("text/plain");
	});
	it("tells an explicit type from a wildcard", () => {
		const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
		expect(explicitlyAccepts(browser, "text/html")).toBe(true);
		expect(explicitlyAccepts("*/*", "text/html")).toBe(false);
	});
});

describe("renderError", () => {
	const base = "https://svc.example";
	it("renders our codes with status, hint and documentation", () => {
		const r = renderError(appError("char_cap", "Too many characters."), base);
		expect(r.status).toBe(422);
		expect(r.body).toMatchObject({ ok: false, code: "char_cap", error: "char_cap", status: 422, message: "Too many characters." });
		expect(r.body.hint.length).toBeGreaterThan(10);
		expect(r.body.documentation_url).toBe("https://svc.example/docs/reference/errors#char_cap");
	});
	it("maps framework errors onto stable codes", () => {
		expect(renderError(Object.assign(new Error("x"), { status: 400, type: "entity.parse.failed" }), base).body.code).toBe("invalid_json");
		expect(renderError(Object.assign(new Error("x"), { status: 413, type: "entity.too.large" }), base).status).toBe(413);
		expect(renderError(new Errors.ServiceNotFoundError({ action: "a.b" }), base).status).toBe(503);
		expect(renderError(new Errors.RequestTimeoutError({ action: "a.b", nodeID: "n" }), base).body.code).toBe("timeout");
		const v = renderError(new Errors.ValidationError("bad", "VALIDATION_ERROR", [{ field: "url", message: "The 'url' field must be a string." }]), base);
		expect(v.status).toBe(400);
		expect(v.body.errors).toEqual({ detail: "The 'url' field must be a string.", fields: [{ field: "url", message: "The 'url' field must be a string." }] });
	});
	it("never leaks an unexpected error's message", () => {
		const r = renderError(new Error("password=hunter2 at db.ts:42"), base);
		expect(r.status).toBe(500);
		expect(r.unexpected).toBe(true);
		expect(JSON.stringify(r.body)).not.toContain("hunter2");
	});
	it("carries Retry-After and extra headers", () => {
		const r = renderError(appError("rate_limited", "slow down", { retryAfter: 17, headers: { Allow: "POST" } }), base);
		expect(r.headers).toEqual({ Allow: "POST", "Retry-After": "17" });
	});
});

describe("rate-limit headers", () => {
	it("formats the discrete and structured headers", () => {
		const h = rateLimitHeaders({ policy: RATE_POLICIES["demo-api"], allowed: true, remaining: 7, resetSeconds: 42 });
		expect(h).toEqual({
			"RateLimit-Limit": "30",
			"RateLimit-Remaining": "7",
			"RateLimit-Reset": "42",
			RateLimit: "limit=30, remaining=7, reset=42",
			"RateLimit-Policy": '"demo-api"; q=30; w=60'
		});
		const refused = rateLimitHeaders({ policy: RATE_POLICIES.mcp, allowed: false, remaining: 0, resetSeconds: 9 });
		expect(refused["Retry-After"]).toBe("9");
	});
	it("binds to a refusal, else to the scarcest budget", () => {
		const a = { policy: RATE_POLICIES.mcp, allowed: true, remaining: 50, resetSeconds: 3 };
		const b = { policy: RATE_POLICIES["mcp-create-chatbot"], allowed: true, remaining: 2, resetSeconds: 500 };
		expect(bindingDecision([a, b])).toBe(b);
		const c = { ...a, allowed: false, remaining: 0 };
		expect(bindingDecision([c, b])).toBe(c);
	});
});

describe("versioning", () => {
	it("publishes the three discovery relations", () => {
		const link = linkHeader("https://svc.example");
		expect(link).toContain('<https://svc.example/openapi.json>; rel="service-desc"');
		expect(link).toContain('rel="service-doc"');
		expect(link).toContain('rel="deprecation-policy"');
	});
	it("matches deprecated prefixes on segment boundaries", () => {
		const entry = { pathPrefix: "/v1", deprecatedAt: new Date("2026-01-01T00:00:00Z"), sunsetAt: new Date("2026-07-01T00:00:00Z"), successor: "https://svc.example/v2" };
		expect(findDeprecation("/v1/health", [entry])).toBe(entry);
		expect(findDeprecation("/v1", [entry])).toBe(entry);
		expect(findDeprecation("/v10/x", [entry])).toBeUndefined();
		expect(deprecationHeaders(entry)).toEqual({
			Deprecation: "@1767225600",
			Sunset: "Wed, 01 Jul 2026 00:00:00 GMT",
			Link: '<https://svc.example/v2>; rel="successor-version"'
		});
	});
});
