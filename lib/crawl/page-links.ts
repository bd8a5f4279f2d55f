/**
 * Links a crawl follows: the canonical form of a page URL, the same-origin links of an HTML page,
 * and the `<loc>` entries of a sitemap. Pure functions over text, run in the text worker
 * (lib/workers/text-tasks.ts) because a page or sitemap can be megabytes long.
 */
import type { DOMParser as LinkedomParser } from "linkedom";

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
	const doc = new (domParser())().parseFromString(html, "text/html") as unknown as Document;
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

/**
 * `<loc>` entries of a sitemap (a urlset; nested sitemap indexes are not followed), trimmed and with
 * XML's predefined entities decoded. An entry holding markup (a CDATA section, a comment) is skipped.
 *
 * Found by searching for the literal tags, which reads the document once; a pattern with white
 * space on both sides of a lazy capture, `<loc>\s*([^<]+?)\s*<\/loc>`, is cubic on a long run of
 * spaces inside an unclosed `<loc>`.
 */
export function parseSitemap(xml: string): string[] {
	const locs: string[] = [];
	const opening = /<loc>/gi;
	const closing = /<\/loc>/gi;
	for (let open = opening.exec(xml); open; open = opening.exec(xml)) {
		const start = opening.lastIndex;
		// The closing tag found for an earlier entry is still the first one after this one's start.
		if (closing.lastIndex < start) closing.lastIndex = start;
		const close = closing.exec(xml);
		if (!close) break;
		closing.lastIndex = close.index;
		const value = xml.slice(start, close.index);
		if (value.includes("<")) continue;
		const loc = decodeXmlEntities(value.trim());
		if (loc) locs.push(loc);
	}
	return locs;
}

function decodeXmlEntities(text: string): string {
	return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");
}

/** linkedom, required at the first page parsed: an idle process need not hold it. */
function domParser(): typeof LinkedomParser {
	return (require("linkedom") as { DOMParser: typeof LinkedomParser }).DOMParser;
}
