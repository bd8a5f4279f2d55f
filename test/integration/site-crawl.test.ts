/**
 * Site crawl against a real loopback website: eight linked pages, a sitemap, robots.txt, a broken
 * page, a file link and an external link (another origin, which must never be fetched).
 * Static fetching only (no renderer): the crawl logic is the subject here, not rendering.
 */
import { CrawlOptions } from "../../lib/crawl/fetch-page";
import { CrawledPage, CrawlProgress, crawlSite } from "../../lib/crawl/site-crawl";
import { html, LoopbackSite, startSite, typed } from "../helpers/loopback-site";

let site: LoopbackSite;
let external: LoopbackSite;

const opts: CrawlOptions = {
	allowPrivate: true,
	timeoutMs: 5000,
	maxBytes: 1_000_000,
	maxRedirects: 3,
	userAgent: "ChatbotBuilderBot/1.0 (+http://localhost/docs/guides/crawler)"
};

function page(title: string, fact: string, links: string[]): string {
	const nav = links.map(href => `<a href="${href}">${href}</a>`).join(" ");
	return `<!doctype html><html><head><title>${title}</title></head><body><nav>${nav}</nav><main><h1>${title}</h1><p>${fact}</p></main></body></html>`;
}

beforeAll(async () => {
	external = await startSite({ "/": html(page("Elsewhere", "Another site entirely.", [])) });
	const ext = `${external.origin}/`;
	site = await startSite({
		"/robots.txt": typed("text/plain", "User-agent: *\nDisallow: /p6\n"),
		"/sitemap.xml": (_req, res) => {
			res.writeHead(200, { "content-type": "application/xml" });
			res.end(
				`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
					`<url><loc>${site.origin}/p8?lang=en&amp;v=2</loc></url><url><loc>${site.origin}/p1</loc></url><url><loc>${ext}sitemap-only</loc></url></urlset>`
			);
		},
		"/": html(page("Home", "Zephyr makes kettles.", ["/broken", "/p1", "/p1#reviews", "/p2", "/p3", "/p4", "/manual.pdf", ext, "mailto:help@zephyr.test"])),
		"/broken": html("<p>Internal error</p>", 500),
		"/p1": html(page("Page 1", "The Zephyr-9 kettle warranty lasts 37 months.", ["/", "/p2"])),
		"/p2": html(page("Page 2", "Descale every 11 weeks.", ["/p5", "/p6", "/p7"])),
		"/p3": html(page("Page 3", "The help desk is in Tromsø.", ["/"])),
		"/p4": html(page("Page 4", "Aurora kettles: 4,812 units.", [])),
		"/p5": html(page("Page 5", "Lids cost 14 euros.", [])),
		"/p6": html(page("Page 6", "Disallowed by robots.txt.", [])),
		"/p7": html(page("Page 7", "Cords are 75 cm long.", [])),
		"/p8": html(page("Page 8", "Only the sitemap links here.", []))
	});
});

afterAll(async () => {
	await Promise.all([site?.stop(), external?.stop()]);
});

const pathOf = (p: CrawledPage) => new URL(p.url).pathname + new URL(p.url).search;

it("crawls exactly the budget of same-origin pages, breadth first, and reports failures", async () => {
	const progress: CrawlProgress[] = [];
	const result = await crawlSite(`${site.origin}/`, { ...opts, maxPages: 5, onPage: (_page, p) => void progress.push({ ...p }) });

	const crawled = result.pages.filter(p => p.status === "crawled");
	expect(crawled).toHaveLength(5);
	expect(crawled.map(pathOf)).toEqual(["/", "/p1", "/p2", "/p3", "/p4"]);
	for (const p of crawled) {
		expect(new URL(p.url).origin).toBe(site.origin);
		expect(p.charCount).toBe(p.text?.length);
		expect(p.title).toBeTruthy();
	}
	expect(crawled[1].text).toContain("37 months");

	expect(result.pages.filter(p => p.status === "failed")).toEqual([{ url: `${site.origin}/broken`, status: "failed", reason: "http_status" }]);
	expect(progress.map(p => p.crawled)).toEqual([1, 1, 2, 3, 4, 5]);
	expect(progress.at(-1)).toMatchObject({ crawled: 5, failed: 1, maxPages: 5 });
	expect(result.found).toBeGreaterThanOrEqual(7);

	expect(external.hits).toEqual([]);
	expect(site.hits).not.toContain("/manual.pdf");
	// The fragment link did not cause a second fetch of /p1.
	expect(site.hits.filter(h => h === "/p1")).toHaveLength(1);
});

it("with room to spare, follows deeper links and the sitemap and respects robots.txt", async () => {
	const before = site.hits.length;
	const result = await crawlSite(`${site.origin}/`, { ...opts, maxPages: 20 });
	const byStatus = (status: string) => result.pages.filter(p => p.status === status).map(pathOf);

	expect(byStatus("crawled").sort()).toEqual(["/", "/p1", "/p2", "/p3", "/p4", "/p5", "/p7", "/p8?lang=en&v=2"].sort());
	expect(result.pages.filter(p => p.status === "failed").map(p => [pathOf(p), p.reason])).toEqual(
		expect.arrayContaining([
			["/broken", "http_status"],
			["/p6", "robots_disallowed"]
		])
	);
	const hitsThisRun = site.hits.slice(before);
	expect(hitsThisRun).not.toContain("/p6");
	expect(hitsThisRun.filter(h => h === "/robots.txt")).toHaveLength(1);
	expect(external.hits).toEqual([]);
	// Every discovered same-origin page: 8 crawled, /broken and /p6.
	expect(result.found).toBe(10);
});

it("reports a failing start page and still crawls what the sitemap lists", async () => {
	const result = await crawlSite(`${site.origin}/broken`, { ...opts, maxPages: 2 });
	expect(result.pages.map(p => [pathOf(p), p.status, p.reason])).toEqual([
		["/broken", "failed", "http_status"],
		["/p8?lang=en&v=2", "crawled", undefined],
		["/p1", "crawled", undefined]
	]);
});

it("reports a start URL the guard refuses without fetching anything", async () => {
	const before = site.hits.length;
	const result = await crawlSite(`${site.origin}/`, { ...opts, allowPrivate: false, maxPages: 5 });
	expect(result.pages).toEqual([{ url: `${site.origin}/`, status: "failed", reason: "blocked_address" }]);
	expect(site.hits.length).toBe(before);
});

it("crawls the start page's section first: the pages beside and under it, then the rest of the site breadth first", async () => {
	const docs = await startSite({
		"/": html(page("Home", "Zephyr makes kettles.", ["/pricing", "/docs/guides/widget"])),
		// The header's links come first on every page, as on most sites; the section's pages after them.
		"/docs/guides/widget": html(
			page("Widget", "Paste one tag.", ["/", "/pricing", "/blog/launch", "/docs/api/chat", "/docs/guides/crawler", "/docs/guides/files/pdf", "/docs/guides/files"])
		),
		"/docs/guides": (_req, res) => {
			res.writeHead(301, { location: "/docs/guides/" });
			res.end();
		},
		"/docs/guides/": html(page("Guides", "Every guide.", ["/pricing", "/docs/api/chat", "/docs/guides/widget", "/docs/guides/crawler"])),
		"/pricing": html(page("Pricing", "Free and Pro.", [])),
		"/blog/launch": html(page("Launch", "We launched.", [])),
		"/docs/api/chat": html(page("Chat API", "POST a message.", [])),
		"/docs/guides/crawler": html(page("Crawler", "It reads pages.", [])),
		"/docs/guides/files": html(page("Files", "PDF and Word.", ["/", "/docs/guides/widget", "/docs/guides/files/pdf"])),
		"/docs/guides/files/pdf": html(page("PDF", "Text layers.", []))
	});
	try {
		const paths = async (start: string, maxPages: number) =>
			(await crawlSite(`${docs.origin}${start}`, { ...opts, maxPages })).pages.filter(p => p.status === "crawled").map(pathOf);
		// In found order within the section, then the docs outside it, then the rest.
		expect(await paths("/docs/guides/widget", 5)).toEqual(["/docs/guides/widget", "/docs/guides/crawler", "/docs/guides/files/pdf", "/docs/guides/files", "/docs/api/chat"]);
		expect(await paths("/docs/guides/widget", 7)).toEqual([
			"/docs/guides/widget",
			"/docs/guides/crawler",
			"/docs/guides/files/pdf",
			"/docs/guides/files",
			"/docs/api/chat",
			"/",
			"/pricing"
		]);
		// The pages under the start page come first too (here after a redirect to /docs/guides/).
		expect(await paths("/docs/guides", 3)).toEqual(["/docs/guides/", "/docs/guides/widget", "/docs/guides/crawler"]);
		expect(await paths("/docs/guides/files", 3)).toEqual(["/docs/guides/files", "/docs/guides/files/pdf", "/docs/guides/widget"]);
		// From the site's root, every page is as close: breadth first, as found.
		expect(await paths("/", 3)).toEqual(["/", "/pricing", "/docs/guides/widget"]);
	} finally {
		await docs.stop();
	}
});
