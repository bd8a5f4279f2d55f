/**
 * The chat link and the embed snippet in a real headless Chromium, against the real app: open the
 * chat page on a phone-sized screen, type a question, read the streamed answer and its source link;
 * load a page of another site (another loopback origin) carrying the one-line snippet, open the
 * bubble, ask, read the answer; answers that contain markup are shown as text; the Spanish chatbot
 * speaks Spanish; the widget's usage beacons are counted.
 */
import type { Browser, Page } from "puppeteer-core";
import { startApp, TestApp } from "../helpers/app";
import { DemoClient } from "../helpers/chat-client";
import { Chromium, launchChromium, openChatPage } from "../helpers/chromium";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { eventually } from "../helpers/processes";

const PHONE = { width: 375, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let app: TestApp;
let docs: LoopbackSite;
let shop: LoopbackSite;
let chromium: Chromium;
let browser: Browser;
let english: DemoClient;
let spanish: DemoClient;

beforeAll(async () => {
	docs = await startSite({
		"/warranty": html("<!doctype html><html><head><title>Warranty terms</title></head><body><main><h1>Warranty</h1><p>The warranty lasts 37 months from the day of delivery.</p></main></body></html>")
	});
	// TRUST_PROXY: the demo client sends each call from its own X-Forwarded-For address, so polling
	// for `ready` cannot spend the per-IP demo-api budget that later calls need.
	app = await startApp({ env: { TRUST_PROXY: "1", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" } });

	english = await DemoClient.create(app.baseUrl);
	await english.addUrl(`${docs.origin}/warranty`);
	// Source text that looks like markup: it must reach the page as text, never as elements.
	await english.addText('Support codes\n\nThe support code is <img src=x onerror="window.injectedByAnswer=1"><script>window.injectedByAnswer=2</script> 4711.');
	await english.train();
	await english.untilReady();

	spanish = await DemoClient.create(app.baseUrl, "es");
	await spanish.addText("Envíos\n\nLos envíos a Canarias tardan cuatro días laborables.");
	await spanish.train();
	await spanish.untilReady();

	// Another website (another origin) that embeds the widget with the snippet the API hands out.
	shop = await startSite(
		{
			"/": html(`<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head><body><h1>Kettle shop</h1><p>Welcome.</p>${english.demo.embed_snippet}</body></html>`)
		},
		"127.0.0.2"
	);

	chromium = await launchChromium();
	browser = chromium.browser;
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await app?.stop();
	await docs?.stop();
	await shop?.stop();
});

/** Script errors of any page, checked after each test. */
const pageErrors: string[] = [];
afterEach(() => {
	expect(pageErrors.splice(0)).toEqual([]);
});

async function newPage(): Promise<Page> {
	const page = await browser.newPage();
	await page.setViewport(PHONE);
	page.on("pageerror", err => pageErrors.push((err as Error).message));
	return page;
}

/** Types a question into the widget and waits for the finished answer; returns its text and source links. */
async function askInPage(page: Page, question: string): Promise<{ text: string; links: Array<{ text: string; href: string; target: string; rel: string }> }> {
	const before = await page.$$eval("pierce/.msg.bot", nodes => nodes.length);
	await page.type("pierce/.input", question);
	await page.keyboard.press("Enter");
	await page.waitForFunction(
		(count: number) => {
			const host = Array.from(document.querySelectorAll("*")).find(el => el.shadowRoot)?.shadowRoot;
			const bots = host ? Array.from(host.querySelectorAll(".msg.bot")) : [];
			return bots.length > count && !bots[bots.length - 1].classList.contains("pending");
		},
		{ timeout: 20_000 },
		before
	);
	return page.evaluate(() => {
		const host = Array.from(document.querySelectorAll("*")).find(el => el.shadowRoot)?.shadowRoot as ShadowRoot;
		const bots = Array.from(host.querySelectorAll(".msg.bot"));
		const last = bots[bots.length - 1];
		return {
			text: last.querySelector(".text")?.textContent ?? "",
			links: Array.from(last.querySelectorAll(".cites a")).map(a => ({
				text: a.textContent ?? "",
				href: (a as HTMLAnchorElement).href,
				target: (a as HTMLAnchorElement).target,
				rel: (a as HTMLAnchorElement).rel
			}))
		};
	});
}

it("the chat link answers a typed question with the fact and a link to its source, on a phone-sized screen", async () => {
	const page = await newPage();
	const response = await openChatPage(page, english.demo.chat_url);
	expect(response?.status()).toBe(200);
	expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
	expect(await page.$eval("pierce/.msg.bot .text", el => el.textContent)).toBe("Hi! Ask me anything about this content.");
	expect(await page.$eval("pierce/.input", el => (el as HTMLInputElement).placeholder)).toBe("Ask a question…");

	const answer = await askInPage(page, "How long is the warranty?");
	expect(answer.text).toContain("37 months");
	expect(answer.links).toEqual([{ text: "Warranty terms", href: `${docs.origin}/warranty`, target: "_blank", rel: "noopener noreferrer nofollow" }]);

	// Everything fits the phone's width, and the input stays on screen.
	const layout = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
	expect(layout.scrollWidth).toBeLessThanOrEqual(layout.innerWidth);
	const box = await (await page.$("pierce/.input"))?.boundingBox();
	expect(box && box.y + box.height).toBeLessThanOrEqual(PHONE.height);
	expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
	await page.close();
});

it("shows answers that contain markup as text, without running or rendering it", async () => {
	const page = await newPage();
	await openChatPage(page, english.demo.chat_url);
	const answer = await askInPage(page, "What is the support code?");
	expect(answer.text).toContain("4711");
	expect(answer.text).toContain('<img src=x onerror="window.injectedByAnswer=1">');
	const injected = await page.evaluate(() => {
		const host = Array.from(document.querySelectorAll("*")).find(el => el.shadowRoot)?.shadowRoot as ShadowRoot;
		return {
			flag: (window as unknown as { injectedByAnswer?: number }).injectedByAnswer ?? null,
			images: host.querySelectorAll(".log img").length + document.querySelectorAll("img").length,
			scripts: host.querySelectorAll(".log script").length
		};
	});
	expect(injected).toEqual({ flag: null, images: 0, scripts: 0 });
	await page.close();
});

it("the embed snippet on another site adds a bubble that opens a chat, answers, and reports its use", async () => {
	const page = await newPage();
	const usageBefore = await app.broker.call<Array<{ widget_opened: number; message_sent: number }>, object>("chat.usage", { slug: english.slug });
	const script = page.waitForResponse(response => response.url() === `${app.baseUrl}/widget.js`);
	await page.goto(`${shop.origin}/`, { waitUntil: "load" });
	// The browser asked for gzip, as browsers do, and got the script coded (a third of its size).
	expect((await script).headers()["content-encoding"]).toBe("gzip");
	const bubble = await page.waitForSelector("pierce/.bubble");
	expect(await page.$eval("pierce/.bubble", el => el.getAttribute("aria-label"))).toBe("Open chat");
	expect(await page.$eval("pierce/.panel", el => (el as HTMLElement).hidden)).toBe(true);
	// The host page is untouched apart from the widget's own element.
	expect(await page.$eval("h1", el => el.textContent)).toBe("Kettle shop");

	await bubble?.click();
	await page.waitForSelector("pierce/.panel:not([hidden])");
	// On a phone the open chat takes the whole screen.
	const panel = await (await page.$("pierce/.panel"))?.boundingBox();
	expect(panel).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
	const answer = await askInPage(page, "How long is the warranty?");
	expect(answer.text).toContain("37 months");
	expect(answer.links.map(l => l.href)).toEqual([`${docs.origin}/warranty`]);

	// Opened once and one message sent, counted for today.
	const total = (rows: Array<{ widget_opened: number; message_sent: number }>) =>
		rows.reduce((sum, row) => ({ opened: sum.opened + row.widget_opened, sent: sum.sent + row.message_sent }), { opened: 0, sent: 0 });
	const before = total(usageBefore);
	await eventually(async () => {
		const now = total(await app.broker.call<Array<{ widget_opened: number; message_sent: number }>, object>("chat.usage", { slug: english.slug }));
		return now.opened === before.opened + 1 && now.sent === before.sent + 1 ? true : undefined;
	}, 10_000, "the widget's beacons to be counted");

	// Closing hides the panel again.
	await page.click("pierce/.close");
	expect(await page.$eval("pierce/.panel", el => (el as HTMLElement).hidden)).toBe(true);
	await page.close();
});

it("a Spanish chatbot's chat page speaks Spanish", async () => {
	const page = await newPage();
	await openChatPage(page, spanish.demo.chat_url);
	expect(await page.$eval("html", el => el.getAttribute("lang"))).toBe("es");
	expect(await page.$eval("pierce/.input", el => (el as HTMLInputElement).placeholder)).toBe("Escribe una pregunta…");
	expect(await page.$eval("pierce/.send", el => el.textContent)).toBe("Enviar");
	const answer = await askInPage(page, "¿Cuánto tardan los envíos a Canarias?");
	expect(answer.text).toContain("cuatro días laborables");
	const refusal = await askInPage(page, "¿Quién escribió el Quijote?");
	expect(refusal.text).toBe("No encontré eso en las fuentes de este chatbot.");
	await page.close();
});

it("a chatbot that has not finished its first training says so instead of answering", async () => {
	const learning = await DemoClient.create(app.baseUrl);
	expect((await learning.addText("The shop opens at ten.")).status).toBe(200);
	const page = await newPage();
	await openChatPage(page, learning.demo.chat_url);
	const notice = "This chatbot is still learning its sources. Please try again in a moment.";
	expect(await page.$eval("pierce/.notice", el => el.textContent)).toBe(notice);
	const reply = await askInPage(page, "When does the shop open?");
	expect(reply.text).toBe(notice);
	expect(await page.$eval("pierce/.msg.bot:last-of-type", el => el.classList.contains("error"))).toBe(true);
	await page.close();
});

it("an unknown chat link shows the designed 404 page", async () => {
	const page = await newPage();
	const response = await page.goto(`${app.baseUrl}/c/nosuchslug000`, { waitUntil: "load" });
	expect(response?.status()).toBe(404);
	expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
	await page.close();
});

it("a dropped or failed first info call is tried again, so a visitor still gets the chat; a chatbot that is gone is said so at once", async () => {
	const page = await newPage();
	await page.setRequestInterception(true);
	const infoCalls: string[] = [];
	page.on("request", request => {
		const isInfo = /\/api\/chat\/[^/]+$/.test(new URL(request.url()).pathname);
		if (!isInfo) return void request.continue();
		infoCalls.push(request.url());
		// The first call is dropped as a flaky network would, the second answers 503 as a restarting server; the third goes through.
		if (infoCalls.length === 1) return void request.abort("connectionreset");
		if (infoCalls.length === 2) return void request.respond({ status: 503, contentType: "application/json", body: '{"ok":false,"error":{"type":"unavailable","message":"Restarting."}}' });
		return void request.continue();
	});
	await openChatPage(page, english.demo.chat_url);
	expect(infoCalls).toHaveLength(3);
	expect((await askInPage(page, "How long is the warranty?")).text).toContain("37 months");

	// The chatbot's info answers 404 (it expired after the page was served): no retries, the page says so.
	infoCalls.length = 0;
	page.removeAllListeners("request");
	page.on("request", request => {
		if (!/\/api\/chat\/[^/]+$/.test(new URL(request.url()).pathname)) return void request.continue();
		infoCalls.push(request.url());
		return void request.respond({ status: 404, contentType: "application/json", body: '{"ok":false,"error":{"type":"not_found","message":"No live chatbot has this slug."}}' });
	});
	await page.goto(english.demo.chat_url, { waitUntil: "load" });
	await page.waitForFunction(() => document.body.innerText.includes("This chatbot is no longer available."));
	await new Promise(resolve => setTimeout(resolve, 1_500)); // longer than the first retry delay
	expect(infoCalls).toHaveLength(1);
	await page.close();
});
