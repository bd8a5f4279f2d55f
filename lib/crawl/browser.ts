/**
 * Renders pages in headless Chromium so text inserted by JavaScript is captured.
 *
 * One browser is launched lazily and shared; each render gets its own incognito browser context
 * (no cookies or storage shared between renders) whose proxy is a per-render guard proxy, so every
 * connection the page makes - document, redirects, subresources, fetch/XHR, service workers - goes
 * to an address the SSRF guard checked. Request interception adds an earlier check that names the
 * refused URL, and drops images, fonts and media, which carry no text. WebRTC may not send UDP
 * outside the proxy, so a page cannot reach internal hosts with STUN packets either.
 *
 * A page that ends anywhere but on a good document - a navigation the guard refused, Chromium's
 * own error page, an error status - is a failure, never text. Its size is judged inside the
 * browser, so an oversized DOM never reaches this process. Renders per renderer are bounded.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser, HTTPRequest, HTTPResponse, Page, PuppeteerNode } from "puppeteer-core";
import { fetchFailure, fetchFailureReason } from "../failures";
import type { CrawlOptions } from "./fetch-page";
import { RefusedRequest, startGuardProxy } from "./guard-proxy";
import { assertFetchableUrl, bareHostname, resolveAndCheck } from "./ssrf";
import { Slots } from "../workers/slots";

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

export interface PageRendererOptions {
	/** Chromium binary; defaults to /usr/bin/chromium. */
	executablePath?: string;
	/** Pages rendered at once; more wait for a turn within their time limit. Default 2. */
	maxConcurrentRenders?: number;
}

export interface RenderedPage {
	finalUrl: string;
	html: string;
	status: number;
	/** Requests the guard refused while the page loaded (diagnostics). */
	refused: RefusedRequest[];
}

/** Flags for running as root in a container without a GPU, and without Chromium's own traffic. */
const CHROMIUM_ARGS = [
	"--no-sandbox",
	"--disable-gpu",
	"--disable-quic",
	"--no-first-run",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-dev-shm-usage",
	// Chromium sends loopback straight past any proxy unless told otherwise; the guard must see it.
	"--proxy-bypass-list=<-loopback>",
	// Anything outside a render's own context (there should be nothing) goes to a dead proxy.
	"--proxy-server=http://127.0.0.1:9",
	// WebRTC sends UDP (STUN) straight to any host and port, past every proxy. Allowed only through
	// the proxy, which carries no UDP, it sends none. (--force-webrtc-ip-handling-policy does not
	// do this.)
	"--webrtc-ip-handling-policy=disable_non_proxied_udp"
];

const DROPPED_RESOURCES = new Set(["image", "font", "media"]);
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);
/** Quiet period after load that counts as "the page has finished fetching its content". */
const NETWORK_IDLE_MS = 300;
/** Reads of a page that navigates away while it is read, before it counts as never settling. */
const MAX_READS = 3;
const DEFAULT_CONCURRENT_RENDERS = 2;
/** Longest wait, per read, for a document that asked to be left (`markLeaving`) to be replaced. */
const LEAVING_WAIT_MS = 2_000;
/** The page-side function that tells whether a script asked to leave the document. */
const LEAVING_PROBE = "__crawlerDocumentLeaving";

/**
 * Runs in every new document before its scripts, and records whether a script asked to leave it
 * for another document (`location.href = …`, a form submitted, a link clicked). The Navigation API's
 * navigate event fires in the task that asks, and the new document commits only after its request
 * has gone through the guard: on a busy machine a read can come in between, and would take the text
 * of a document about to be replaced (a page sending itself to an internal address was then read
 * as its own harmless text, not refused). Same-document navigations (a fragment, pushState) do not
 * count. The probe is neither writable nor configurable; a page hiding its navigation from it only
 * gets its own text read, as before.
 */
function markLeaving(probe: string): void {
	let leaving = false;
	const navigation = (globalThis as unknown as { navigation?: EventTarget }).navigation;
	navigation?.addEventListener("navigate", event => {
		if (!(event as unknown as { destination: { sameDocument: boolean } }).destination.sameDocument) leaving = true;
	});
	Object.defineProperty(globalThis, probe, { value: () => leaving, writable: false, configurable: false, enumerable: false });
}

function isLeaving(probe: string): boolean {
	const read = (globalThis as unknown as Record<string, unknown>)[probe];
	return typeof read === "function" && read() === true;
}

/**
 * Serialises the document inside the page, as Puppeteer's `page.content()` does, but answers null
 * when its UTF-8 size passes `maxBytes`, so an oversized DOM is never copied into this process.
 * A string has at least as many UTF-8 bytes as UTF-16 units, and at most three per unit.
 */
function serializeWithin(maxBytes: number): string | null {
	const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : "";
	const html = doctype + (document.documentElement ? document.documentElement.outerHTML : "");
	if (html.length > maxBytes) return null;
	if (html.length * 3 > maxBytes && new TextEncoder().encode(html).length > maxBytes) return null;
	return html;
}

function remaining(deadline: number): number {
	return Math.max(1, deadline - Date.now());
}

export class PageRenderer {
	private readonly executablePath: string;
	private readonly slots: Slots;
	private browser: Promise<Browser> | undefined;
	private userDataDir: string | undefined;

	constructor(options: PageRendererOptions = {}) {
		this.executablePath = options.executablePath ?? DEFAULT_CHROMIUM_PATH;
		this.slots = new Slots(options.maxConcurrentRenders ?? DEFAULT_CONCURRENT_RENDERS);
	}

	/** Renders running now and waiting for a turn. */
	load(): { running: number; waiting: number } {
		const { held, waiting } = this.slots.load();
		return { running: held, waiting };
	}

	/** True when the Chromium binary exists and is executable. */
	available(): boolean {
		try {
			fs.accessSync(this.executablePath, fs.constants.X_OK);
			return fs.statSync(this.executablePath).isFile();
		} catch {
			return false;
		}
	}

	/**
	 * Loads `url` in Chromium under the SSRF guard, waits for the network to go quiet, and returns
	 * the rendered HTML, all within `timeoutMs` (a wait for a turn included). Rejects with a
	 * `fetchFailure`.
	 */
	async render(url: string, opts: CrawlOptions): Promise<RenderedPage> {
		const deadline = Date.now() + opts.timeoutMs;
		const target = assertFetchableUrl(url, opts);
		await resolveAndCheck(bareHostname(target), opts);
		const release = await this.slots.acquire(opts.timeoutMs, () =>
			fetchFailure("timeout", `The browser was busy with other pages for ${opts.timeoutMs} ms.`, { url })
		);
		try {
			return await this.renderGuarded(target.href, opts, deadline);
		} finally {
			release();
		}
	}

	private async renderGuarded(url: string, opts: CrawlOptions, deadline: number): Promise<RenderedPage> {
		const browserFailed = () => fetchFailure("network", "The browser could not render the page.", { url });
		const browser = await this.launch().catch(() => Promise.reject(browserFailed()));
		const proxy = await startGuardProxy(opts);
		let timer: NodeJS.Timeout | undefined;
		try {
			const context = await browser
				.createBrowserContext({ proxyServer: proxy.url, proxyBypassList: ["<-loopback>"] })
				.catch(() => Promise.reject(browserFailed()));
			try {
				const page = await context.newPage();
				const timeout = new Promise<never>((_, reject) => {
					timer = setTimeout(() => reject(fetchFailure("timeout", `The page did not render within ${opts.timeoutMs} ms.`, { url })), remaining(deadline));
				});
				const work = this.loadPage(page, url, opts, deadline, proxy.refused);
				work.catch(() => undefined);
				return await Promise.race([work, timeout]);
			} catch (err) {
				// Anything else that fails here is the browser's own trouble (it died, a target closed).
				throw fetchFailureReason(err) ? err : browserFailed();
			} finally {
				await context.close().catch(() => undefined);
			}
		} finally {
			clearTimeout(timer);
			await proxy.close();
		}
	}

	private async loadPage(page: Page, url: string, opts: CrawlOptions, deadline: number, refused: RefusedRequest[]): Promise<RenderedPage> {
		let documentRefused: RefusedRequest | undefined;
		let documentResponse: HTTPResponse | undefined;
		await page.setUserAgent({ userAgent: opts.userAgent });
		await page.setRequestInterception(true);
		page.on("request", request => {
			void this.screen(request, opts, refusal => {
				refused.push(refusal);
				if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documentRefused = refusal;
			});
		});
		page.on("response", response => {
			if (response.request().isNavigationRequest() && response.frame() === page.mainFrame()) documentResponse = response;
		});

		await page.evaluateOnNewDocument(markLeaving, LEAVING_PROBE);
		let response;
		try {
			response = await page.goto(url, { waitUntil: "load", timeout: remaining(deadline) });
		} catch (err) {
			if (documentRefused) {
				throw fetchFailure(documentRefused.reason, "The page or one of its redirects points to an address that is not public.", { url });
			}
			if (err instanceof Error && err.name === "TimeoutError") {
				throw fetchFailure("timeout", `The page did not load within ${opts.timeoutMs} ms.`, { url });
			}
			throw fetchFailure("network", "The page could not be loaded in the browser.", { url });
		}
		const status = response?.status() ?? 0;
		if (response && (status < 200 || status >= 300)) {
			throw fetchFailure("http_status", `The page answered with HTTP status ${status}.`, { url, status });
		}
		let html: string | null | undefined;
		for (let read = 1; html === undefined; read++) {
			// Content fetched by scripts after load counts; a page that never goes quiet is read as it is.
			await page.waitForNetworkIdle({ idleTime: NETWORK_IDLE_MS, timeout: remaining(deadline) }).catch(() => undefined);
			try {
				// A document a script asked to leave is read once it has been replaced (or the wait ends).
				if (read < MAX_READS && (await page.evaluate(isLeaving, LEAVING_PROBE))) {
					await page.waitForNavigation({ waitUntil: "load", timeout: Math.min(LEAVING_WAIT_MS, remaining(deadline)) }).catch(() => undefined);
					continue;
				}
				html = await page.evaluate(serializeWithin, opts.maxBytes);
			} catch {
				// The document went away while it was read: the page navigated again at that moment. The
				// next read sees where it went (a refused address must be reported as such, not taken
				// for a page that failed to render and read from its static HTML).
				if (read < MAX_READS) continue;
				this.assertGoodDocument(url, page.url(), documentRefused, documentResponse, refused);
				throw fetchFailure("network", "The page kept navigating while it was read.", { url });
			}
		}
		const finalUrl = page.url();
		this.assertGoodDocument(url, finalUrl, documentRefused, documentResponse, refused);
		if (html === null) throw fetchFailure("too_large", `The rendered page is larger than ${opts.maxBytes} bytes.`, { url });
		return { finalUrl, html, status: documentResponse?.status() ?? 0, refused };
	}

	/**
	 * The page must end on a document that loaded: a script may have navigated it since the first
	 * load, to an address the guard refused (then Chromium shows its own error page, whose text must
	 * not be read as the page's) or to a document that answered with an error status.
	 */
	private assertGoodDocument(
		url: string,
		finalUrl: string,
		documentRefused: RefusedRequest | undefined,
		documentResponse: HTTPResponse | undefined,
		refused: RefusedRequest[]
	): void {
		// The guard proxy refuses with a 403 of its own (plain HTTP) or a failed tunnel (Chromium's error page).
		const errorPage = finalUrl.startsWith("chrome-error:");
		if (documentRefused || refused.some(r => r.url === documentResponse?.url()) || (errorPage && refused.length > 0)) {
			throw fetchFailure("blocked_address", "The page navigated to an address that is not public.", { url });
		}
		if (errorPage) throw fetchFailure("network", "The page navigated to an address that could not be loaded.", { url });
		const status = documentResponse?.status() ?? 0;
		if (documentResponse && (status < 200 || status >= 300)) {
			throw fetchFailure("http_status", `The page answered with HTTP status ${status}.`, { url, status });
		}
	}

	/**
	 * Lets one request through or aborts it. A guard refusal is reported through `onRefused` before
	 * the abort, so it is on record by the time the navigation fails.
	 */
	private async screen(request: HTTPRequest, opts: CrawlOptions, onRefused: (refusal: RefusedRequest) => void): Promise<void> {
		if (request.isInterceptResolutionHandled()) return;
		if (DROPPED_RESOURCES.has(request.resourceType())) {
			await request.abort("blockedbyclient").catch(() => undefined);
			return;
		}
		const url = request.url();
		if (!LOCAL_SCHEMES.has(url.slice(0, url.indexOf(":") + 1))) {
			try {
				const parsed = assertFetchableUrl(url, opts);
				await resolveAndCheck(bareHostname(parsed), opts);
			} catch (err) {
				onRefused({ url, reason: fetchFailureReason(err) ?? "network" });
				await request.abort("accessdenied").catch(() => undefined);
				return;
			}
		}
		await request.continue().catch(() => undefined);
	}

	private launch(): Promise<Browser> {
		if (!this.browser) {
			this.userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "crawler-chromium-"));
			// Required at the first render: an idle process need not hold puppeteer (some 30 MB).
			const puppeteer = (require("puppeteer-core") as { default: PuppeteerNode }).default;
			const launching = puppeteer.launch({
				executablePath: this.executablePath,
				headless: true,
				args: CHROMIUM_ARGS,
				userDataDir: this.userDataDir
			});
			this.browser = launching;
			launching.then(
				browser =>
					browser.once("disconnected", () => {
						// A crashed browser is relaunched on the next render.
						if (this.browser === launching) this.browser = undefined;
					}),
				() => {
					if (this.browser === launching) this.browser = undefined;
				}
			);
		}
		return this.browser;
	}

	/** Closes the shared browser and removes its profile directory. */
	async close(): Promise<void> {
		const launching = this.browser;
		const dir = this.userDataDir;
		this.browser = undefined;
		this.userDataDir = undefined;
		if (launching) {
			const browser = await launching.catch(() => undefined);
			await browser?.close().catch(() => undefined);
		}
		if (dir) fs.rmSync(dir, { recursive: true, force: true });
	}
}
