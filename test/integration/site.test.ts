/**
 * The documentation site through the running app: every link of llms.txt and of the sitemap
 * answers 200, pages negotiate HTML and Markdown with `Vary: Accept`, `.md` sources are the
 * front-matter-free Markdown as text/plain, Spanish falls back to English page by page, and pages
 * that do not exist answer the negotiated 404 (never a 200, never a 400).
 */
import { defaultDocsCatalog, markdownSource } from "../../lib/site/docs-catalog";
import { developersPage, docsIndexPage, docsPage, homePage } from "../../lib/site/pages";
import { startApp, TestApp } from "../helpers/app";
import { markdownLinks } from "../helpers/site-links";

let app: TestApp;
const catalog = defaultDocsCatalog();
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

async function get(path: string, headers: Record<string, string> = {}) {
	const res = await fetch(path.startsWith("http") ? path : app.baseUrl + path, { headers });
	return { res, status: res.status, type: res.headers.get("content-type"), vary: res.headers.get("vary"), text: await res.text() };
}

beforeAll(async () => {
	app = await startApp({ env: { SERVICES: "gateway,discovery,chatbots" } });
});
afterAll(() => app.stop());

describe("every link the site indexes answers 200", () => {
	it("llms.txt", async () => {
		const links = markdownLinks((await get("/llms.txt")).text);
		const internal = links.filter(l => l.startsWith(`${app.baseUrl}/`));
		expect(internal.length).toBe(links.length);
		expect(internal.filter(l => l.endsWith(".md")).length).toBe(catalog.list("en").length);
		const failures: Array<[string, number]> = [];
		for (const url of new Set(internal)) {
			const { status } = await get(url);
			if (status !== 200) failures.push([url, status]);
		}
		expect(failures).toEqual([]);
	});

	it("the sitemap, locations and hreflang alternates", async () => {
		const xml = (await get("/sitemap.xml")).text;
		const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(m => m[1]);
		const alternates = [...xml.matchAll(/<xhtml:link rel="alternate" hreflang="[^"]+" href="([^"]+)"\/>/g)].map(m => m[1]);
		// Both languages of home, developers, docs index and every page.
		expect(locs.length).toBe(2 * (3 + catalog.list("en").length));
		expect(new Set(alternates)).toEqual(new Set(locs));
		const failures: Array<[string, number]> = [];
		for (const url of new Set(locs)) {
			const { status, type } = await get(url, { Accept: BROWSER });
			if (status !== 200 || !type?.startsWith("text/html")) failures.push([url, status]);
		}
		expect(failures).toEqual([]);
	});
});

describe("Markdown negotiation", () => {
	const base = () => app.baseUrl;
	const pages: Array<[string, () => { html: string; markdown: string }]> = [
		["/", () => homePage("en", base())],
		["/es", () => homePage("es", base())],
		["/developers", () => developersPage("en", base())],
		["/es/developers", () => developersPage("es", base())],
		["/docs", () => docsIndexPage("en", base())],
		["/es/docs", () => docsIndexPage("es", base())],
		["/docs/api/add-url", () => docsPage("en", "api", "add-url", base()) as { html: string; markdown: string }],
		["/es/docs/reference/errors", () => docsPage("es", "reference", "errors", base()) as { html: string; markdown: string }]
	];

	it.each(pages)("%s: HTML for browsers and by default, Markdown for Accept: text/markdown, always Vary: Accept", async (path, expected) => {
		const page = expected();
		for (const accept of [BROWSER, undefined, "*/*"]) {
			const html = await get(path, accept ? { Accept: accept } : {});
			expect([accept, html.status, html.type, html.vary]).toEqual([accept, 200, "text/html; charset=utf-8", "Accept"]);
			expect(html.text).toBe(page.html);
		}
		for (const accept of ["text/markdown", "text/markdown, text/html;q=0.5"]) {
			const md = await get(path, { Accept: accept });
			expect([accept, md.status, md.type, md.vary]).toEqual([accept, 200, "text/markdown; charset=utf-8", "Accept"]);
			expect(md.text).toBe(page.markdown);
		}
		// Each representation has its own tag, and a revalidation keeps Vary.
		const md = await get(path, { Accept: "text/markdown" });
		const html = await get(path, { Accept: BROWSER });
		expect(md.res.headers.get("etag")).not.toBe(html.res.headers.get("etag"));
		const revalidated = await get(path, { Accept: "text/markdown", "If-None-Match": md.res.headers.get("etag") as string });
		expect([revalidated.status, revalidated.vary, revalidated.text]).toEqual([304, "Accept", ""]);
	});
});

describe("Markdown sources", () => {
	it("/docs/{category}/{slug}.md is the page's source, front matter stripped, as text/plain", async () => {
		for (const { doc } of catalog.list("en")) {
			const { status, type, text } = await get(`/docs/${doc.category}/${doc.slug}.md`);
			expect([doc.slug, status, type]).toEqual([doc.slug, 200, "text/plain; charset=utf-8"]);
			expect(text).toBe(markdownSource(doc, app.baseUrl));
			expect(text.startsWith("---")).toBe(false);
			expect(text).not.toContain("{{base_url}}");
		}
	});

	it("the same source whatever the client accepts", async () => {
		const plain = await get("/docs/reference/errors.md");
		for (const accept of [BROWSER, "application/json", "text/markdown"]) {
			const other = await get("/docs/reference/errors.md", { Accept: accept });
			expect([accept, other.status, other.type, other.text === plain.text]).toEqual([accept, 200, "text/plain; charset=utf-8", true]);
		}
	});
});

describe("Spanish", () => {
	const untranslated = catalog.list("es").find(l => l.fellBack)?.doc;
	const translated = catalog.written("es")[0];

	it("has both translated and untranslated pages to test", () => {
		expect(untranslated).toBeDefined();
		expect(translated).toBeDefined();
	});

	it("an untranslated page answers 200 with the English text inside the Spanish site", async () => {
		const doc = untranslated as NonNullable<typeof untranslated>;
		const page = await get(`/es/docs/${doc.category}/${doc.slug}`, { Accept: BROWSER });
		expect(page.status).toBe(200);
		expect(page.text).toMatch(/<html lang="es"/);
		expect(page.text).toContain("todavía no está traducida");
		expect(page.text).toContain(`<article lang="en">`);
		const source = await get(`/es/docs/${doc.category}/${doc.slug}.md`);
		expect(source.status).toBe(200);
		expect(source.text).toBe((await get(`/docs/${doc.category}/${doc.slug}.md`)).text);
		const md = await get(`/es/docs/${doc.category}/${doc.slug}`, { Accept: "text/markdown" });
		expect(md.text).toBe(source.text);
	});

	it("a translated page answers in Spanish", async () => {
		const source = await get(`/es/docs/${translated.category}/${translated.slug}.md`);
		expect(source.status).toBe(200);
		expect(source.text).toBe(markdownSource(translated, app.baseUrl));
		expect(source.text).not.toBe((await get(`/docs/${translated.category}/${translated.slug}.md`)).text);
		const page = await get(`/es/docs/${translated.category}/${translated.slug}`, { Accept: BROWSER });
		expect(page.text).toContain(`<article lang="es">`);
		expect(page.text).not.toContain("todavía no está traducida");
	});
});

describe("pages that do not exist", () => {
	const missing = ["/docs/api/no-such-page", "/docs/no-such-category/errors", "/docs/api/Add_URL", "/docs/api/no-such-page.md", "/es/docs/api/no-such-page", "/es/docs/api/no-such-page.md"];

	it.each(missing)("%s answers the negotiated 404", async path => {
		const html = await get(path, { Accept: BROWSER });
		expect([html.status, html.type, html.vary]).toEqual([404, "text/html; charset=utf-8", "Accept"]);
		expect(html.text).toContain(path.startsWith("/es") ? "Página no encontrada" : "Page not found");
		expect(html.res.headers.get("etag")).toBeNull();

		const json = await get(path, { Accept: "application/json" });
		expect([json.status, json.type]).toEqual([404, "application/json; charset=utf-8"]);
		expect(JSON.parse(json.text)).toMatchObject({ ok: false, code: "not_found", status: 404, message: `Nothing lives at ${path}.` });

		for (const accept of [undefined, "*/*", "text/markdown"]) {
			const md = await get(path, accept ? { Accept: accept } : {});
			expect([accept, md.status, md.type]).toEqual([accept, 404, "text/markdown; charset=utf-8"]);
			expect(md.text).toContain("/sitemap.xml");
		}
	});

	it("the 404 a doc route gives is the one the gateway gives for paths nothing serves", async () => {
		for (const accept of [BROWSER, "application/json", "*/*"]) {
			const fromRoute = await get("/docs/api/no-such-page", { Accept: accept });
			const fromGateway = await get("/docs/api/no-such-page/deeper", { Accept: accept });
			expect([accept, fromRoute.status, fromRoute.type]).toEqual([accept, fromGateway.status, fromGateway.type]);
			expect(fromRoute.text.replace(/\/deeper/g, "")).toBe(fromGateway.text.replace(/\/deeper/g, ""));
		}
	});
});
