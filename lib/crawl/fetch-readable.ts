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
 *    static fetch already passed every guard, so falling back loses nothing but script output.
 * 4. No text at all is a failure with reason `empty` (code `empty`, 422).
 */
import type { PageRenderer } from "./browser";
import { fetchFailure } from "./fetch-failure";
import { CrawlOptions, fetchPage } from "./fetch-page";
import { readableText } from "./readable-text";
import { RobotsCache } from "./robots";
import { assertFetchableUrl } from "./ssrf";
import { normalizeText } from "../extract/plain-text";

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
	/** The HTML the text was read from (rendered or static); undefined for plain-text pages. */
	html: string | undefined;
}

async function assertRobotsAllow(url: string, robots: RobotsCache, userAgent: string): Promise<void> {
	if (!(await robots.isAllowed(url, userAgent))) {
		throw fetchFailure("robots_disallowed", `robots.txt of ${new URL(url).host} does not allow fetching this page.`, { url });
	}
}

async function renderText(url: string, opts: FetchReadableOptions): Promise<{ finalUrl: string; html: string; title: string; text: string } | undefined> {
	if (!opts.renderer?.available()) return undefined;
	try {
		const page = await opts.renderer.render(url, opts);
		const { title, text } = readableText(page.html, page.finalUrl);
		return text ? { finalUrl: page.finalUrl, html: page.html, title, text } : undefined;
	} catch {
		// Step 3 of the policy: any rendering failure falls back to the static HTML.
		return undefined;
	}
}

/** Fetches a page and returns its readable text together with the HTML it came from. */
export async function fetchPageContent(url: string, opts: FetchReadableOptions): Promise<PageContent> {
	const requested = assertFetchableUrl(url, opts).href;
	const robots = opts.robots ?? new RobotsCache(opts);
	await assertRobotsAllow(requested, robots, opts.userAgent);
	const fetched = await fetchPage(requested, opts);
	if (new URL(fetched.finalUrl).origin !== new URL(requested).origin) await assertRobotsAllow(fetched.finalUrl, robots, opts.userAgent);

	let result: Omit<PageContent, "charCount">;
	if (fetched.contentType === "text/plain") {
		result = { url, finalUrl: fetched.finalUrl, title: "", text: normalizeText(fetched.body), rendered: false, html: undefined };
	} else {
		const rendered = await renderText(fetched.finalUrl, opts);
		if (rendered) {
			result = { url, ...rendered, rendered: true };
		} else {
			const { title, text } = readableText(fetched.body, fetched.finalUrl);
			result = { url, finalUrl: fetched.finalUrl, html: fetched.body, title, text, rendered: false };
		}
	}
	if (!result.text) throw fetchFailure("empty", "The page has no readable text.", { url });
	return { ...result, charCount: result.text.length };
}

/** Fetches a page (robots, SSRF guard, Chromium when available) and returns its readable text. */
export async function fetchReadable(url: string, opts: FetchReadableOptions): Promise<ReadablePage> {
	const { html: _html, ...page } = await fetchPageContent(url, opts);
	return page;
}
