/**
 * The account pages as a person uses them, in a real headless Chromium against the real app, at a
 * phone's and a desktop's width: sign up, create an API key (shown once), revoke it, log out, log in
 * (wrongly, then rightly); and the claim link: an agent makes an anonymous sandbox over MCP, the
 * person opens the link, signs up, keeps the chatbot and finds it in the account.
 *
 * The CSRF protection stays real: pages of another origin on the same host (same-site, so the
 * SameSite=Lax session cookie rides along) auto-submit forms to our endpoints, with and without a
 * leaked token, from the top level and from a sandboxed iframe (`Origin: null`); every one is
 * refused and changes nothing. Screenshots go to $TMPDIR/cbb-account-screens.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page, Viewport } from "puppeteer-core";
import type { Chatbot } from "../../lib/chatbots/model";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import { startApp, TestApp } from "../helpers/app";
import { Chromium, clickAndWait, DESKTOP, launchChromium, mainText, openPage as openChromiumPage, PHONE, postStatus, screenshot as takeScreenshot } from "../helpers/chromium";
import { html, LoopbackSite, RouteHandler, startSite } from "../helpers/loopback-site";
import { callTool, mcpPost, nextIp, signUp } from "../helpers/mcp-http";

const SCREENS = path.join(os.tmpdir(), "cbb-account-screens");
const PASSWORD = "a long enough password";

let app: TestApp;
let site: LoopbackSite;
let attacker: LoopbackSite;
let chromium: Chromium;
/** What the attacker's pages post, filled in by the forgery test. */
const forged = { token: "", email: "", password: "" };

const page = (title: string, body: string) => html(`<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p></main></body></html>`);

/** An attacker's page that submits a form to `action` as soon as it loads. */
const autoSubmit =
	(action: () => string, fields: () => Record<string, string>): RouteHandler =>
	(req, res, s) => {
		const inputs = Object.entries(fields())
			.map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
			.join("");
		html(`<!doctype html><html><body><form method="post" action="${action()}">${inputs}</form><script>document.forms[0].submit()</script></body></html>`)(req, res, s);
	};

beforeAll(async () => {
	fs.mkdirSync(SCREENS, { recursive: true });
	site = await startSite({
		"/": page("Harbor Bikes", "Harbor Bikes rents city bikes by the hour on the waterfront. Helmets are included with every rental."),
		"/prices": page("Prices", "A city bike costs 12 euros for the first hour and 6 euros for each hour after that.")
	});
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts,mcp,storage,crawler,discovery", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" },
		// Every form post of this file comes from 127.0.0.1; the per-address budget is tested elsewhere.
		gateway: { ratePolicies: { accounts: { ...RATE_POLICIES.accounts, limit: 1000 } } }
	});
	const keyForm = () => `${app.baseUrl}/account/api-keys`;
	// Another origin of the same host: cross-origin but same-site, the hardest case for SameSite=Lax.
	attacker = await startSite({
		"/forge-key": autoSubmit(keyForm, () => ({ name: "forged" })),
		"/forge-key-leaked-token": autoSubmit(keyForm, () => ({ name: "forged", csrf_token: forged.token })),
		// The same, from a page whose Referrer-Policy makes Chromium send `Origin: null`: what a service
		// that accepted `null` (to let its own no-referrer pages post) would let any same-site page do.
		"/forge-key-hidden-origin": (req, res, s) => {
			res.setHeader("Referrer-Policy", "no-referrer");
			autoSubmit(keyForm, () => ({ name: "forged", csrf_token: forged.token }))(req, res, s);
		},
		"/forge-login": autoSubmit(() => `${app.baseUrl}/account/login`, () => ({ email: forged.email, password: forged.password, next: "/account" })),
		"/forge-from-sandbox": (req, res, s) => {
			const inner = `<form method='post' action='${keyForm()}'><input type='hidden' name='name' value='forged'><input type='hidden' name='csrf_token' value='${forged.token}'></form><script>document.forms[0].submit()</script>`;
			html(`<!doctype html><html><body><iframe sandbox="allow-forms allow-scripts" srcdoc="${inner}"></iframe></body></html>`)(req, res, s);
		}
	});
	chromium = await launchChromium();
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await app?.stop();
	await site?.stop();
	await attacker?.stop();
});

const openPage = (viewport: Viewport) => openChromiumPage(chromium, viewport);
const text = mainText;
const screenshot = (tab: Page, name: string, viewport: Viewport) => takeScreenshot(tab, SCREENS, name, viewport);

async function fillCredentials(tab: Page, email: string, password: string): Promise<void> {
	await tab.type("input[name=email]", email);
	await tab.type("input[name=password]", password);
}

const mcpPing = (key: string) => mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { key });

describe.each([
	["phone", PHONE],
	["desktop", DESKTOP]
])("on a %s", (name, viewport) => {
	it("signs up, creates an API key shown once, revokes it, logs out, and logs in again", async () => {
		const { page: tab, responses, close } = await openPage(viewport);
		const email = `person-${name}@example.com`;

		// The account page sends a visitor to log in first; from there, to sign up.
		await tab.goto(`${app.baseUrl}/account`);
		expect(new URL(tab.url()).pathname + new URL(tab.url()).search).toBe("/account/login?next=%2Faccount");
		await clickAndWait(tab, "main a[href*='/account/signup']");
		await fillCredentials(tab, email, PASSWORD);
		await screenshot(tab, "signup", viewport);
		const settings = await clickAndWait(tab, "button[type=submit]");
		expect(postStatus(responses, "/account/signup")).toBe(303);
		expect(settings?.url()).toBe(`${app.baseUrl}/account`);
		expect(await text(tab)).toContain(`Logged in as ${email}`);
		expect(settings?.headers()["referrer-policy"]).toBe("strict-origin");

		// A key, shown once, that the tool server accepts.
		await tab.type("input[name=name]", "laptop agent");
		await clickAndWait(tab, "::-p-text(Create API key)");
		expect(postStatus(responses, "/account/api-keys")).toBe(200);
		const key = await tab.$eval(".secret", el => el.textContent ?? "");
		expect(key).toMatch(/^cbk_live_[0-9A-Za-z]{32}$/);
		await screenshot(tab, "new-key", viewport);
		expect((await mcpPing(key)).status).toBe(200);
		// (Not a reload: that would post the form again and make a second key.)
		await tab.goto(`${app.baseUrl}/account`);
		expect(await text(tab)).not.toContain(key);
		expect(await text(tab)).toContain(`cbk_live_…${key.slice(-4)}`);
		expect(await text(tab)).toContain("laptop agent");

		// Revoked: gone from the list and refused by the tool server.
		await clickAndWait(tab, "::-p-text(Revoke)");
		expect(postStatus(responses, /^\/account\/api-keys\/key_[0-9A-Za-z]+\/revoke$/)).toBe(303);
		expect(tab.url()).toBe(`${app.baseUrl}/account`);
		expect(await text(tab)).toContain("No API keys.");
		expect((await mcpPing(key)).status).toBe(401);

		// Logged out: the account page asks for a log-in again.
		const home = await clickAndWait(tab, "::-p-text(Log out)");
		expect(postStatus(responses, "/account/logout")).toBe(303);
		expect(home?.url()).toBe(`${app.baseUrl}/`);
		expect(home?.status()).toBe(200);
		await tab.goto(`${app.baseUrl}/account`);
		expect(new URL(tab.url()).pathname).toBe("/account/login");

		// A wrong password shows the form again with the reason and the address typed.
		await fillCredentials(tab, email, "not the password");
		await clickAndWait(tab, "button[type=submit]");
		expect(postStatus(responses, "/account/login")).toBe(401);
		expect(await text(tab)).toContain("The email address or the password is wrong.");
		expect(await tab.$eval("input[name=email]", el => (el as HTMLInputElement).value)).toBe(email);
		await screenshot(tab, "login-wrong", viewport);
		await tab.$eval("input[name=email]", el => ((el as HTMLInputElement).value = ""));
		await fillCredentials(tab, email, PASSWORD);
		await clickAndWait(tab, "button[type=submit]");
		expect(postStatus(responses, "/account/login")).toBe(303);
		expect(tab.url()).toBe(`${app.baseUrl}/account`);
		expect(await text(tab)).toContain(`Logged in as ${email}`);
		await close();
	});

	it("keeps a sandbox chatbot an agent made: claim link → sign up → keep it → it is in the account", async () => {
		// The agent, anonymous, over the tool server.
		const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: "en" }, { ip: nextIp() });
		expect(created.isError).toBe(false);
		const claimUrl = created.data?.claim_url as string;
		const chatbotId = created.data?.chatbot_id as string;
		const token = claimUrl.split("/claim/")[1];

		const { page: tab, responses, referers, close } = await openPage(viewport);
		const email = `claimer-${name}@example.com`;
		const opened = await tab.goto(claimUrl);
		expect(opened?.status()).toBe(200);
		expect(opened?.headers()["referrer-policy"]).toBe("no-referrer");
		expect(await text(tab)).toContain("Keep your chatbot");
		await screenshot(tab, "claim-anonymous", viewport);

		await clickAndWait(tab, "::-p-text(Sign up to keep it)");
		expect(new URL(tab.url()).searchParams.get("next")).toBe(`/claim/${token}`);
		await fillCredentials(tab, email, PASSWORD);
		const back = await clickAndWait(tab, "button[type=submit]");
		expect(postStatus(responses, "/account/signup")).toBe(303);
		expect(back?.url()).toBe(claimUrl);
		expect(back?.headers()["referrer-policy"]).toBe("strict-origin");
		expect(await text(tab)).toContain(`It joins the account of ${email}`);
		await screenshot(tab, "claim-logged-in", viewport);

		await clickAndWait(tab, "::-p-text(Keep this chatbot)");
		expect(postStatus(responses, `/claim/${token}`)).toBe(200);
		expect(await text(tab)).toContain("It is yours");
		await screenshot(tab, "claimed", viewport);

		await clickAndWait(tab, "::-p-text(Your account)");
		expect(tab.url()).toBe(`${app.baseUrl}/account`);
		expect(await tab.$eval("table", table => (table as HTMLElement).innerText)).toContain(created.data?.name as string);
		const stored = (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: chatbotId })).chatbot;
		expect(stored).toMatchObject({ kind: "account", claim_hash: null, expires_at: null });
		// The link worked once; and the token never left in a Referer, not even to this site.
		expect((await tab.goto(claimUrl))?.status()).toBe(404);
		expect(referers.length).toBeGreaterThan(5);
		expect(referers.filter(referer => referer.includes(token))).toEqual([]);
		await close();
	});
});

describe("forged cross-site posts", () => {
	it("are refused from another origin and from a sandboxed iframe, even with a leaked token, and change nothing", async () => {
		const victim = await signUp(app.baseUrl, "victim@example.com", PASSWORD);
		const intruder = await signUp(app.baseUrl, "intruder@example.com", PASSWORD);
		forged.email = "intruder@example.com";
		forged.password = PASSWORD;

		const { page: tab, responses, close } = await openPage(DESKTOP);
		const [name, value] = victim.cookie.split("=");
		await tab.setCookie({ name, value, url: app.baseUrl });
		await tab.goto(`${app.baseUrl}/account`);
		expect(await text(tab)).toContain("Logged in as victim@example.com");
		// The victim's real form token, as if it had leaked.
		forged.token = await tab.$eval("input[name=csrf_token]", el => (el as HTMLInputElement).value);

		const forgeries = [
			{ page: "/forge-key", target: "/account/api-keys", origin: attacker.origin },
			{ page: "/forge-key-leaked-token", target: "/account/api-keys", origin: attacker.origin },
			{ page: "/forge-key-hidden-origin", target: "/account/api-keys", origin: "null" },
			{ page: "/forge-login", target: "/account/login", origin: attacker.origin }
		];
		for (const forgery of forgeries) {
			const [refusal] = await Promise.all([tab.waitForNavigation({ waitUntil: "load" }), tab.goto(`${attacker.origin}${forgery.page}`)]);
			const post = responses.filter(r => r.request().method() === "POST" && new URL(r.url()).pathname === forgery.target).at(-1);
			// The browser did send it, with the victim's session cookie (same site), from the attacker's page.
			expect(post?.request().headers().origin).toBe(forgery.origin);
			if (forgery.target === "/account/api-keys") expect(post?.request().headers().cookie ?? "").toContain(victim.cookie);
			expect(refusal?.status()).toBe(403);
			expect(await text(tab)).toContain("This form expired or did not come from this site.");
		}
		await screenshot(tab, "forged-refused", DESKTOP);

		// A sandboxed iframe (an opaque origin) posts with `Origin: null` and, being cross-site, without
		// the session cookie: it is sent to log in, and nothing happens.
		const sandboxed = tab.waitForResponse(r => r.request().method() === "POST" && r.url() === `${app.baseUrl}/account/api-keys`);
		await tab.goto(`${attacker.origin}/forge-from-sandbox`);
		const fromSandbox = await sandboxed;
		expect(fromSandbox.request().headers().origin).toBe("null");
		expect(fromSandbox.status()).toBe(303);
		expect(fromSandbox.headers().location).toBe("/account/login?next=%2Faccount");

		// Nothing changed: no key, and the victim is still logged in as the victim (no log-in CSRF).
		await tab.goto(`${app.baseUrl}/account`);
		expect(await text(tab)).toContain("Logged in as victim@example.com");
		expect(await text(tab)).toContain("No API keys.");
		const keys = await app.broker.call<unknown[], object>("accounts.listKeys", { account_id: (victim.account as { id: string }).id });
		expect(keys).toEqual([]);
		expect(intruder.cookie).not.toBe(victim.cookie);
		await close();
	});
});
