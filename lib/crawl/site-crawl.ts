/**
 * Crawls one site within a page budget: breadth first over same-origin links, seeded with the start
 * page and then the site's /sitemap.xml, one page at a time (polite to small sites, and a sandbox
 * budget is five pages anyway).
 *
 * The budget counts pages crawled successfully. Failed pages are reported with their reason but do
 * not use up the budget, so one broken link does not cost a page of content; a separate cap on
 * attempts (three per budgeted page by default) keeps a site full of broken links from running on.
 */
import { DOMParser } from "linkedom";
import { fetchFailureReason, FetchFailure } from "./fetch-failure";
import { fetchPage } from "./fetch-page";
import { FetchReadableOptions, fetchPageContent } from "./fetch-readable";
import { RobotsCache } from "./robots";

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

/** Links to these are files, not pages: not worth a fetch that would end in unsupported_content_type. */
const NON_PAGE_EXTENSIONS = new Set([
	"pdf", "png", "jpg", "jpeg", "gif", "webp", "svg", "ico", "bmp", "tif", "tiff", "avif", "zip", "gz", "tgz", "tar",
	"rar", "7z", "bz2", "xz", "exe", "dmg", "pkg", "deb", "rpm", "msi", "apk", "iso", "mp3", "mp4", "m4a", "wav", "ogg",
	"webm", "avi", "mov", "mkv", "woff", "woff2", "ttf", "otf", "eot", "css", "js", "mjs", "json", "xml", "rss", "atom",
	"csv", "xls", "xlsx", "doc", "docx", "ppt", "pptx", "odt", "ods", "odp", "epub"
]);

/** Canonical form used to tell pages apart: no fragment; everything else as the URL parser leaves it. */
export function normalizePageUrl(href: string, base?: string): string | undefined {
	let url: URL;
	try {
		url = new URL(href, base);
	} catch {
		return undefined;
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
	url.hash = "";
	const last = url.pathname.split("/").pop() ?? "";
	const dot = last.lastIndexOf(".");
	if (dot > 0 && NON_PAGE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase())) return undefined;
	return url.href;
}

/** Same-origin page links of an HTML document, in document order, honouring `<base href>`. */
export function extractLinks(html: string, pageUrl: string): string[] {
	const doc = new DOMParser().parseFromString(html, "text/html") as unknown as Document;
	const baseHref = doc.querySelector("base[href]")?.getAttribute("href");
	let base = pageUrl;
	if (baseHref) {
		try {
			base = new URL(baseHref, pageUrl).href;
		} catch {
			// An unusable <base> is ignored, as browsers do.
		}
	}
	const links: string[] = [];
	for (const anchor of Array.from(doc.querySelectorAll("a[href], area[href]"))) {
		const rel = (anchor.getAttribute("rel") ?? "").toLowerCase();
		if (rel.split(/\s+/).includes("nofollow")) continue;
		const normalized = normalizePageUrl(anchor.getAttribute("href") ?? "", base);
		if (normalized) links.push(normalized);
	}
	return links;
}

/** `<loc>` entries of a sitemap (a urlset; nested sitemap indexes are not followed). */
export function parseSitemap(xml: string): string[] {
	const locs: string[] = [];
	const pattern = /<loc>\s*([^<]+?)\s*<\/loc>/gi;
	for (let match = pattern.exec(xml); match; match = pattern.exec(xml)) {
		locs.push(
			match[1]
				.replace(/&lt;/g, "<")
				.replace(/&gt;/g, ">")
				.replace(/&quot;/g, '"')
				.replace(/&apos;/g, "'")
				.replace(/&amp;/g, "&")
		);
	}
	return locs;
}

async function sitemapUrls(origin: string, opts: CrawlSiteOptions): Promise<string[]> {
	try {
		const sitemap = await fetchPage(`${origin}/sitemap.xml`, { ...opts, accept: ["application/xml", "text/xml", "text/plain"] });
		return parseSitemap(sitemap.body);
	} catch (err) {
		// No sitemap (or an unusable one) is normal; the links of the pages still drive the crawl.
		if (fetchFailureReason(err) === undefined) throw err;
		return [];
	}
}

/** Crawls `startUrl`'s site breadth first within `maxPages`, reporting each page's outcome. */
export async function crawlSite(startUrl: string, options: CrawlSiteOptions): Promise<SiteCrawl> {
	// One robots cache for the whole crawl, so robots.txt is fetched once per origin.
	const opts: CrawlSiteOptions = { ...options, robots: options.robots ?? new RobotsCache(options) };
	const start = normalizePageUrl(startUrl);
	if (!start) return { pages: [{ url: startUrl, status: "failed", reason: "invalid_url" }], found: 0 };
	const origins = new Set([new URL(start).origin]);
	const seen = new Set<string>([start]);
	const queue: string[] = [start];
	const pages: CrawledPage[] = [];
	const maxAttempts = opts.maxAttempts ?? opts.maxPages * 3;
	let crawled = 0;
	let failed = 0;
	let sitemapLoaded = false;

	const enqueue = (url: string) => {
		const normalized = normalizePageUrl(url);
		if (!normalized || seen.has(normalized) || !origins.has(new URL(normalized).origin)) return;
		seen.add(normalized);
		queue.push(normalized);
	};

	while (queue.length > 0 && crawled < opts.maxPages && pages.length < maxAttempts) {
		const url = queue.shift() as string;
		let page: CrawledPage;
		try {
			const content = await fetchPageContent(url, opts);
			const finalUrl = normalizePageUrl(content.finalUrl) ?? content.finalUrl;
			if (finalUrl !== url && pages.some(p => p.status === "crawled" && p.url === finalUrl)) continue;
			// A start page that redirects (http → https, bare → www) moves the site to its new origin.
			if (crawled === 0) origins.add(new URL(finalUrl).origin);
			seen.add(finalUrl);
			page = { url: finalUrl, status: "crawled", title: content.title, text: content.text, charCount: content.charCount };
			crawled++;
			if (content.html) for (const link of extractLinks(content.html, content.finalUrl)) enqueue(link);
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
