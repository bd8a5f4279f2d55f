/**
 * Deploying and improving a chatbot as its owner does, in a real headless Chromium against the real
 * app, at a phone's and a desktop's width: log in; on Deploy change the widget's name, welcome
 * message, suggested questions, colour, corner and language, watching the live preview follow; copy
 * the embed snippet and load it on a page of another origin (a loopback site), where the widget
 * shows the new settings; ask a question the sources do not cover (a suggested one) and see it
 * declined; find it under Improve, add an answer, see "needs retraining", retrain,
 * ask again on the other site and get the new answer; then read the conversation (and the
 * "Unanswered" filter) and see the Analytics charts move.
 *
 * Screenshots go to $TMPDIR/cbb-insights-screens.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page, Viewport } from "puppeteer-core";
import type { Chatbot } from "../../lib/chatbots/model";
import { startApp, TestApp } from "../helpers/app";
import { newOwner, trainedChatbot } from "../helpers/channel-app";
import { Chromium, clickAndWait, DESKTOP, launchChromium, mainText, openPage, PHONE, postStatus, screenshot as takeScreenshot } from "../helpers/chromium";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { rawRequest } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";

const SCREENS = path.join(os.tmpdir(), "cbb-insights-screens");
const PASSWORD = "correct horse battery staple"; // signUp's default
const UNCOVERED = "Can I bring my dog on the ferry?";
const NEW_ANSWER = "Dogs ride the ferry free of charge, on a lead.";

let app: TestApp;
let chromium: Chromium;
/** The owner's website, on another origin than the service: what the snippet is pasted into. */
let site: LoopbackSite;
const snippets: Record<string, string> = {};

beforeAll(async () => {
	fs.mkdirSync(SCREENS, { recursive: true });
	app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,storage" } });
	site = await startSite(
		{
			"/phone": (req, res, self) => html(shopPage(snippets.phone ?? ""))(req, res, self),
			"/desktop": (req, res, self) => html(shopPage(snippets.desktop ?? ""))(req, res, self)
		},
		"127.0.0.2"
	);
	chromium = await launchChromium();
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await site?.stop();
	await app?.stop();
});

function shopPage(snippet: string): string {
	return `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Harbor Bikes</title></head><body><h1>Harbor Bikes</h1><p>City bikes on the waterfront.</p>${snippet}</body></html>`;
}

const screenshot = (tab: Page, name: string, viewport: Viewport) => takeScreenshot(tab, SCREENS, name, viewport);

/** Reads inside the widget's shadow root. */
function inWidget<T>(tab: Page, read: (root: ShadowRoot) => T): Promise<T> {
	return tab.evaluate(`(${read.toString()})([...document.body.children].find(el => el.shadowRoot)?.shadowRoot)`) as Promise<T>;
}

/** The last answer of the widget once it is written (not pending). */
async function lastAnswer(tab: Page, count: number): Promise<string> {
	return eventually(
		async () => {
			const answers = await inWidget(tab, root => Array.from(root.querySelectorAll(".msg.bot:not(.pending) .text")).map(el => el.textContent ?? ""));
			return answers.length >= count ? answers[count - 1] : undefined;
		},
		30_000,
		"the widget's answer"
	);
}

async function analyticsTotal(tab: Page): Promise<number> {
	return Number(await tab.$eval("[data-chart=answered] [data-total]", el => el.getAttribute("data-total")));
}

describe.each([
	["phone", PHONE],
	["desktop", DESKTOP]
])("on a %s", (name, viewport) => {
	it("changes the widget, embeds it on another site, improves an unanswered question and sees it in the log and the charts", async () => {
		const owner = await newOwner(app.baseUrl);
		const chatbot: Chatbot = await trainedChatbot(app.broker, owner.accountId, { name: `Harbor helper (${name})` });
		const dashboard = `/account/chatbots/${chatbot._id}`;
		const { page: tab, responses, close } = await openPage(chromium, viewport);

		// Log in as a person does.
		await tab.goto(`${app.baseUrl}/account`);
		await tab.type("input[name=email]", owner.email);
		await tab.type("input[name=password]", PASSWORD);
		await clickAndWait(tab, "button[type=submit]");

		// Analytics before anything was asked: nothing counted.
		await tab.goto(`${app.baseUrl}${dashboard}/analytics?days=7`);
		expect(await analyticsTotal(tab)).toBe(0);

		// Deploy: the settings, the preview following the form, the copy buttons.
		await clickAndWait(tab, "nav.tabs a[data-tab=deploy]");
		expect(new URL(tab.url()).pathname).toBe(`${dashboard}/deploy`);
		await tab.type("#display_name", "Harbor Desk");
		expect(await tab.$eval("#preview .p-title", el => el.textContent)).toBe("Harbor Desk");
		await tab.type("#welcome_message", "Ahoy! Ask me about our bikes.");
		await tab.type("#suggested_questions", `${UNCOVERED}\nWhen does the shop open?`);
		await tab.$eval("#accent_color", el => {
			(el as HTMLInputElement).value = "#0f766e";
			el.dispatchEvent(new Event("input", { bubbles: true }));
		});
		await tab.click("input[name=position][value=left]");
		await tab.select("#language", "es");
		expect(await tab.$eval("#preview .p-head", el => getComputedStyle(el).backgroundColor)).toBe("rgb(15, 118, 110)");
		expect(await tab.$eval("#preview", el => el.getAttribute("data-position"))).toBe("left");
		expect(await tab.$$eval("#preview .p-chip", els => els.map(e => e.textContent))).toEqual([UNCOVERED, "When does the shop open?"]);
		await screenshot(tab, "deploy-editing", viewport);
		await clickAndWait(tab, "#widget-form button[type=submit]");
		expect(postStatus(responses, `${dashboard}/deploy/widget`)).toBe(303);
		expect(await mainText(tab)).toContain("Widget settings saved");
		expect(await tab.$eval("#display_name", el => (el as HTMLInputElement).value)).toBe("Harbor Desk");
		await tab.click("[data-copy=embed-snippet]");
		await tab.waitForFunction(() => document.querySelector("[data-copy=embed-snippet] ~ .copied")?.textContent === "Copied", { timeout: 10_000 });
		const snippet = await tab.$eval("#embed-snippet", el => (el as HTMLTextAreaElement).value);
		expect(snippet).toBe(`<script src="${app.baseUrl}/widget.js" data-chatbot="${chatbot.slug}" async></script>`);
		await screenshot(tab, "deploy-saved", viewport);

		// A refused setting: the form again, with the reason, nothing saved.
		await tab.$eval("#suggested_questions", el => ((el as HTMLTextAreaElement).value = "a\nb\nc\nd\ne"));
		await clickAndWait(tab, "#widget-form button[type=submit]");
		expect(postStatus(responses, `${dashboard}/deploy/widget`)).toBe(400);
		expect(await mainText(tab)).toContain("At most 4 suggested questions");

		// The owner's website embeds the snippet: the widget shows the new settings.
		snippets[name] = snippet;
		const shop = await openPage(chromium, viewport);
		await shop.page.goto(`${site.origin}/${name}`);
		await shop.page.waitForFunction(() => Array.from(document.body.children).some(el => el.shadowRoot?.querySelector(".bubble")), { timeout: 20_000 });
		const bubble = await inWidget(shop.page, root => {
			const b = root.querySelector(".bubble") as HTMLElement;
			const box = b.getBoundingClientRect();
			return { left: box.left, color: getComputedStyle(b).backgroundColor, label: b.getAttribute("aria-label") };
		});
		expect(bubble.left).toBeLessThan(viewport.width / 2);
		expect(bubble.color).toBe("rgb(15, 118, 110)");
		expect(bubble.label).toBe("Abrir chat");
		await shop.page.evaluate(`[...document.body.children].find(el => el.shadowRoot).shadowRoot.querySelector(".bubble").click()`);
		const opened = await inWidget(shop.page, root => ({
			title: root.querySelector(".title")?.textContent,
			greeting: root.querySelector(".msg.bot .text")?.textContent,
			chips: Array.from(root.querySelectorAll(".chip")).map(c => c.textContent),
			placeholder: (root.querySelector(".input") as HTMLInputElement).placeholder
		}));
		expect(opened).toEqual({ title: "Harbor Desk", greeting: "Ahoy! Ask me about our bikes.", chips: [UNCOVERED, "When does the shop open?"], placeholder: "Escribe una pregunta…" });
		await screenshot(shop.page, "embed-opened", viewport);

		// A visitor presses the suggested question the sources do not cover: declined.
		await shop.page.evaluate(`[...document.body.children].find(el => el.shadowRoot).shadowRoot.querySelector(".chip").click()`);
		const declined = await lastAnswer(shop.page, 2);
		expect(declined).not.toContain("free of charge");
		await screenshot(shop.page, "embed-declined", viewport);

		// Improve: the question is there; add an answer; the chatbot needs retraining.
		await tab.goto(`${app.baseUrl}${dashboard}/improve`);
		expect(await mainText(tab)).toContain(UNCOVERED);
		expect(await mainText(tab)).toContain("Asked once");
		await screenshot(tab, "improve-found", viewport);
		await tab.type(".group textarea[name=answer]", NEW_ANSWER);
		await clickAndWait(tab, ".group button[value=none]");
		expect(postStatus(responses, `${dashboard}/improve/answers`)).toBe(303);
		expect(await tab.$("[data-flash=added]")).not.toBeNull();
		expect(await tab.$("[data-state=needs-retrain]")).not.toBeNull();
		expect(await tab.$("[data-empty]")).not.toBeNull();
		await screenshot(tab, "improve-added", viewport);

		// Retrain from the notice, and wait until it is trained on the new answer.
		await clickAndWait(tab, "[data-state=needs-retrain] [data-action=retrain]");
		expect(postStatus(responses, `${dashboard}/training`)).toBe(303);
		await eventually(
			async () => {
				const { chatbot: now } = await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: chatbot._id, with_sources: false });
				return now.training === null && now.trained_version === now.sources_version && now.generation > chatbot.generation ? true : undefined;
			},
			60_000,
			"the retraining"
		);

		// Asked again on the website: the new answer.
		await shop.page.evaluate(`(() => { const root = [...document.body.children].find(el => el.shadowRoot).shadowRoot; const input = root.querySelector(".input"); input.value = ${JSON.stringify(UNCOVERED)}; root.querySelector(".send").click(); })()`);
		expect(await lastAnswer(shop.page, 3)).toContain("free of charge");
		await screenshot(shop.page, "embed-answered", viewport);
		await shop.close();

		// Conversations: the transcript with its citations; "Unanswered" keeps the declined one.
		await tab.goto(`${app.baseUrl}${dashboard}`);
		await clickAndWait(tab, "nav.tabs a[data-tab=conversations]");
		const conversation = "details.conversation";
		expect(await tab.$$eval(conversation, els => els.length)).toBe(1);
		await tab.click(`${conversation} summary`);
		const transcript = await tab.$eval(conversation, el => (el as HTMLElement).innerText);
		expect(transcript).toContain("Website widget");
		expect(transcript).toContain(UNCOVERED);
		expect(transcript).toContain("Declined");
		expect(transcript).toContain("free of charge");
		expect(await tab.$eval(`${conversation} .exchange[data-answered=true] .cites`, el => (el as HTMLElement).innerText)).toContain(UNCOVERED);
		await screenshot(tab, "conversations", viewport);
		await clickAndWait(tab, "nav.filters a[href$='filter=unanswered']");
		expect(await tab.$$eval(conversation, els => els.length)).toBe(1);

		// Analytics: two messages now, one answered and one declined; the widget was opened.
		await clickAndWait(tab, "nav.tabs a[data-tab=analytics]");
		await clickAndWait(tab, "nav.filters a[href$='days=7']");
		expect(await analyticsTotal(tab)).toBe(2);
		const today = new Date().toISOString().slice(0, 10);
		const bars = await tab.$$eval(`rect[data-day='${today}']`, els => els.map(e => [e.getAttribute("data-series"), e.getAttribute("data-value")]));
		expect(bars).toEqual(expect.arrayContaining([["answered", "1"], ["declined", "1"], ["widget opens", "1"]]));
		expect(await tab.$eval("[data-chart=questions] svg", el => el.getAttribute("aria-label"))).toContain(UNCOVERED);
		await screenshot(tab, "analytics", viewport);
		await close();
	}, 180_000);
});

it("keeps the log apart per chatbot and deletes it with the chatbot", async () => {
	const owner = await newOwner(app.baseUrl);
	const chatbot = await trainedChatbot(app.broker, owner.accountId, { name: "Short-lived" });
	const asked = await rawRequest(`${app.baseUrl}/api/chat/${chatbot.slug}/messages`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "When does the shop open?", channel: "link" }) });
	expect(asked.status).toBe(200);
	const log = await rawRequest(`${app.baseUrl}/account/chatbots/${chatbot._id}/conversations`, { headers: { Accept: "application/json", Cookie: owner.cookie } });
	expect(log.body).toMatchObject({ ok: true, retention_days: 90, conversations: [{ channel: "link", exchanges: [{ question: "When does the shop open?", answered: true }] }] });
	// A caller of the public API cannot pretend to be a messaging channel.
	const forged = await rawRequest(`${app.baseUrl}/api/chat/${chatbot.slug}/messages`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ message: "Hi", channel: "telegram" }) });
	expect(forged.status).toBe(400);

	await app.broker.call("chatbots.remove", { id: chatbot._id });
	const chat = app.broker.getLocalService("chat") as unknown as { exchangeDocs: { count?: unknown; find(q: object): Promise<unknown[]> }; usageDocs: { find(q: object): Promise<unknown[]> } };
	await eventually(async () => ((await chat.exchangeDocs.find({ chatbot_id: chatbot._id })).length === 0 ? true : undefined), 10_000, "the log to be deleted");
	expect(await chat.usageDocs.find({ chatbot_id: chatbot._id })).toEqual([]);
});

it("records the messaging channels' exchanges under their channel", async () => {
	const owner = await newOwner(app.baseUrl);
	const chatbot = await trainedChatbot(app.broker, owner.accountId, { name: "On Telegram" });
	await app.broker.call("chat.answer", { chatbot_id: chatbot._id, channel: "telegram", conversation_key: "chat-42", message: "What does a city bike cost?" });
	await app.broker.call("chat.answer", { chatbot_id: chatbot._id, channel: "telegram", conversation_key: "chat-42", message: "Can I bring my dog on the ferry?" });
	const log = await rawRequest(`${app.baseUrl}/account/chatbots/${chatbot._id}/conversations?filter=unanswered`, { headers: { Accept: "application/json", Cookie: owner.cookie } });
	expect(log.body).toMatchObject({
		conversations: [{ channel: "telegram", exchanges: [{ question: "What does a city bike cost?", answered: true, citations: [{ title: "Harbor handbook" }] }, { question: "Can I bring my dog on the ferry?", answered: false }] }]
	});
});

it("refuses widget settings and answers posted as a form without the page's CSRF token, changing nothing", async () => {
	const owner = await newOwner(app.baseUrl);
	const chatbot = await trainedChatbot(app.broker, owner.accountId, { name: "Guarded" });
	for (const [path, form] of [
		[`/account/chatbots/${chatbot._id}/deploy/widget`, "display_name=Forged"],
		[`/account/chatbots/${chatbot._id}/improve/answers`, "question=Forged%3F&answer=Forged"]
	]) {
		const reply = await rawRequest(`${app.baseUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: owner.cookie, Origin: "http://127.0.0.2:9" }, body: form });
		expect(reply.status).toBe(403);
	}
	const { chatbot: now, sources } = await app.broker.call<{ chatbot: Chatbot; sources: unknown[] }, object>("chatbots.get", { id: chatbot._id });
	expect(now.widget ?? null).toBeNull();
	expect(sources).toHaveLength(1);
});

it("puts the saved settings on the chat link, as text", async () => {
	const owner = await newOwner(app.baseUrl);
	const chatbot = await trainedChatbot(app.broker, owner.accountId, { name: "Linked" });
	const saved = await rawRequest(`${app.baseUrl}/account/chatbots/${chatbot._id}/deploy/widget`, {
		method: "POST",
		headers: { "Content-Type": "application/json", Cookie: owner.cookie },
		body: JSON.stringify({ display_name: "<b>Harbor</b> desk", language: "es", accent_color: "#FDE047" })
	});
	expect(saved.status).toBe(200);
	expect(saved.body).toMatchObject({ widget: { display_name: "<b>Harbor</b> desk", language: "es", accent_color: "#fde047", position: "right" } });
	const page = await rawRequest(`${app.baseUrl}/c/${chatbot.slug}`, {});
	expect(page.text).toContain('<html lang="es">');
	expect(page.text).toContain("<title>&lt;b&gt;Harbor&lt;/b&gt; desk</title>");
	const info = await rawRequest(`${app.baseUrl}/api/chat/${chatbot.slug}`, {});
	expect(info.body).toMatchObject({ name: "<b>Harbor</b> desk", locale: "es", accent_color: "#fde047", accent_text_color: "#111827", greeting: "¡Hola! Pregúntame lo que quieras sobre este contenido." });
	const refused = await rawRequest(`${app.baseUrl}/account/chatbots/${chatbot._id}/deploy/widget`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: owner.cookie }, body: JSON.stringify({ accent_color: "red", position: "top" }) });
	expect(refused.status).toBe(400);
	expect((refused.body as { errors?: { fields?: Array<{ field: string }> } }).errors?.fields?.map(f => f.field)).toEqual(["accent_color", "position"]);
});
