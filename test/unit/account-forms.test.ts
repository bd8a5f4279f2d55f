/**
 * The pure parts of the site's forms: which Referrer-Policy a page gets (and so what Origin Chromium
 * sends on its form posts), the CSRF rules a post must pass, reply values, and the `next` path a
 * log-in returns to.
 */
import { anonymousCsrf, csrfTokenForSession, CSRF_COOKIE_NAME, formPostAllowed, FormPost, generateAnonymousCsrfPair, originAllowed } from "../../lib/accounts/csrf";
import { fillPath, loginPath, safeNext } from "../../lib/accounts/next-path";
import { jsonReply, noContentReply, pageReply, redirectReply, wantsJson } from "../../lib/http/reply";

const SECRET = "test-signing-secret-0123456789";
const PUBLIC_URL = "https://bots.example.net";
const SESSION = "S".repeat(43);

describe("page replies", () => {
	it("send no Referer at all from a page without a form", () => {
		const reply = pageReply("<h1>This claim link no longer works</h1>", { status: 404 });
		expect(reply).toMatchObject({ status: 404, contentType: "text/html; charset=utf-8" });
		expect(reply.headers).toMatchObject({
			"Referrer-Policy": "no-referrer",
			"Cache-Control": "no-store",
			"X-Frame-Options": "DENY",
			"Content-Security-Policy": "frame-ancestors 'none'",
			"X-Content-Type-Options": "nosniff"
		});
	});

	it("send only the origin from a page with a form, so its posts carry a real Origin", () => {
		const reply = pageReply('<form method="post" action="/claim/abc"><button>Keep</button></form>', { cookies: ["a=b"] });
		expect(reply.headers?.["Referrer-Policy"]).toBe("strict-origin");
		expect(reply.cookies).toEqual(["a=b"]);
		// Escaped user text that mentions a form is not a form.
		expect(pageReply("<p>&lt;form&gt; is a tag</p>").headers?.["Referrer-Policy"]).toBe("no-referrer");
	});

	it("JSON, redirects and empty replies", () => {
		expect(jsonReply({ ok: true }, { status: 201, location: "/account" })).toMatchObject({ status: 201, body: { ok: true }, location: "/account", headers: { "Cache-Control": "no-store" } });
		expect(redirectReply("/account", { cookies: ["c=1"] })).toEqual({ status: 303, location: "/account", headers: { "Cache-Control": "no-store" }, cookies: ["c=1"] });
		expect(noContentReply()).toEqual({ status: 204 });
	});

	it("answer JSON to a JSON body or an Accept naming JSON and not HTML", () => {
		expect(wantsJson({ "content-type": "application/json; charset=utf-8" })).toBe(true);
		expect(wantsJson({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" })).toBe(true);
		expect(wantsJson({ "content-type": "application/x-www-form-urlencoded", accept: "text/html,application/json;q=0.9" })).toBe(false);
		expect(wantsJson({})).toBe(false);
	});
});

describe("form posts (CSRF)", () => {
	const sessionToken = csrfTokenForSession(SECRET, SESSION);
	const post = (fields: Partial<FormPost>): boolean =>
		formPostAllowed(SECRET, PUBLIC_URL, { origin: PUBLIC_URL, jsonBody: false, cookieHeader: undefined, submitted: sessionToken, sessionToken: SESSION, ...fields });

	it("accept our origin, or none, with the session's token", () => {
		expect(post({})).toBe(true);
		expect(post({ origin: undefined })).toBe(true);
		expect(post({ origin: ` ${PUBLIC_URL} ` })).toBe(true);
	});

	it("refuse `null` and every other origin, whatever the token", () => {
		for (const origin of ["null", "http://bots.example.net", "https://bots.example.net:444", "https://evil.example", ""]) {
			expect(originAllowed(origin, PUBLIC_URL)).toBe(false);
			expect(post({ origin })).toBe(false);
			expect(post({ origin, jsonBody: true })).toBe(false);
		}
	});

	it("need no token for a JSON body, and the right one for a form", () => {
		expect(post({ jsonBody: true, submitted: undefined })).toBe(true);
		expect(post({ submitted: undefined })).toBe(false);
		expect(post({ submitted: csrfTokenForSession(SECRET, "T".repeat(43)) })).toBe(false);
	});

	it("check anonymous forms against the signed cookie, reusing a browser's cookie", () => {
		const pair = generateAnonymousCsrfPair(SECRET);
		const cookieHeader = `${CSRF_COOKIE_NAME}=${pair.cookieValue}`;
		expect(post({ sessionToken: null, cookieHeader, submitted: pair.formToken })).toBe(true);
		expect(post({ sessionToken: null, cookieHeader: undefined, submitted: pair.formToken })).toBe(false);
		expect(anonymousCsrf(SECRET, cookieHeader, PUBLIC_URL)).toEqual({ token: pair.formToken });
		const fresh = anonymousCsrf(SECRET, "cb_csrf=tampered", PUBLIC_URL);
		expect(fresh.setCookie).toMatch(/^cb_csrf=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=7200; HttpOnly; SameSite=Lax; Secure$/);
	});
});

describe("the path a log-in returns to", () => {
	it("is a local path, or /account", () => {
		expect(safeNext("/claim/abc_DEF-123")).toBe("/claim/abc_DEF-123");
		expect(safeNext("/account?tab=keys")).toBe("/account?tab=keys");
		for (const bad of [undefined, "", "https://evil.example", "//evil.example", "/\\evil.example", "account", `/${"a".repeat(300)}`, "/a b"]) {
			expect(safeNext(bad)).toBe("/account");
		}
	});

	it("is filled from the action's params and carried in `next`", () => {
		expect(fillPath("/claim/{token}", { token: "abc" })).toBe("/claim/abc");
		expect(fillPath("/dashboard/chatbots/{id}/sources", { id: "a/b?c" })).toBe("/dashboard/chatbots/a%2Fb%3Fc/sources");
		expect(fillPath("/claim/{token}", {})).toBe("/claim/");
		expect(loginPath("/claim/abc")).toBe("/account/login?next=%2Fclaim%2Fabc");
	});
});
