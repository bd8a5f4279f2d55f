/**
 * Crawls one site within a page budget: breadth first over same-origin links, seeded with the start
 * page and then the site's /sitemap.xml, one page at a time (polite to small sites, and a sandbox
 * budget is five pages anyway). Pages of the start page's section come first: a person who gives
 * `/docs/guides/widget` wants the guides beside it, and one who gives `/specification/2025-06-18`
 * the pages under it, not the first links of the site's header (`/pricing`, `/blog`) or another
 * version's pages; among pages as close to it, the order links were found in.
 *
 * The budget counts pages crawled successfully. Failed pages are reported with their reason but do
 * not use up the budget, so one broken link does not cost a page of content; a separate cap on
 * attempts (three per budgeted page by default) keeps a site full of broken links from running on.
 */
import { fetchFailureReason, FetchFailure } from "../failures";
import { fetchPage } from "./fetch-page";
import { FetchReadableOptions, fetchPageContent } from "./fetch-readable";
import { normalizePageUrl } from "./page-links";
import { readSitemap } from "./page-text";
import { RobotsCache } from "./robots";

export { extractLinks, normalizePageUrl, parseSitemap } from "./page-links";

export interface CrawledPage {
	url: string;
	status: "crawled" | "failed";
	title?: string;
	text?: string;
	charCount?: number;
	reason?: FetchFailure;
}

export interface CrawlProgress {
	crawled: number;
	failed: number;
	/** Distinct same-origin URLs discovered so far. */
	found: number;
	maxPages: number;
}

export interface CrawlSiteOptions extends FetchReadableOptions {
	/** Pages to crawl successfully at most. */
	maxPages: number;
	/** Fetch attempts at most, failures included; defaults to 3 × maxPages. */
	maxAttempts?: number;
	/** Called after each page, crawled or failed. */
	onPage?: (page: CrawledPage, progress: CrawlProgress) => void | Promise<void>;
}

export interface SiteCrawl {
	pages: CrawledPage[];
	/** Distinct same-origin URLs discovered (crawled or not). */
	found: number;
}

async function sitemapUrls(origin: string, opts: CrawlSiteOptions): Promise<string[]> {
	try {
		const sitemap = await fetchPage(`${origin}/sitemap.xml`, { ...opts, accept: ["application/xml", "text/xml", "text/plain"] });
		return await readSitemap(sitemap.body, sitemap.finalUrl, opts.timeoutMs);
	} catch (err) {
		// No sitemap (or an unusable one) is normal; the links of the pages still drive the crawl.
		if (fetchFailureReason(err) === undefined) throw err;
		return [];
	}
}

/**
 * The path segments of a page: `/docs/guides/widget` → ["docs", "guides", "widget"]. The pages
 * under it share all of them, the pages beside it all but the last.
 */
function sectionOf(url: string): string[] {
	return new URL(url).pathname.split("/").filter(Boolean);
}

/** How many leading path segments of `url` are those of `section`. */
function sharedSegments(url: string, section: readonly string[]): number {
	const segments = new URL(url).pathname.split("/").slice(1);
	let shared = 0;
	while (shared < section.length && segments[shared] === section[shared]) shared++;
	return shared;
}

/** Crawls `startUrl`'s site within `maxPages`, its section first, reporting each page's outcome. */
export async function crawlSite(startUrl: string, options: CrawlSiteOptions): Promise<SiteCrawl> {
	// One robots cache for the whole crawl, so robots.txt is fetched once per origin.
	const opts: CrawlSiteOptions = { ...options, robots: options.robots ?? new RobotsCache(options) };
	const start = normalizePageUrl(startUrl);
	if (!start) return { pages: [{ url: startUrl, status: "failed", reason: "invalid_url" }], found: 0 };
	const origins = new Set([new URL(start).origin]);
	const seen = new Set<string>([start]);
	// Pages waiting, by how many leading path segments they share with the start page's section:
	// the closest first, each bucket in the order its pages were found.
	const waiting: string[][] = [[start]];
	const pages: CrawledPage[] = [];
	const maxAttempts = opts.maxAttempts ?? opts.maxPages * 3;
	let crawled = 0;
	let failed = 0;
	let sitemapLoaded = false;

	// The start page's section, read again from its final address once it is crawled (after any
	// redirect): every link is found after that.
	let section = sectionOf(start);
	const enqueue = (url: string) => {
		const normalized = normalizePageUrl(url);
		if (!normalized || seen.has(normalized) || !origins.has(new URL(normalized).origin)) return;
		seen.add(normalized);
		const closeness = sharedSegments(normalized, section);
		(waiting[closeness] ??= []).push(normalized);
	};
	const next = (): string | undefined => {
		for (let closeness = waiting.length - 1; closeness >= 0; closeness--) if (waiting[closeness]?.length) return waiting[closeness].shift();
		return undefined;
	};

	while (crawled < opts.maxPages && pages.length < maxAttempts) {
		const url = next();
		if (url === undefined) break;
		let page: CrawledPage;
		try {
			const content = await fetchPageContent(url, opts, true);
			const finalUrl = normalizePageUrl(content.finalUrl) ?? content.finalUrl;
			if (finalUrl !== url && pages.some(p => p.status === "crawled" && p.url === finalUrl)) continue;
			// A start page that redirects (http → https, bare → www) moves the site to its new origin.
			if (crawled === 0) origins.add(new URL(finalUrl).origin);
			if (url === start) section = sectionOf(finalUrl);
			seen.add(finalUrl);
			page = { url: finalUrl, status: "crawled", title: content.title, text: content.text, charCount: content.charCount };
			crawled++;
			for (const link of content.links) enqueue(link);
		} catch (err) {
			const reason = fetchFailureReason(err);
			if (reason === undefined) throw err;
			page = { url, status: "failed", reason };
			failed++;
		}
		pages.push(page);
		if (!sitemapLoaded) {
			// After the start page, so the sitemap is read from the site's final origin.
			sitemapLoaded = true;
			for (const origin of origins) for (const loc of await sitemapUrls(origin, opts)) enqueue(loc);
		}
		await opts.onPage?.(page, { crawled, failed, found: seen.size, maxPages: opts.maxPages });
	}
	return { pages, found: seen.size };
}
