/**
 * The documentation set and its rendering: every source loads with valid front matter, pages are
 * unique, Spanish falls back to English, the base URL is substituted, every internal link (and
 * anchor) resolves, and the renderer refuses to pass raw HTML through.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ERROR_CODES } from "../../lib/errors";
import { parseDocSource, splitFrontMatter, stripFrontMatter } from "../../lib/site/front-matter";
import {
	BASE_URL_PLACEHOLDER,
	CATEGORIES,
	DEFAULT_DOCS_DIR,
	defaultDocsCatalog,
	loadDocsCatalog,
	markdownSource
} from "../../lib/site/docs-catalog";
import { docMarkdown, docsIndexPage, docsPage, developersPage, homePage } from "../../lib/site/pages";
import { renderInlineMarkdown, renderMarkdown, slugifyHeading } from "../../lib/site/render-markdown";
import { LOCALES, parseSitePath } from "../../lib/site/site-paths";
import { linkProblem, markdownLinks } from "../helpers/site-links";

const BASE = "https://bots.example.test";
const catalog = defaultDocsCatalog();

function markdownFilesUnder(dir: string): string[] {
	return fs
		.readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter(e => e.isFile() && e.name.endsWith(".md"))
		.map(e => path.join(e.parentPath, e.name));
}

describe("the documentation catalog", () => {
	test("loads every Markdown file under docs/, each with complete front matter", () => {
		const files = markdownFilesUnder(DEFAULT_DOCS_DIR);
		const loaded = LOCALES.flatMap(locale => catalog.written(locale));
		expect(loaded).toHaveLength(files.length);
		for (const file of files) {
			const { meta } = parseDocSource(fs.readFileSync(file, "utf8"), file);
			expect(meta.title.length).toBeGreaterThan(3);
			expect(meta.description.length).toBeGreaterThan(20);
			expect(CATEGORIES.map(c => c.id)).toContain(meta.category);
			expect(Number.isFinite(meta.order)).toBe(true);
		}
	});

	test("category/slug pairs are unique per locale and every page opens with its title as the H1", () => {
		for (const locale of LOCALES) {
			const pages = catalog.written(locale);
			const keys = pages.map(p => `${p.category}/${p.slug}`);
			expect(new Set(keys).size).toBe(keys.length);
			for (const page of pages) expect(page.body.split("\n")[0]).toBe(`# ${page.title}`);
		}
	});

	test("holds the pages the site promises, and the Spanish translations of the key pages", () => {
		const english = catalog.written("en").map(p => `${p.category}/${p.slug}`);
		const required = [
			"getting-started/quickstart-demo-api",
			"getting-started/quickstart-mcp",
			...["create-session", "get-session", "add-url", "add-text", "create-upload", "add-file", "train-session", "chat", "discovery", "health"].map(s => `api/${s}`),
			"mcp/overview",
			"mcp/tools",
			"mcp/sandbox-and-claiming",
			...["errors", "rate-limits", "versioning", "limits", "authentication"].map(s => `reference/${s}`),
			...["widget", "channels", "crawler", "files"].map(s => `guides/${s}`)
		];
		expect(english).toEqual(expect.arrayContaining(required));
		const spanish = catalog.written("es").map(p => `${p.category}/${p.slug}`);
		expect(spanish).toEqual(
			expect.arrayContaining(["getting-started/quickstart-demo-api", "getting-started/quickstart-mcp", "mcp/overview", "reference/errors", "reference/limits"])
		);
	});

	test("Spanish falls back to English page by page; unknown pages are undefined", () => {
		const translated = catalog.getDoc("es", "reference", "errors");
		expect(translated?.fellBack).toBe(false);
		expect(translated?.doc.locale).toBe("es");

		const untranslated = catalog.written("en").find(p => !catalog.exact("es", p.category, p.slug));
		expect(untranslated).toBeDefined();
		const fallback = catalog.getDoc("es", untranslated!.category, untranslated!.slug);
		expect(fallback).toEqual({ doc: untranslated, fellBack: true });

		expect(catalog.getDoc("en", "reference", "errors")?.fellBack).toBe(false);
		expect(catalog.getDoc("en", "reference", "no-such-page")).toBeUndefined();
		expect(catalog.getDoc("es", "reference", "no-such-page")).toBeUndefined();
		// Every English page answers in Spanish too, so the Spanish list is as long as the English one.
		expect(catalog.list("es")).toHaveLength(catalog.written("en").length);
	});

	test("markdownSource strips front matter and substitutes the base URL everywhere", () => {
		for (const locale of LOCALES) {
			for (const { doc } of catalog.list(locale)) {
				const md = markdownSource(doc, `${BASE}/`);
				expect(md.startsWith("---")).toBe(false);
				expect(md).not.toContain(BASE_URL_PLACEHOLDER);
				expect(md).not.toMatch(/\{\{\s*\w+\s*\}\}/);
				expect(md).not.toContain(`${BASE}//`);
			}
		}
		const quickstart = catalog.getDoc("en", "getting-started", "quickstart-demo-api")!.doc;
		expect(quickstart.body).toContain(`${BASE_URL_PLACEHOLDER}/api/tools/sessions`);
		expect(markdownSource(quickstart, BASE)).toContain(`curl -s -X POST ${BASE}/api/tools/sessions`);
	});

	test("every link in every page, in both languages, resolves to a real page and heading", () => {
		const problems: string[] = [];
		let checked = 0;
		for (const locale of LOCALES) {
			for (const { doc } of catalog.list(locale)) {
				const current = { locale, category: doc.category, slug: doc.slug };
				for (const href of markdownLinks(markdownSource(doc, BASE))) {
					checked++;
					const problem = linkProblem(href, BASE, catalog, current);
					if (problem) problems.push(`${locale}:${doc.file}: ${href}: ${problem}`);
				}
			}
			for (const page of [homePage(locale, BASE), developersPage(locale, BASE), docsIndexPage(locale, BASE)]) {
				for (const href of markdownLinks(page.markdown)) {
					checked++;
					const problem = linkProblem(href, BASE, catalog);
					if (problem) problems.push(`${locale}:${page.title}: ${href}: ${problem}`);
				}
			}
		}
		expect(problems).toEqual([]);
		expect(checked).toBeGreaterThan(150);
	});

	test("no page renders a numbered list that does not start at 1: a figure wrapped to the start of a line inside a list item", () => {
		// marked opens a list at "140. The…" continuing a list item's paragraph, where CommonMark would not.
		const strays: string[] = [];
		for (const locale of LOCALES) {
			for (const { doc } of catalog.list(locale)) {
				const { html } = renderMarkdown(markdownSource(doc, BASE));
				for (const match of html.matchAll(/<ol start="(\d+)"/g)) if (match[1] !== "1") strays.push(`${locale}:${doc.file}: list starting at ${match[1]}`);
			}
		}
		expect(strays).toEqual([]);
		expect(renderMarkdown("- five-fold cross-validation 139 against\n  140. The linear ranker").html).toContain('<ol start="140"');
	});

	test("the link checker itself catches broken pages, anchors and relative links", () => {
		expect(linkProblem(`${BASE}/docs/reference/errors#expired`, BASE, catalog)).toBeUndefined();
		expect(linkProblem(`${BASE}/docs/reference/errors#no-such-code`, BASE, catalog)).toMatch(/no heading/);
		expect(linkProblem(`${BASE}/docs/reference/nope`, BASE, catalog)).toMatch(/no such doc/);
		expect(linkProblem(`${BASE}/nowhere`, BASE, catalog)).toMatch(/no such page/);
		expect(linkProblem("/docs/reference/errors", BASE, catalog)).toMatch(/relative/);
		expect(markdownLinks("[a](https://x.test/a) `[b](https://x.test/b)`\n\n```\n[c](https://x.test/c)\n```\n| [d](https://x.test/d) |\n|---|\n| [e](https://x.test/e) |")).toEqual([
			"https://x.test/a",
			"https://x.test/d",
			"https://x.test/e"
		]);
	});

	test("the errors page has a section, with the right status, for every error code, in English and Spanish", () => {
		for (const locale of LOCALES) {
			const { doc } = catalog.getDoc(locale, "reference", "errors")!;
			const md = markdownSource(doc, BASE);
			const ids = new Set(renderMarkdown(md).headings.map(h => h.id));
			for (const [code, { status }] of Object.entries(ERROR_CODES)) {
				expect({ locale, code, present: ids.has(code) }).toEqual({ locale, code, present: true });
				const section = md.split(`### \`${code}\``)[1]?.split("\n### ")[0] ?? "";
				expect({ locale, code, status: /\*\*(\d{3})\*\*/.exec(section)?.[1] }).toEqual({ locale, code, status: String(status) });
			}
		}
	});
});

describe("loading a documentation directory", () => {
	let dir: string;
	const write = (rel: string, text: string) => {
		fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
		fs.writeFileSync(path.join(dir, rel), text);
	};
	const page = (category: string, slug: string, title = "A page", extra = "") =>
		`---\ntitle: "${title}"\ndescription: "What this page is about, in a sentence."\ncategory: ${category}\nslug: ${slug}\norder: 1\n${extra}---\n# ${title}\n\nBody of ${slug} at {{base_url}}.\n`;

	beforeEach(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-"));
	});
	afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

	test("indexes by locale, category and slug, with fallback and navigation order", () => {
		write("en/guides/b.md", page("guides", "b", "Bee"));
		write("en/guides/a.md", page("guides", "a", "Ay").replace("order: 1", "order: 0"));
		write("en/reference/errors.md", page("reference", "errors", "Errors"));
		write("es/guides/a.md", page("guides", "a", "A en español").replace("order: 1", "order: 0"));
		const local = loadDocsCatalog(dir);
		expect(local.getDoc("es", "guides", "a")).toMatchObject({ fellBack: false, doc: { title: "A en español" } });
		expect(local.getDoc("es", "guides", "b")).toMatchObject({ fellBack: true, doc: { title: "Bee", locale: "en" } });
		expect(local.nav("es").map(c => [c.id, c.pages.map(p => p.slug)])).toEqual([
			["reference", ["errors"]],
			["guides", ["a", "b"]]
		]);
		expect(local.nav("es")[1].pages[1].fellBack).toBe(true);
		expect(markdownSource(local.getDoc("en", "guides", "b")!.doc, "http://h.test")).toBe("# Bee\n\nBody of b at http://h.test.\n");
	});

	test("refuses a broken doc set, naming the file", () => {
		write("en/guides/a.md", page("guides", "a"));
		write("en/guides/copy.md", page("guides", "a"));
		expect(() => loadDocsCatalog(dir)).toThrow(/en\/guides\/copy\.md: front matter says guides\/a/);
	});

	test("refuses missing fields, unknown categories and orphan translations", () => {
		write("en/guides/a.md", page("guides", "a").replace(/title: .*\n/, ""));
		expect(() => loadDocsCatalog(dir)).toThrow(/en\/guides\/a\.md: front matter field "title"/);
		fs.rmSync(path.join(dir, "en"), { recursive: true });

		write("en/blog/a.md", page("blog", "a"));
		expect(() => loadDocsCatalog(dir)).toThrow(/unknown category "blog"/);
		fs.rmSync(path.join(dir, "en"), { recursive: true });

		write("es/guides/a.md", page("guides", "a"));
		expect(() => loadDocsCatalog(dir)).toThrow(/es\/guides\/a\.md: translated page guides\/a has no English original/);
	});
});

describe("front matter", () => {
	test("splits the YAML block from the body and keeps the body exactly", () => {
		const source = "---\ntitle: Hello\norder: 2\n---\n\n# Hello\n\n---\n\nA rule above is content.\n";
		expect(splitFrontMatter(source)).toEqual({ data: { title: "Hello", order: 2 }, body: "# Hello\n\n---\n\nA rule above is content.\n" });
		expect(stripFrontMatter("\uFEFF---\r\na: 1\r\n---\r\nbody\r\n")).toBe("body\r\n");
		expect(stripFrontMatter("# No front matter\n")).toBe("# No front matter\n");
		expect(() => splitFrontMatter("---\n- a list\n---\nbody")).toThrow(/mapping/);
	});
});

describe("rendering Markdown", () => {
	test("escapes raw HTML and drops script-scheme links", () => {
		const { html } = renderMarkdown('<script>alert(1)</script>\n\nText <img src=x onerror=alert(1)> [x](javascript:alert(1)) [y](https://ok.test "T")');
		expect(html).not.toMatch(/<script|<img/);
		expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
		expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
		expect(html).not.toContain("javascript:");
		expect(html).toContain('<a href="https://ok.test" title="T">y</a>');
		expect(renderInlineMarkdown("`a` <b>b</b> [c](vbscript:x)")).toBe("<code>a</code> &lt;b&gt;b&lt;/b&gt; c");
	});

	test("gives headings stable, unique ids that match the error anchors", () => {
		const { html, headings } = renderMarkdown("## `url_cap`\n\n## Límites y cuotas\n\n## Límites y cuotas\n\n### A & B");
		expect(headings.map(h => h.id)).toEqual(["url_cap", "limites-y-cuotas", "limites-y-cuotas-1", "a-b"]);
		expect(html).toContain('<h2 id="url_cap">');
		expect(slugifyHeading("Rate limits (per IP)")).toBe("rate-limits-per-ip");
	});

	test("wraps tables so they scroll on a phone", () => {
		expect(renderMarkdown("| a |\n|---|\n| 1 |").html).toMatch(/^<div class="table-wrap"><table>/);
	});
});

describe("documentation pages", () => {
	test("an English page: HTML in the layout with hreflang and a Markdown alternate, and its Markdown", () => {
		const page = docsPage("en", "api", "add-url", BASE)!;
		expect(page.fellBack).toBe(false);
		expect(page.html).toMatch(/^<!doctype html>\n<html lang="en">/);
		expect(page.html).toContain(`<link rel="alternate" hreflang="en" href="${BASE}/docs/api/add-url">`);
		expect(page.html).toContain(`<link rel="alternate" hreflang="es" href="${BASE}/es/docs/api/add-url">`);
		expect(page.html).toContain(`<link rel="alternate" hreflang="x-default" href="${BASE}/docs/api/add-url">`);
		expect(page.html).toContain(`<link rel="alternate" type="text/markdown" href="${BASE}/docs/api/add-url.md">`);
		expect(page.html).toContain('<a href="' + BASE + '/docs/api/add-url" aria-current="page">Add a URL</a>');
		expect(page.markdown).toBe(markdownSource(catalog.getDoc("en", "api", "add-url")!.doc, BASE));
		expect(docMarkdown("en", "api", "add-url", BASE)).toEqual({ markdown: page.markdown, fellBack: false });
		expect(page.html).not.toContain(BASE_URL_PLACEHOLDER);
	});

	test("an untranslated Spanish page says so and marks its content as English", () => {
		const untranslated = catalog.written("en").find(p => !catalog.exact("es", p.category, p.slug))!;
		const page = docsPage("es", untranslated.category, untranslated.slug, BASE)!;
		expect(page.fellBack).toBe(true);
		expect(page.html).toContain('<html lang="es">');
		expect(page.html).toContain('<article lang="en">');
		expect(page.html).toContain("todavía no está traducida");
		expect(page.html).toContain(`${BASE}/es/docs/${untranslated.category}/${untranslated.slug}.md`);
		expect(docMarkdown("es", untranslated.category, untranslated.slug, BASE)).toEqual({ markdown: page.markdown, fellBack: true });
	});

	test("a translated Spanish page is Spanish throughout; unknown pages are undefined", () => {
		const page = docsPage("es", "reference", "errors", BASE)!;
		expect(page.fellBack).toBe(false);
		expect(page.html).toContain('<article lang="es">');
		expect(page.html).not.toContain("todavía no está traducida");
		expect(docsPage("es", "reference", "nope", BASE)).toBeUndefined();
		expect(docMarkdown("es", "reference", "nope", BASE)).toBeUndefined();
		expect(docsPage("en", "nope", "errors", BASE)).toBeUndefined();
	});

	test("the docs index lists every page in both representations", () => {
		for (const locale of LOCALES) {
			const index = docsIndexPage(locale, BASE);
			for (const { doc } of catalog.list(locale)) {
				const url = `${BASE}${locale === "es" ? "/es" : ""}/docs/${doc.category}/${doc.slug}`;
				expect(index.markdown).toContain(`](${url})`);
				expect(index.html).toContain(`href="${url}"`);
			}
		}
	});

	test("site paths parse into the pages they name", () => {
		expect(parseSitePath("/")).toEqual({ kind: "home", locale: "en" });
		expect(parseSitePath("/es")).toEqual({ kind: "home", locale: "es" });
		expect(parseSitePath("/es/developers")).toEqual({ kind: "developers", locale: "es" });
		expect(parseSitePath("/docs/")).toEqual({ kind: "docs-index", locale: "en" });
		expect(parseSitePath("/es/docs/api/add-url.md")).toEqual({ kind: "doc", locale: "es", category: "api", slug: "add-url", markdown: true });
		expect(parseSitePath("/docs/api/add-url")).toEqual({ kind: "doc", locale: "en", category: "api", slug: "add-url", markdown: false });
		expect(parseSitePath("/docs/api")).toBeUndefined();
		expect(parseSitePath("/esx/docs")).toBeUndefined();
		expect(parseSitePath("/docs/../etc/passwd")).toBeUndefined();
	});
});
