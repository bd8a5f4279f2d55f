/**
 * Renders pages in headless Chromium so text inserted by JavaScript is captured.
 *
 * One browser is launched lazily and shared; each render gets its own incognito browser context
 * (no cookies or storage shared between renders) whose proxy is a per-render guard proxy, so every
 * connection the page makes - document, redirects, subresources, fetch/XHR, service workers - goes
 * to an address the SSRF guard checked. Request interception adds an earlier check that names the
 * refused URL, and drops images, fonts and media, which carry no text.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import puppeteer, { Browser, HTTPRequest, Page } from "puppeteer-core";
import { fetchFailure, fetchFailureReason } from "./fetch-failure";
import type { CrawlOptions } from "./fetch-page";
import { RefusedRequest, startGuardProxy } from "./guard-proxy";
import { assertFetchableUrl, bareHostname, resolveAndCheck } from "./ssrf";

export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium";

export interface PageRendererOptions {
	/** Chromium binary; defaults to /usr/bin/chromium. */
	executablePath?: string;
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
	"--proxy-server=http://127.0.0.1:9"
];

const DROPPED_RESOURCES = new Set(["image", "font", "media"]);
const LOCAL_SCHEMES = new Set(["data:", "blob:", "about:"]);
/** Quiet period after load that counts as "the page has finished fetching its content". */
const NETWORK_IDLE_MS = 300;

function remaining(deadline: number): number {
	return Math.max(1, deadline - Date.now());
}

export class PageRenderer {
	private readonly executablePath: string;
	private browser: Promise<Browser> | undefined;
	private userDataDir: string | undefined;

	constructor(options: PageRendererOptions = {}) {
		this.executablePath = options.executablePath ?? DEFAULT_CHROMIUM_PATH;
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
	 * Loads `url` in Chromium under the SSRF guard, waits for the network to go quiet (bounded by
	 * `timeoutMs`), and returns the rendered HTML. Rejects with a `fetchFailure`.
	 */
	async render(url: string, opts: CrawlOptions): Promise<RenderedPage> {
		const target = assertFetchableUrl(url, opts);
		await resolveAndCheck(bareHostname(target), opts);
		const browser = await this.launch();
		const proxy = await startGuardProxy(opts);
		const context = await browser.createBrowserContext({ proxyServer: proxy.url, proxyBypassList: ["<-loopback>"] });
		let timer: NodeJS.Timeout | undefined;
		try {
			const page = await context.newPage();
			const deadline = new Promise<never>((_, reject) => {
				timer = setTimeout(
					() => reject(fetchFailure("timeout", `The page did not render within ${opts.timeoutMs} ms.`, { url })),
					opts.timeoutMs
				);
			});
			const work = this.load(page, target.href, opts, proxy.refused);
			work.catch(() => undefined);
			return await Promise.race([work, deadline]);
		} finally {
			clearTimeout(timer);
			await context.close().catch(() => undefined);
			await proxy.close();
		}
	}

	private async load(page: Page, url: string, opts: CrawlOptions, refused: RefusedRequest[]): Promise<RenderedPage> {
		const deadline = Date.now() + opts.timeoutMs;
		let documentRefused: RefusedRequest | undefined;
		await page.setUserAgent({ userAgent: opts.userAgent });
		await page.setRequestInterception(true);
		page.on("request", request => {
			void this.screen(request, opts, refusal => {
				refused.push(refusal);
				if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documentRefused = refusal;
			});
		});

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
		// Content fetched by scripts after load counts; a page that never goes quiet is read as it is.
		await page.waitForNetworkIdle({ idleTime: NETWORK_IDLE_MS, timeout: remaining(deadline) }).catch(() => undefined);
		const html = await page.content();
		if (Buffer.byteLength(html) > opts.maxBytes) {
			throw fetchFailure("too_large", `The rendered page is larger than ${opts.maxBytes} bytes.`, { url });
		}
		return { finalUrl: page.url(), html, status, refused };
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
