/**
 * One headless Chromium for a test file: the system browser with the flags it needs as root in a
 * container, a fresh profile directory removed on close, and the two screen sizes pages are tested
 * at (a phone 390 px wide and a 1280 px desktop); and what page tests do with it: open a page in a
 * fresh context, click and wait for the navigation, read the status of a form post, screenshot.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import puppeteer, { Browser, ConsoleMessage, HTTPRequest, HTTPResponse, Page, Viewport } from "puppeteer-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const PHONE: Viewport = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const DESKTOP: Viewport = { width: 1280, height: 800 };

export interface Chromium {
	browser: Browser;
	close(): Promise<void>;
}

export async function launchChromium(): Promise<Chromium> {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-chromium-"));
	const browser = await puppeteer.launch({
		executablePath: CHROMIUM_PATH,
		headless: true,
		userDataDir: profile,
		args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
	});
	return {
		browser,
		async close() {
			await browser.close();
			fs.rmSync(profile, { recursive: true, force: true });
		}
	};
}

export interface OpenedPage {
	page: Page;
	/** Every response the page received, in order. */
	responses: HTTPResponse[];
	/** The Referer of every request, in order. */
	referers: string[];
	/** Closes the context and checks no script error happened on the page. */
	close(): Promise<void>;
}

/** A fresh browser context (its own cookies) with one page at the given size. */
export async function openPage(chromium: Chromium, viewport: Viewport): Promise<OpenedPage> {
	const context = await chromium.browser.createBrowserContext();
	const tab = await context.newPage();
	await tab.setViewport(viewport);
	const responses: HTTPResponse[] = [];
	const referers: string[] = [];
	tab.on("response", response => responses.push(response));
	tab.on("request", request => referers.push(request.headers().referer ?? ""));
	const errors: string[] = [];
	tab.on("pageerror", err => errors.push((err as Error).message));
	return {
		page: tab,
		responses,
		referers,
		async close() {
			await context.close();
			expect(errors).toEqual([]);
		}
	};
}

/** Clicks and waits for the navigation it causes; returns the final response (after redirects). */
export async function clickAndWait(tab: Page, selector: string): Promise<HTTPResponse | null> {
	const [response] = await Promise.all([tab.waitForNavigation({ waitUntil: "load" }), tab.click(selector)]);
	return response;
}

/** The status of the last POST the page made to a path matching `pathname`. */
export function postStatus(responses: HTTPResponse[], pathname: string | RegExp): number | undefined {
	const matches = (p: string) => (typeof pathname === "string" ? p === pathname : pathname.test(p));
	const posts = responses.filter(r => r.request().method() === "POST" && matches(new URL(r.url()).pathname));
	return posts.at(-1)?.status();
}

/** The text of the page's `<main>`. */
export const mainText = (tab: Page) => tab.$eval("main", main => (main as HTMLElement).innerText);

/** A full-page screenshot in `dir`; and nothing is wider than the screen (no sideways scrolling on a phone). */
export async function screenshot(tab: Page, dir: string, name: string, viewport: Viewport): Promise<void> {
	await tab.screenshot({ path: path.join(dir, `${name}-${viewport.width}.png`), fullPage: true });
	expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/**
 * Opens a page that carries the chat widget (the chat link, or a site with the snippet) and waits
 * for the widget's input. The widget draws it after its info call answers (tried again when it
 * fails), so when it never appears the error says what the page shows, what the info calls answered and what the console said,
 * instead of only "timed out". Returns the page's own response.
 */
export async function openChatPage(tab: Page, url: string, timeoutMs = 30_000): Promise<HTTPResponse | null> {
	const seen: string[] = [];
	const onResponse = (response: HTTPResponse) => {
		if (/\/api\/chat\/[^/]+$/.test(new URL(response.url()).pathname)) seen.push(`${response.status()} ${response.url()}`);
	};
	const onFailure = (request: HTTPRequest) => seen.push(`failed ${request.url()}: ${request.failure()?.errorText}`);
	const onConsole = (message: ConsoleMessage) => seen.push(`console ${message.type()}: ${message.text()}`);
	tab.on("response", onResponse);
	tab.on("requestfailed", onFailure);
	tab.on("console", onConsole);
	try {
		const response = await tab.goto(url, { waitUntil: "load" });
		// Polled, not `waitForSelector`: on the chat link the widget attaches its shadow root to an
		// element already in the page, which is no DOM mutation, so a selector wait that missed the
		// input at its first look would sleep until its timeout.
		await tab.waitForFunction(() => Array.from(document.querySelectorAll("*")).some(el => el.shadowRoot?.querySelector(".input")), { polling: 100, timeout: timeoutMs });
		return response;
	} catch (err) {
		const shown = await tab.evaluate(() => document.body?.innerText ?? "").catch(() => "(page not readable)");
		throw new Error(`The chat input did not appear on ${url}. Page text: ${JSON.stringify(shown)}; seen: ${JSON.stringify(seen)}`, { cause: err });
	} finally {
		tab.off("response", onResponse);
		tab.off("requestfailed", onFailure);
		tab.off("console", onConsole);
	}
}
