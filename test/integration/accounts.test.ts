/**
 * Accounts over real HTTP: the browser flow (pages, CSRF-protected forms, cookies, redirects) and
 * the JSON forms for programs, API keys shown once and revoked, and secrets stored only as hashes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import { startApp, TestApp } from "../helpers/app";
import { createApiKey, mcpPost, rawRequest, RawReply, sessionCookie, signUp } from "../helpers/mcp-http";

let app: TestApp;

/** A browser: keeps cookies between requests, sends forms, never follows redirects. */
class Browser {
	private readonly cookies = new Map<string, string>();
	constructor(private readonly baseUrl: string) {}

	cookieHeader(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
	}

	private remember(reply: RawReply): RawReply {
		for (const setCookie of reply.headers.getSetCookie()) {
			const [pair] = setCookie.split(";");
			const eq = pair.indexOf("=");
			const name = pair.slice(0, eq);
			const value = pair.slice(eq + 1);
			if (/Max-Age=0/.test(setCookie)) this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
		return reply;
	}

	async get(pathname: string): Promise<RawReply> {
		return this.remember(await rawRequest(this.baseUrl + pathname, { redirect: "manual", headers: { Accept: "text/html", Cookie: this.cookieHeader() } }));
	}

	async submit(pathname: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<RawReply> {
		return this.remember(
			await rawRequest(this.baseUrl + pathname, {
				method: "POST",
				redirect: "manual",
				headers: { Accept: "text/html", "Content-Type": "application/x-www-form-urlencoded", Cookie: this.cookieHeader(), ...headers },
				body: new URLSearchParams(fields).toString()
			})
		);
	}

	has(name: string): boolean {
		return this.cookies.has(name);
	}
}

/** The CSRF token of the (first) form on a page. */
function csrfOf(html: string): string {
	const match = /name="csrf_token" value="([^"]+)"/.exec(html);
	if (!match) throw new Error("no CSRF field on the page");
	return match[1];
}

beforeAll(async () => {
	// These flows sign up many accounts from one address; the `accounts` budget itself is tested below.
	app = await startApp({
		env: { SERVICES: "gateway,chatbots,accounts,mcp,storage" },
		gateway: { ratePolicies: { accounts: { ...RATE_POLICIES.accounts, limit: 1000 } } }
	});
});
afterAll(() => app.stop());

describe("browser flow", () => {
	it("signs up through the form, sees the settings page, creates a key shown once, revokes it, logs out", async () => {
		const browser = new Browser(app.baseUrl);
		const page = await browser.get("/account/signup");
		expect(page.status).toBe(200);
		expect(page.headers.get("content-type")).toMatch(/^text\/html/);
		expect(page.headers.get("x-frame-options")).toBe("DENY");
		expect(page.text).toContain('<meta name="robots" content="noindex">');
		const csrfCookie = page.headers.getSetCookie().find(c => c.startsWith("cb_csrf="));
		expect(csrfCookie).toMatch(/HttpOnly/);
		expect(csrfCookie).toMatch(/SameSite=Lax/);
		expect(csrfCookie).not.toMatch(/Secure/); // plain-http PUBLIC_URL

		const signedUp = await browser.submit("/account/signup", { email: "Browser@Example.com", password: "a long enough password", csrf_token: csrfOf(page.text), next: "/account" });
		expect(signedUp.status).toBe(303);
		expect(signedUp.headers.get("location")).toBe("/account");
		const session = signedUp.headers.getSetCookie().find(c => c.startsWith("cb_session="));
		expect(session).toMatch(/HttpOnly/);
		expect(session).toMatch(/SameSite=Lax/);

		const settings = await browser.get("/account");
		expect(settings.status).toBe(200);
		expect(settings.text).toContain("browser@example.com");
		expect(settings.text).toContain("Free plan");

		const created = await browser.submit("/account/api-keys", { name: "laptop agent", csrf_token: csrfOf(settings.text) });
		expect(created.status).toBe(200);
		const key = /(cbk_live_[0-9A-Za-z]{32})/.exec(created.text)?.[1] as string;
		expect(key).toBeDefined();
		expect((await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { key })).status).toBe(200);

		const again = await browser.get("/account");
		expect(again.text).not.toContain(key); // shown once
		expect(again.text).toContain(`…${key.slice(-4)}`);
		const keyId = /\/account\/api-keys\/([^/]+)\/revoke/.exec(again.text)?.[1] as string;

		const revoked = await browser.submit(`/account/api-keys/${keyId}/revoke`, { csrf_token: csrfOf(again.text) });
		expect(revoked.status).toBe(303);
		expect((await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { key })).status).toBe(401);

		const loggedOut = await browser.submit("/account/logout", { csrf_token: csrfOf(again.text) });
		expect(loggedOut.status).toBe(303);
		expect(browser.has("cb_session")).toBe(false);
		expect((await browser.get("/account")).status).toBe(303);
	});

	it("refuses forms without a valid CSRF token or from another origin", async () => {
		const browser = new Browser(app.baseUrl);
		const page = await browser.get("/account/signup");
		const noToken = await browser.submit("/account/signup", { email: "csrf@example.com", password: "a long enough password" });
		expect(noToken.status).toBe(403);
		expect(noToken.headers.get("content-type")).toMatch(/^text\/html/);
		const forged = await browser.submit("/account/signup", { email: "csrf@example.com", password: "a long enough password", csrf_token: "forged" });
		expect(forged.status).toBe(403);
		const crossSite = await browser.submit("/account/signup", { email: "csrf@example.com", password: "a long enough password", csrf_token: csrfOf(page.text) }, { Origin: "https://evil.example" });
		expect(crossSite.status).toBe(403);
		// Another browser's token does not match this browser's cookie.
		const other = new Browser(app.baseUrl);
		await other.get("/account/login");
		const stolen = await other.submit("/account/signup", { email: "csrf@example.com", password: "a long enough password", csrf_token: csrfOf(page.text) });
		expect(stolen.status).toBe(403);
		// Nothing was created: the address is still free.
		expect((await browser.submit("/account/signup", { email: "csrf@example.com", password: "a long enough password", csrf_token: csrfOf(page.text) })).status).toBe(303);

		// A logged-in form needs the token bound to this session.
		const settings = await browser.get("/account");
		const otherSession = new Browser(app.baseUrl);
		const otherPage = await otherSession.get("/account/signup");
		await otherSession.submit("/account/signup", { email: "csrf2@example.com", password: "a long enough password", csrf_token: csrfOf(otherPage.text) });
		const otherSettings = await otherSession.get("/account");
		expect((await browser.submit("/account/api-keys", { csrf_token: csrfOf(otherSettings.text) })).status).toBe(403);
		expect((await browser.submit("/account/api-keys", { csrf_token: csrfOf(settings.text) })).status).toBe(200);
	});

	it("re-renders the form with the reason for bad details; log-in redirects only to local paths", async () => {
		const browser = new Browser(app.baseUrl);
		const page = await browser.get("/account/signup");
		const short = await browser.submit("/account/signup", { email: "short@example.com", password: "short", csrf_token: csrfOf(page.text) });
		expect(short.status).toBe(400);
		expect(short.text).toContain("at least 10 characters");
		expect(short.text).toContain('value="short@example.com"');

		const login = await browser.get("/account/login?next=//evil.example/x");
		expect(login.text).toContain('name="next" value="/account"');
		await signUp(app.baseUrl, "redirect@example.com", "a long enough password");
		const wrong = await browser.submit("/account/login", { email: "redirect@example.com", password: "not the password", csrf_token: csrfOf(login.text), next: "https://evil.example" });
		expect(wrong.status).toBe(401);
		expect(wrong.text).toContain("wrong");
		const right = await browser.submit("/account/login", { email: "REDIRECT@example.com", password: "a long enough password", csrf_token: csrfOf(login.text), next: "https://evil.example" });
		expect(right.status).toBe(303);
		expect(right.headers.get("location")).toBe("/account");
	});

	it("the settings page asks for a log-in first", async () => {
		const reply = await new Browser(app.baseUrl).get("/account");
		expect(reply.status).toBe(303);
		expect(reply.headers.get("location")).toBe("/account/login?next=%2Faccount");
	});
});

describe("JSON forms", () => {
	const post = (pathname: string, body: unknown, headers: Record<string, string> = {}) =>
		rawRequest(app.baseUrl + pathname, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });

	it("sign-up answers 201 with the account on the free plan and a session cookie; log-in answers 200", async () => {
		const created = await post("/account/signup", { email: "json@example.com", password: "a long enough password" });
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ ok: true, account: { email: "json@example.com", plan: "free" } });
		expect(sessionCookie(created.headers)).toMatch(/^cb_session=[A-Za-z0-9_-]{43}$/);

		const login = await post("/account/login", { email: "json@example.com", password: "a long enough password" });
		expect(login.status).toBe(200);
		const cookie = sessionCookie(login.headers);
		const key = await createApiKey(app.baseUrl, cookie);
		expect(key).toMatch(/^cbk_live_[0-9A-Za-z]{32}$/);
	});

	it("answers the SPEC Error body for every refusal", async () => {
		await post("/account/signup", { email: "taken@example.com", password: "a long enough password" });
		const duplicate = await post("/account/signup", { email: " TAKEN@example.com ", password: "another long password" });
		expect(duplicate.status).toBe(409);
		expect(duplicate.body).toMatchObject({ ok: false, code: "conflict" });

		const invalid = await post("/account/signup", { email: "not-an-email", password: "short" });
		expect(invalid.status).toBe(400);
		expect(invalid.body).toMatchObject({ code: "validation_failed", errors: { fields: [{ field: "email" }, { field: "password" }] } });

		const missing = await post("/account/signup", { email: "x@example.com" });
		expect(missing.status).toBe(400);

		const wrong = await post("/account/login", { email: "taken@example.com", password: "not the password" });
		expect(wrong.status).toBe(401);
		expect(wrong.body).toMatchObject({ code: "unauthorized" });

		const noSession = await post("/account/api-keys", {});
		expect(noSession.status).toBe(401);

		const foreign = await post("/account/signup", { email: "foreign@example.com", password: "a long enough password" }, { Origin: "https://evil.example" });
		expect(foreign.status).toBe(403);
		expect(foreign.body).toMatchObject({ code: "forbidden" });

		const { cookie } = await signUp(app.baseUrl, "revoke-json@example.com");
		const unknownKey = await post("/account/api-keys/key_nope/revoke", {}, { Cookie: cookie });
		expect(unknownKey.status).toBe(404);
	});

	it("stores passwords, API keys and session tokens only as hashes", async () => {
		const password = "a very particular passphrase";
		const { cookie } = await signUp(app.baseUrl, "hashes@example.com", password);
		const key = await createApiKey(app.baseUrl, cookie);
		const read = (name: string) => fs.readFileSync(path.join(app.dataDir, `${name}.db`), "utf8");
		const accounts = read("accounts");
		expect(accounts).not.toContain(password);
		expect(accounts).toMatch(/"password_hash":"scrypt\$32768\$8\$3\$/);
		expect(read("api_keys")).not.toContain(key);
		expect(read("web_sessions")).not.toContain(cookie.split("=")[1]);
	});
});

describe("behind TLS", () => {
	it("marks cookies Secure when PUBLIC_URL is https", async () => {
		const tls = await startApp({ env: { SERVICES: "gateway,chatbots,accounts", PUBLIC_URL: "https://chat.example" } });
		try {
			const local = `http://127.0.0.1:${tls.config.port}`;
			const page = await rawRequest(`${local}/account/login`, {});
			expect(page.headers.getSetCookie().find(c => c.startsWith("cb_csrf="))).toMatch(/; Secure/);
			const created = await rawRequest(`${local}/account/signup`, {
				method: "POST",
				headers: { "Content-Type": "application/json" },
				body: JSON.stringify({ email: "tls@example.com", password: "a long enough password" })
			});
			expect(created.headers.getSetCookie().find(c => c.startsWith("cb_session="))).toMatch(/; Secure/);
		} finally {
			await tls.stop();
		}
	});
});

describe("the accounts rate budget", () => {
	it("limits log-in attempts per client address with the SPEC headers", async () => {
		const limited = await startApp({ env: { SERVICES: "gateway,chatbots,accounts" } });
		try {
			const attempt = () =>
				fetch(`${limited.baseUrl}/account/login`, {
					method: "POST",
					headers: { "Content-Type": "application/json", Accept: "application/json" },
					body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password-123" })
				});
			const replies = await Promise.all(Array.from({ length: RATE_POLICIES.accounts.limit + 3 }, attempt));
			const statuses = replies.map(r => r.status);
			expect(statuses.filter(s => s === 401)).toHaveLength(RATE_POLICIES.accounts.limit);
			expect(statuses.filter(s => s === 429)).toHaveLength(3);
			const refused = replies.find(r => r.status === 429) as Response;
			expect(refused.headers.get("ratelimit-policy")).toBe(`"accounts"; q=${RATE_POLICIES.accounts.limit}; w=${RATE_POLICIES.accounts.windowSeconds}`);
			expect(refused.headers.get("retry-after")).toBe(refused.headers.get("ratelimit-reset"));
			expect((await refused.json()).code).toBe("rate_limited");
		} finally {
			await limited.stop();
		}
	});
});
