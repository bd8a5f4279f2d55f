/**
 * The site-wide documents: llms.txt and llms-full.txt in the llmstxt.org format, the sitemap as
 * well-formed, namespace-correct XML with hreflang alternates, the designed 404, and the two
 * hand-designed pages in both representations.
 */
import { SaxesParser, SaxesTagNS } from "saxes";
import { defaultDocsCatalog, markdownSource } from "../../lib/site/docs-catalog";
import { llmsFullTxt, llmsTxt } from "../../lib/site/llms-txt";
import { notFoundHtml, notFoundMarkdown } from "../../lib/site/not-found";
import { developersPage, homePage } from "../../lib/site/pages";
import { LOCALES, parseSitePath } from "../../lib/site/site-paths";
import { sitemapXml, sitePaths } from "../../lib/site/sitemap";
import { linkProblem, markdownLinks } from "../helpers/site-links";

const BASE = "https://bots.example.test";
const catalog = defaultDocsCatalog();
const SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9";
const XHTML_NS = "http://www.w3.org/1999/xhtml";

describe("llms.txt", () => {
	const text = llmsTxt(BASE);
	const lines = text.split("\n");

	test("follows the llmstxt.org structure: one H1, a summary blockquote, prose, then H2 sections of link lists", () => {
		expect(lines[0]).toMatch(/^# \S/);
		expect(lines.filter(l => l.startsWith("# "))).toHaveLength(1);
		const firstContent = lines.slice(1).findIndex(l => l.trim() !== "") + 1;
		expect(lines[firstContent]).toMatch(/^> \S.{40,}/);

		const firstSection = lines.findIndex(l => l.startsWith("## "));
		expect(firstSection).toBeGreaterThan(firstContent);
		// Between the blockquote and the first section: paragraphs only, no headings or lists.
		for (const line of lines.slice(firstContent + 1, firstSection)) expect(line).not.toMatch(/^(#|- )/);

		const item = /^- \[([^\]]+)\]\((https?:\/\/[^)\s]+)\)(?:: (.+))?$/;
		for (const line of lines.slice(firstSection)) {
			if (line === "" || line.startsWith("## ")) continue;
			expect(line).toMatch(item);
		}
		const sections = lines.filter(l => l.startsWith("## ")).map(l => l.slice(3));
		expect(new Set(sections).size).toBe(sections.length);
		expect(sections[sections.length - 1]).toBe("Optional");
	});

	test("links every English doc page once, by its Markdown URL, and every machine document", () => {
		const links = markdownLinks(text);
		for (const { doc } of catalog.list("en")) {
			const url = `${BASE}/docs/${doc.category}/${doc.slug}.md`;
			expect({ url, times: links.filter(l => l === url).length }).toEqual({ url, times: 1 });
		}
		for (const path of ["/api", "/openapi.json", "/openapi.yaml", "/.well-known/mcp.json", "/.well-known/mcp/server-card.json", "/.well-known/mcp", "/llms-full.txt", "/sitemap.xml"]) {
			expect(links).toContain(`${BASE}${path}`);
		}
	});

	test("every link resolves to a served page or document", () => {
		const problems = markdownLinks(text)
			.map(href => [href, linkProblem(href.replace(/\.md$/, ""), BASE, catalog)])
			.filter(([, problem]) => problem);
		expect(problems).toEqual([]);
		for (const href of markdownLinks(text).filter(h => h.endsWith(".md"))) {
			expect(parseSitePath(new URL(href).pathname)).toMatchObject({ kind: "doc", markdown: true });
		}
	});

	test("has no placeholders left", () => {
		expect(text).not.toMatch(/\{\{\s*\w+\s*\}\}/);
	});
});

describe("llms-full.txt", () => {
	const text = llmsFullTxt(BASE);

	test("concatenates every English page, headed by its title and source URL, front matter stripped", () => {
		let cursor = 0;
		for (const { doc } of catalog.list("en")) {
			const header = `# ${doc.title}\n\nSource: ${BASE}/docs/${doc.category}/${doc.slug}.md\n`;
			const at = text.indexOf(header, cursor);
			expect({ page: doc.file, found: at >= 0 }).toEqual({ page: doc.file, found: true });
			cursor = at + header.length;
			// The page's body follows its header (its own H1 is replaced by the header).
			const bodyStart = markdownSource(doc, BASE).split("\n").slice(2).find(l => l.trim() !== "") as string;
			expect(text.slice(cursor, cursor + 4000)).toContain(bodyStart);
		}
		expect(text).not.toMatch(/^(title|slug|category|order): /m);
		expect(text).not.toMatch(/\{\{\s*\w+\s*\}\}/);
	});
});

interface XmlElement {
	uri: string;
	local: string;
	attributes: Record<string, string>;
	text: string;
	children: XmlElement[];
}

/** A strict, namespace-aware parse: saxes throws on any well-formedness or namespace error. */
function parseXml(xml: string): XmlElement {
	const parser = new SaxesParser({ xmlns: true });
	const stack: XmlElement[] = [];
	let root: XmlElement | undefined;
	parser.on("opentag", (tag: SaxesTagNS) => {
		const attributes: Record<string, string> = {};
		for (const attr of Object.values(tag.attributes)) attributes[attr.name] = attr.value;
		const element: XmlElement = { uri: tag.uri, local: tag.local, attributes, text: "", children: [] };
		if (stack.length > 0) stack[stack.length - 1].children.push(element);
		else root = element;
		stack.push(element);
	});
	parser.on("text", text => {
		if (stack.length > 0) stack[stack.length - 1].text += text;
	});
	parser.on("closetag", () => {
		stack.pop();
	});
	parser.write(xml).close();
	if (!root) throw new Error("no root element");
	return root;
}

describe("sitemap.xml", () => {
	const xml = sitemapXml(BASE);

	test("is well-formed XML in the sitemap namespace", () => {
		expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
		const root = parseXml(xml);
		expect([root.uri, root.local]).toEqual([SITEMAP_NS, "urlset"]);
		expect(root.children.every(c => c.uri === SITEMAP_NS && c.local === "url")).toBe(true);
		expect(() => parseXml(xml.replace("</urlset>", ""))).toThrow();
	});

	test("lists every site and doc page in English and Spanish, each with en, es and x-default alternates", () => {
		const root = parseXml(xml);
		const expected = sitePaths().flatMap(p => LOCALES.map(l => `${BASE}${l === "es" ? (p === "/" ? "/es" : `/es${p}`) : p}`));
		const locs = root.children.map(url => url.children.find(c => c.local === "loc")?.text);
		expect(locs.sort()).toEqual([...expected].sort());
		expect(sitePaths()).toEqual(expect.arrayContaining(["/", "/developers", "/docs", "/docs/reference/errors"]));

		for (const url of root.children) {
			const loc = url.children.find(c => c.local === "loc")!.text;
			const links = url.children.filter(c => c.uri === XHTML_NS && c.local === "link");
			const byLang = Object.fromEntries(links.map(l => [l.attributes.hreflang, l.attributes.href]));
			expect(links.every(l => l.attributes.rel === "alternate")).toBe(true);
			expect(Object.keys(byLang).sort()).toEqual(["en", "es", "x-default"]);
			expect(Object.values(byLang)).toContain(loc);
			expect(byLang["x-default"]).toBe(byLang.en);
			expect(byLang.es).toBe(byLang.en === BASE + "/" ? `${BASE}/es` : byLang.en.replace(BASE, `${BASE}/es`));
		}
	});

	test("every listed URL names a page that answers (docs exist, in either language)", () => {
		const root = parseXml(xml);
		for (const url of root.children) {
			const loc = url.children.find(c => c.local === "loc")!.text;
			expect({ loc, problem: linkProblem(loc, BASE, catalog) }).toEqual({ loc, problem: undefined });
		}
	});

	test("escapes the base URL as XML", () => {
		const tricky = sitemapXml("https://a.test/x?y=1&z=2");
		expect(() => parseXml(tricky)).not.toThrow();
		expect(tricky).toContain("https://a.test/x?y=1&amp;z=2/developers");
	});
});

describe("the designed 404", () => {
	test("HTML shares the site layout, escapes the path and stays out of search indexes", () => {
		const html = notFoundHtml(BASE, '/nope/<script>alert("x")</script>');
		expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
		expect(html).toContain("Page not found");
		expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
		expect(html).not.toContain("<script>");
		expect(html).toContain('<meta name="robots" content="noindex">');
		expect(html).toContain('<header class="site">');
		expect(html).toContain('<footer class="site">');
		for (const target of ["/sitemap.xml", "/llms.txt", "/docs", "/developers"]) expect(html).toContain(`href="${BASE}${target}"`);
		expect(html).not.toContain('rel="canonical"');
	});

	test("a path under /es gets the Spanish page and Spanish links", () => {
		const html = notFoundHtml(BASE, "/es/docs/nada");
		expect(html).toContain('<html lang="es">');
		expect(html).toContain("Página no encontrada");
		expect(html).toContain(`href="${BASE}/es/docs"`);
		expect(html).toContain(`href="${BASE}/sitemap.xml"`);
	});

	test("Markdown names the path and points at the sitemap, llms.txt, the docs and the developer page", () => {
		const md = notFoundMarkdown(BASE, "/missing");
		expect(md.split("\n")[0]).toBe("# Page not found");
		expect(md).toContain("`/missing`");
		expect(markdownLinks(md)).toEqual([`${BASE}/sitemap.xml`, `${BASE}/llms.txt`, `${BASE}/docs`, `${BASE}/developers`]);
		expect(markdownLinks(notFoundMarkdown(BASE, "/es/x"))).toEqual([`${BASE}/sitemap.xml`, `${BASE}/llms.txt`, `${BASE}/es/docs`, `${BASE}/es/developers`]);
	});
});

describe("the home and developer pages", () => {
	test("exist in both languages as HTML in the layout and as Markdown saying the same", () => {
		for (const locale of LOCALES) {
			for (const [page, path] of [
				[homePage(locale, BASE), "/"],
				[developersPage(locale, BASE), "/developers"]
			] as const) {
				expect(page.html).toContain(`<html lang="${locale}">`);
				const own = `${BASE}${locale === "es" ? (path === "/" ? "/es" : `/es${path}`) : path}`;
				expect(page.html).toContain(`<link rel="canonical" href="${own}">`);
				expect(page.html).toContain('hreflang="x-default"');
				expect(page.markdown.split("\n")[0]).toBe(`# ${page.html.match(/<h1>(.*?)<\/h1>/)?.[1]}`);
				for (const href of markdownLinks(page.markdown)) expect(page.html).toContain(`href="${href}"`);
			}
		}
	});

	test("the developer page lists the seven demo operations with their docs, and the MCP connection", () => {
		for (const locale of LOCALES) {
			const page = developersPage(locale, BASE);
			for (const id of ["createDemoSession", "getDemoSession", "addDemoSessionUrl", "addDemoSessionText", "createDemoSessionUpload", "addDemoSessionFile", "trainDemoSession"]) {
				expect(page.markdown).toContain(`[\`${id}\`]`);
				expect(page.html).toContain(`<code>${id}</code>`);
			}
			expect(page.markdown).toContain(`"url": "${BASE}/mcp"`);
			expect(page.markdown).toContain("cbk_live_");
			for (const path of ["/openapi.json", "/api", "/llms.txt"]) expect(page.markdown).toContain(`](${BASE}${path})`);
		}
	});

	test("the home page shows a runnable demo against the configured base URL", () => {
		const page = homePage("en", BASE);
		expect(page.markdown).toContain("```bash\n");
		expect(page.markdown).toContain(`curl -s -X POST ${BASE}/api/tools/sessions`);
		expect(page.html).toContain(`curl -s -X POST ${BASE}/api/tools/sessions`);
		expect(page.html).toContain(`href="${BASE}/account/signup"`);
	});
});
