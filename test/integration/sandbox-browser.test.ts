/**
 * The home page's visitor flow as a person uses it, in a real headless Chromium against the real
 * app, at a phone's and a desktop's width: paste a (loopback) website address, watch the pages
 * being read — one failing, with the reason in words — and the training, chat with the chatbot in
 * place, keep it (sign up through the claim link), and find it in the account's dashboard. Also in
 * Spanish, and without JavaScript (the form asks once more, with a CSRF-protected button).
 *
 * Screenshots go to $TMPDIR/cbb-sandbox-screens.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page, Viewport } from "puppeteer-core";
import type { Chatbot } from "../../lib/chatbots/model";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import { startApp, TestApp } from "../helpers/app";
import { Chromium, clickAndWait, DESKTOP, launchChromium, mainText, openPage as openChromiumPage, PHONE, postStatus, screenshot as takeScreenshot } from "../helpers/chromium";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { callTool, rawRequest } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";

const SCREENS = path.join(os.tmpdir(), "cbb-sandbox-screens");
const PASSWORD = "correct horse battery staple";

let app: TestApp;
let site: LoopbackSite;
let chromium: Chromium;

const doc = (title: string, body: string, links: string[] = []) =>
	html(`<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}${links.map(l => `<p><a href="${l}">${l}</a></p>`).join("")}</main></body></html>`);

beforeAll(async () => {
	fs.mkdirSync(SCREENS, { recursive: true });
	site = await startSite({
		"/": doc("Fjord Kayaks", "<p>Fjord Kayaks rents sea kayaks at the north pier from May to September.</p>", ["/prices", "/broken"]),
		"/prices": doc("Prices", "<p>A single kayak costs 25 euros for half a day; a double kayak costs 40 euros for half a day.</p>"),
		"/broken": doc("Broken", "<p>oops</p>", []) && ((_req, res) => {
			res.writeHead(500, { "content-type": "text/html" });
			res.end("<h1>Server error</h1>");
		})
	});
	app = await startApp({
		env: { SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,crawler,discovery,storage", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" },
		// Every test here builds from one address; the budget itself is checked in the last test.
		gateway: { ratePolicies: { "mcp-create-chatbot": { ...RATE_POLICIES["mcp-create-chatbot"], limit: 1000 }, accounts: { ...RATE_POLICIES.accounts, limit: 1000 } } }
	});
	chromium = await launchChromium();
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await app?.stop();
	await site?.stop();
});

const screenshot = (tab: Page, name: string, viewport: Viewport) => takeScreenshot(tab, SCREENS, name, viewport);
const pathOf = (tab: Page) => new URL(tab.url()).pathname;
const statusOf = (tab: Page) => tab.$eval("[data-field=status]", el => (el as HTMLElement).innerText).catch(() => "");

/**
 * The sandbox page's script writes the ready label into the badge, then reloads the page, which
 * renders the chat box: reading the page between the two would meet the reload.
 */
async function untilReloadedReady(tab: Page, label: string): Promise<void> {
	const chatBoxShown = () => tab.$(".chatbox input[name=message]").then(Boolean, () => false);
	await eventually(async () => ((await statusOf(tab)) === label && (await chatBoxShown()) ? true : undefined), 90_000, `the sandbox to be ready (${label})`);
}

async function ask(tab: Page, question: string): Promise<string> {
	await tab.type(".chatbox input[name=message]", question);
	await tab.click(".chatbox [data-action=send]");
	return eventually(async () => {
		const answers = await tab.$$eval(".msg.bot:not([data-pending])", els => els.map(e => (e as HTMLElement).innerText));
		return answers.length ? answers[answers.length - 1] : undefined;
	}, 30_000, "the answer");
}

describe.each([
	["phone", PHONE],
	["desktop", DESKTOP]
])("on a %s", (name, viewport) => {
	it("pastes a website, watches it being read and trained, chats, keeps it and finds it in the dashboard", async () => {
		const { page: tab, responses, close } = await openChromiumPage(chromium, viewport);
		await tab.goto(`${app.baseUrl}/`);
		await screenshot(tab, "home", viewport);
		await tab.type("input[name=website_url]", `${site.origin}/`);
		await Promise.all([tab.waitForNavigation(), tab.click("[data-action=build-sandbox]")]);
		expect(postStatus(responses, "/sandbox")).toBe(201);
		const id = (/^\/sandbox\/([^/]+)$/.exec(pathOf(tab)) as RegExpExecArray)[1];
		expect(await mainText(tab)).toContain(`Your chatbot for ${site.host}`);
		await screenshot(tab, "progress", viewport);

		// The page follows the crawl and the training by itself, and ends ready with each page's outcome.
		await untilReloadedReady(tab, "Ready");
		const read = await tab.$$eval("[data-page=read]", els => els.map(e => (e as HTMLElement).innerText));
		const failed = await tab.$$eval("[data-page=failed]", els => els.map(e => (e as HTMLElement).innerText));
		expect(read.join("\n")).toContain(`${site.origin}/prices`);
		expect(failed.join("\n")).toContain(`${site.origin}/broken`);
		expect(failed.join("\n")).toContain("The site answered with an error for it.");
		expect(await mainText(tab)).toMatch(/Pages read: 2 \/ 5/);

		// Chat in place.
		expect(await ask(tab, "How much is a double kayak?")).toContain("40 euros");
		expect(await tab.$eval("[data-field=usage]", el => (el as HTMLElement).innerText)).toBe("1 of 10 messages used in this trial.");
		await screenshot(tab, "ready-chat", viewport);

		// Keep it: the claim link, sign up, keep, then its dashboard.
		await clickAndWait(tab, "[data-action=keep]");
		expect(pathOf(tab)).toMatch(/^\/claim\//);
		await clickAndWait(tab, "::-p-text(Sign up to keep it)");
		await tab.type("input[name=email]", `visitor-${name}-${Date.now()}@example.com`);
		await tab.type("input[name=password]", PASSWORD);
		await clickAndWait(tab, "button[type=submit]");
		expect(postStatus(responses, "/account/signup")).toBe(303);
		await clickAndWait(tab, "::-p-text(Keep this chatbot)");
		expect(await mainText(tab)).toContain("It is yours");
		await clickAndWait(tab, "::-p-text(Your account)");
		expect(pathOf(tab)).toBe("/account");
		const row = await tab.$eval(`tr[data-chatbot="${id}"]`, el => (el as HTMLElement).innerText);
		expect(row).toContain(site.host);
		expect(row).toContain("Ready");
		expect(row).toContain("2 pages");
		// Kept, it counts its messages under the plan from zero (the trial's answer was the sandbox's).
		expect(row).toContain("0 / 100");
		await clickAndWait(tab, `tr[data-chatbot="${id}"] a[href$="/account/chatbots/${id}"]`);
		expect(await tab.$eval("[data-field=status]", el => (el as HTMLElement).innerText)).toBe("Ready");
		await screenshot(tab, "kept-dashboard", viewport);
		const stored = (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id })).chatbot;
		expect(stored).toMatchObject({ kind: "account", claim_hash: null, expires_at: null });
		// Kept: its sandbox page is gone.
		expect((await tab.goto(`${app.baseUrl}/sandbox/${id}`))?.status()).toBe(404);
		await close();
	}, 240_000);
});

it("works in Spanish", async () => {
	const { page: tab, close } = await openChromiumPage(chromium, PHONE);
	await tab.goto(`${app.baseUrl}/es/`);
	expect(await mainText(tab)).toContain("Pruébalo con tu sitio web");
	await tab.type("input[name=website_url]", `${site.origin}/`);
	await Promise.all([tab.waitForNavigation(), tab.click("[data-action=build-sandbox]")]);
	expect(await mainText(tab)).toContain(`Tu chatbot para ${site.host}`);
	await untilReloadedReady(tab, "Listo");
	expect(await tab.$eval("[data-action=keep]", el => (el as HTMLElement).innerText)).toBe("Quedarme con este chatbot");
	await screenshot(tab, "es-ready", PHONE);
	await close();
}, 120_000);

it("works without JavaScript: the form asks once more, with a CSRF-protected button", async () => {
	const { page: tab, responses, close } = await openChromiumPage(chromium, DESKTOP);
	await tab.setJavaScriptEnabled(false);
	await tab.goto(`${app.baseUrl}/`);
	await tab.type("input[name=website_url]", `${site.origin}/prices`);
	await clickAndWait(tab, "[data-action=build-sandbox]");
	expect(pathOf(tab)).toBe("/sandbox/new");
	expect(await tab.$eval("input[name=website_url]", el => (el as HTMLInputElement).value)).toBe(`${site.origin}/prices`);
	expect(await tab.$("input[name=csrf_token]")).not.toBeNull();
	await clickAndWait(tab, "[data-action=build-sandbox]");
	expect(postStatus(responses, "/sandbox")).toBe(303);
	expect(pathOf(tab)).toMatch(/^\/sandbox\/[0-9a-f-]{36}$/);
	await close();
	// A form post without the token, or from another origin, builds nothing.
	const forged = await rawRequest(`${app.baseUrl}/sandbox`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://evil.example" }, body: `website_url=${encodeURIComponent(site.origin)}` });
	expect(forged.status).toBe(403);
	const foreignJson = await rawRequest(`${app.baseUrl}/sandbox`, { method: "POST", headers: { "Content-Type": "application/json", Origin: "http://evil.example" }, body: JSON.stringify({ website_url: site.origin }) });
	expect(foreignJson.status).toBe(403);
}, 120_000);

it("refuses a bad address with the reason, and an unknown sandbox with 404", async () => {
	const bad = await rawRequest(`${app.baseUrl}/sandbox`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ website_url: "not a url" }) });
	expect(bad.status).toBe(400);
	expect(bad.body).toMatchObject({ ok: false, code: "validation_failed" });
	const missing = await rawRequest(`${app.baseUrl}/sandbox/does-not-exist`, { headers: { Accept: "application/json" } });
	expect(missing.status).toBe(404);
	expect(missing.body).toMatchObject({ ok: false, code: "not_found" });
	// An account's chatbot is never shown as a sandbox, whoever knows its id.
	const owned = await app.broker.call<Chatbot, object>("chatbots.create", { kind: "account", locale: "en", name: "Owned", limits: { max_urls: 1, max_files: 1, max_chars: 1000, max_messages: 1, max_pages: 1 }, account_id: "acc-someone" });
	const theirs = await rawRequest(`${app.baseUrl}/sandbox/${owned._id}`, { headers: { Accept: "application/json" } });
	expect(theirs.status).toBe(404);
	expect((theirs.body as { message: string }).message).toBe((missing.body as { message: string }).message);
});

it("charges building a sandbox to the same per-network budget as the tool server's create_chatbot", async () => {
	const strict = await startApp({
		env: { SERVICES: "gateway,chatbots,accounts,mcp", TRUST_PROXY: "1" },
		gateway: { ratePolicies: { "mcp-create-chatbot": { ...RATE_POLICIES["mcp-create-chatbot"], limit: 2 } } }
	});
	try {
		const build = () => rawRequest(`${strict.baseUrl}/sandbox`, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.9" }, body: JSON.stringify({ website_url: "https://example.com/" }) });
		expect((await build()).status).toBe(201);
		const viaMcp = await callTool(strict.baseUrl, "create_chatbot", { website_url: "https://example.com/", language: "en" }, { ip: "203.0.113.9" });
		expect(viaMcp.isError).toBe(false);
		const third = await build();
		expect(third.status).toBe(429);
		expect(third.body).toMatchObject({ code: "rate_limited" });
		expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
	} finally {
		await strict.stop();
	}
}, 60_000);
