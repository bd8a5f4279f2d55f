/**
 * The claim flow end to end, with real parts: an anonymous agent creates a sandbox chatbot from a
 * loopback website over POST /mcp (the real crawler reads the site), a human signs up, opens the
 * claim link and keeps the chatbot with the CSRF-protected form; the same agent, given the human's
 * API key, lists it. A claim link works once. Key holders get account chatbots with no claim step.
 */
import type { Chatbot } from "../../lib/chatbots/model";
import { startApp, TestApp } from "../helpers/app";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { callTool, createApiKey, nextIp, rawRequest, signUp } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";

let app: TestApp;
let site: LoopbackSite;

const page = (title: string, body: string, links: string[] = []) =>
	html(`<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${links.map(l => `<a href="${l}">${l}</a>`).join(" ")}</main></body></html>`);

beforeAll(async () => {
	site = await startSite({
		"/": page("Harbor Bikes", "Harbor Bikes rents city bikes by the hour on the waterfront. Helmets are included with every rental.", ["/prices", "/hours"]),
		"/prices": page("Prices", "A city bike costs 12 euros for the first hour and 6 euros for each hour after that."),
		"/hours": page("Opening hours", "The shop is open every day from 8 in the morning until 8 in the evening."),
		"/tours": page("Guided tours", "Guided bike tours of the old harbour leave at 10 every Saturday."),
		"/rain": page("Rain policy", "On rainy days every rental comes with a free poncho."),
		"/repairs": page("Repairs", "Flat tyres are fixed for free while you wait."),
		"/blank": html("<!doctype html><html><head><title></title></head><body></body></html>")
	});
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts,mcp,storage,crawler", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" }
	});
});
afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

async function createSandbox(): Promise<Record<string, unknown>> {
	const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: "en" }, { ip: nextIp() });
	expect(created.isError).toBe(false);
	return created.data as Record<string, unknown>;
}

const csrfOf = (text: string) => (/name="csrf_token" value="([^"]+)"/.exec(text) as RegExpExecArray)[1];

describe("anonymous sandbox → human claims it → the agent lists it with the human's key", () => {
	it("works end to end, once", async () => {
		// 1. The agent creates a sandbox: links at once, the crawl runs in the background.
		const created = await createSandbox();
		const id = created.chatbot_id as string;
		expect(created).toMatchObject({
			sandbox: true,
			website_url: `${site.origin}/`,
			language: "en",
			limits: { pages: 5, messages: 10, chars: 50_000 },
			pages: { limit: 5 }
		});
		expect(["crawling", "training"]).toContain(created.status);
		const claimUrl = created.claim_url as string;
		expect(claimUrl).toMatch(new RegExp(`^${app.baseUrl}/claim/[A-Za-z0-9_-]{43}$`));
		const expiresIn = Date.parse(created.expires_at as string) - Date.now();
		expect(expiresIn).toBeGreaterThan(8 * 86_400_000 - 60_000);
		expect(expiresIn).toBeLessThanOrEqual(8 * 86_400_000);

		// The crawl reads the site's three pages; get_chatbot reports progress and the same claim link.
		const crawled = await eventually(async () => {
			const got = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id });
			const pages = got.data?.pages as { crawled: number };
			return pages.crawled === 3 ? got.data : undefined;
		}, 30_000, "the site crawl");
		expect(crawled?.claim_url).toBe(claimUrl);
		expect((crawled?.usage as { chars_used: number }).chars_used).toBeGreaterThan(100);
		// The database keeps only the hash of the claim token.
		const stored = (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id })).chatbot;
		expect(stored.claim_hash).toMatch(/^[0-9a-f]{64}$/);
		expect(JSON.stringify(stored)).not.toContain(claimUrl.split("/claim/")[1]);

		// 2. The human opens the link: the page shows the chatbot and asks to sign up or log in.
		const anonymousPage = await rawRequest(claimUrl, { headers: { Accept: "text/html" } });
		expect(anonymousPage.status).toBe(200);
		expect(anonymousPage.headers.get("referrer-policy")).toBe("no-referrer");
		expect(anonymousPage.text).toContain("Keep your chatbot");
		expect(anonymousPage.text).toContain(`/account/signup?next=${encodeURIComponent(new URL(claimUrl).pathname)}`);
		const notLoggedIn = await rawRequest(claimUrl, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
		expect(notLoggedIn.status).toBe(303);
		expect(notLoggedIn.headers.get("location")).toBe(`/account/login?next=${encodeURIComponent(new URL(claimUrl).pathname)}`);

		// 3. They sign up and come back logged in; the page now has the one-click form.
		const { cookie } = await signUp(app.baseUrl, "owner@harbor.example");
		const loggedInPage = await rawRequest(claimUrl, { headers: { Accept: "text/html", Cookie: cookie } });
		expect(loggedInPage.text).toContain("Keep this chatbot");
		const form = (fields: Record<string, string>) =>
			rawRequest(claimUrl, { method: "POST", redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", Cookie: cookie }, body: new URLSearchParams(fields).toString() });
		expect((await form({})).status).toBe(403); // no CSRF token
		const kept = await form({ csrf_token: csrfOf(loggedInPage.text) });
		expect(kept.status).toBe(200);
		expect(kept.text).toContain("It is yours");

		// It left sandbox retention and joined the account.
		const claimed = (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id })).chatbot;
		expect(claimed).toMatchObject({ kind: "account", expires_at: null, claim_hash: null });

		// 4. With the human's key, the agent lists it; its limits are the Free plan's now.
		const key = await createApiKey(app.baseUrl, cookie);
		const list = await callTool(app.baseUrl, "list_chatbots", {}, { key });
		expect(list.data).toMatchObject({ count: 1, chatbots: [{ chatbot_id: id, website_url: `${site.origin}/` }], plan: { id: "free" } });
		const keyed = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id }, { key });
		expect(keyed.data).toMatchObject({ sandbox: false, limits: { pages: 50, messages: 100, chars: 400_000 } });
		expect(keyed.data).not.toHaveProperty("claim_url");
		expect(keyed.data).not.toHaveProperty("expires_at");
		// Anonymous calls no longer reach it.
		expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id })).text).toMatch(/^Error \(not_found\)/);

		// 5. The link worked once: a second claim, by anyone, fails; the page says so.
		const again = await form({ csrf_token: csrfOf(loggedInPage.text) });
		expect(again.status).toBe(404);
		const other = await signUp(app.baseUrl, "latecomer@harbor.example");
		const stolen = await rawRequest(claimUrl, { method: "POST", headers: { "Content-Type": "application/json", Cookie: other.cookie }, body: "{}" });
		expect(stolen.status).toBe(404);
		expect(stolen.body).toMatchObject({ ok: false, code: "not_found" });
		expect((await rawRequest(claimUrl, { headers: { Accept: "text/html" } })).status).toBe(404);
	});

	it("programs claim with a JSON body and the session cookie", async () => {
		const created = await createSandbox();
		const { cookie } = await signUp(app.baseUrl, "program@harbor.example");
		const claimed = await rawRequest(created.claim_url as string, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: "{}" });
		expect(claimed.status).toBe(200);
		expect(claimed.body).toEqual({ ok: true, chatbot: { chatbot_id: created.chatbot_id, name: created.name, chat_url: created.chat_url } });
		const noSession = await rawRequest(created.claim_url as string, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
		expect(noSession.status).toBe(401);
	});
});

describe("add_knowledge_url", () => {
	it("fetches a page into the sandbox; an empty page and a sixth page are refused with nothing added", async () => {
		const created = await createSandbox();
		const id = created.chatbot_id as string;
		await eventually(async () => {
			const got = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id });
			return (got.data?.pages as { crawled: number }).crawled === 3 ? true : undefined;
		}, 30_000, "the site crawl");

		const added = await callTool(app.baseUrl, "add_knowledge_url", { chatbot_id: id, url: `${site.origin}/tours` });
		expect(added.isError).toBe(false);
		expect(added.data?.source).toMatchObject({ type: "url", status: "ready", url: `${site.origin}/tours`, title: "Guided tours" });
		expect((added.data?.source as { chars: number }).chars).toBeGreaterThan(40);

		const blank = await callTool(app.baseUrl, "add_knowledge_url", { chatbot_id: id, url: `${site.origin}/blank` });
		expect(blank.text).toMatch(/^Error \(empty\)/);
		expect((await callTool(app.baseUrl, "add_knowledge_url", { chatbot_id: id, url: `${site.origin}/rain` })).isError).toBe(false);

		// Pages crawled and pages added share the sandbox's budget of 5.
		const sixth = await callTool(app.baseUrl, "add_knowledge_url", { chatbot_id: id, url: `${site.origin}/repairs` });
		expect(sixth.text).toMatch(/^Error \(url_cap\)/);
		const { chatbot, sources } = await app.broker.call<{ chatbot: Chatbot; sources: Array<{ url: string | null }> }, object>("chatbots.get", { id });
		expect(chatbot.counts.urls).toBe(5);
		expect(sources.map(source => source.url)).not.toContain(`${site.origin}/repairs`);
	});
});

describe("key holders", () => {
	it("create account chatbots under the plan's limits, with no claim step, up to the plan's chatbot count", async () => {
		const { cookie } = await signUp(app.baseUrl, "builder@harbor.example");
		const key = await createApiKey(app.baseUrl, cookie);
		const ids: string[] = [];
		for (let i = 0; i < 3; i++) {
			const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: "es" }, { key, ip: nextIp() });
			expect(created.data).toMatchObject({ sandbox: false, language: "es", limits: { pages: 50, messages: 100, chars: 400_000 }, pages: { limit: 50 } });
			expect(created.data).not.toHaveProperty("claim_url");
			expect(created.data).not.toHaveProperty("expires_at");
			ids.push(created.data?.chatbot_id as string);
		}
		const fourth = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/` }, { key, ip: nextIp() });
		expect(fourth.isError).toBe(true);
		expect(fourth.text).toMatch(/^Error \(chatbot_cap\)/);
		const list = await callTool(app.baseUrl, "list_chatbots", {}, { key });
		expect((list.data?.chatbots as Array<{ chatbot_id: string }>).map(c => c.chatbot_id).sort()).toEqual([...ids].sort());

		// A full account cannot claim a fourth chatbot either; the sandbox stays claimable.
		const sandbox = await createSandbox();
		const refused = await rawRequest(sandbox.claim_url as string, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: "{}" });
		expect(refused.status).toBe(403);
		expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: sandbox.chatbot_id as string })).data).toMatchObject({ sandbox: true });
	});
});
