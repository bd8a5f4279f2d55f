/**
 * One page in, its readable text out: the function the crawler service calls.
 *
 * Policy:
 * 1. robots.txt of the URL's origin is consulted first (and again for the final origin after
 *    redirects). Pass a shared RobotsCache to reuse rules across calls; without one, a cache for
 *    this call alone is made, so robots.txt is always honoured.
 * 2. A guarded static fetch always runs. It is cheap, it settles redirects, status and content type
 *    before a browser is involved, and it serves plain-text pages on its own.
 * 3. HTML is then rendered in Chromium whenever a renderer is given and available, so text that
 *    scripts insert is captured; sniffing whether a page "needs" JavaScript would guess wrong on the
 *    pages that matter. If rendering fails, or yields no text, the static HTML is used instead: the
 *    static fetch already passed every guard, so falling back loses nothing but script output. The
 *    exception is a page that sends the browser to an address the guard refuses: that page is
 *    refused (`blocked_address`), not read from its static HTML.
 * 4. No text at all is a failure with reason `empty` (code `empty`, 422); so is an HTML page whose
 *    body is empty, before any browser or parser sees it.
 * 5. Text is read from the HTML in the text worker (page-text.ts), never on the event loop.
 */
import type { PageRenderer } from "./browser";
import { fetchFailure, fetchFailureReason } from "../failures";
import { CrawlOptions, fetchPage } from "./fetch-page";
import { readHtmlPage, readPlainTextPage } from "./page-text";
import { RobotsCache } from "./robots";
import { assertFetchableUrl } from "./ssrf";

export interface FetchReadableOptions extends CrawlOptions {
	/** Chromium renderer; without one (or without Chromium installed) pages are read statically. */
	renderer?: PageRenderer;
	/** robots.txt rules shared across calls; without one, robots.txt is fetched for this call. */
	robots?: RobotsCache;
}

export interface ReadablePage {
	/** The URL asked for. */
	url: string;
	/** The URL after redirects (and client-side navigation, when rendered). */
	finalUrl: string;
	title: string;
	text: string;
	/** Length of `text` in UTF-16 code units, as JavaScript counts string length. */
	charCount: number;
	/** True when the text comes from the Chromium rendering. */
	rendered: boolean;
}

export interface PageContent extends ReadablePage {
	/** Same-origin page links of the HTML the text was read from, when asked for (none for plain text). */
	links: string[];
}

async function assertRobotsAllow(url: string, robots: RobotsCache, userAgent: string): Promise<void> {
	if (!(await robots.isAllowed(url, userAgent))) {
		throw fetchFailure("robots_disallowed", `robots.txt of ${new URL(url).host} does not allow fetching this page.`, { url });
	}
}

async function renderText(url: string, opts: FetchReadableOptions, links: boolean): Promise<Omit<PageContent, "url" | "charCount"> | undefined> {
	if (!opts.renderer?.available()) return undefined;
	let page;
	try {
		page = await opts.renderer.render(url, opts);
	} catch (err) {
		// A page that navigates itself to a refused address is refused, not read from its static HTML.
		if (fetchFailureReason(err) === "blocked_address") throw err;
		// Step 3 of the policy: any other rendering failure falls back to the static HTML.
		return undefined;
	}
	try {
		const read = await readHtmlPage(page.html, page.finalUrl, opts.timeoutMs, links);
		return read.text ? { finalUrl: page.finalUrl, ...read, rendered: true } : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Fetches a page and returns its readable text, with the same-origin links of its HTML when
 * `links` is set (a site crawl follows them).
 */
export async function fetchPageContent(url: string, opts: FetchReadableOptions, links = false): Promise<PageContent> {
	const requested = assertFetchableUrl(url, opts).href;
	const robots = opts.robots ?? new RobotsCache(opts);
	await assertRobotsAllow(requested, robots, opts.userAgent);
	const fetched = await fetchPage(requested, opts);
	if (new URL(fetched.finalUrl).origin !== new URL(requested).origin) await assertRobotsAllow(fetched.finalUrl, robots, opts.userAgent);
	if (fetched.body.trim() === "") throw fetchFailure("empty", "The page's body is empty.", { url });

	let result: Omit<PageContent, "url" | "charCount">;
	if (fetched.contentType === "text/plain") {
		const text = await readPlainTextPage(fetched.body, fetched.finalUrl, opts.timeoutMs);
		result = { finalUrl: fetched.finalUrl, title: "", text, rendered: false, links: [] };
	} else {
		result =
			(await renderText(fetched.finalUrl, opts, links)) ??
			{ finalUrl: fetched.finalUrl, ...(await readHtmlPage(fetched.body, fetched.finalUrl, opts.timeoutMs, links)), rendered: false };
	}
	if (!result.text) throw fetchFailure("empty", "The page has no readable text.", { url });
	return { url, ...result, charCount: result.text.length };
}

/** Fetches a page (robots, SSRF guard, Chromium when available) and returns its readable text. */
export async function fetchReadable(url: string, opts: FetchReadableOptions): Promise<ReadablePage> {
	const { links: _links, ...page } = await fetchPageContent(url, opts);
	return page;
}
