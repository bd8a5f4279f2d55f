/**
 * The documentation set: Markdown files under `docs/<locale>/<category>/<slug>.md`, loaded once,
 * indexed by locale, category and slug. Spanish falls back to English page by page, so a page that is
 * not translated yet still answers (in English) instead of 404ing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseDocSource } from "./front-matter";
import { DEFAULT_LOCALE, LOCALES, Locale } from "./site-paths";

export const DEFAULT_DOCS_DIR = path.resolve(__dirname, "../../docs");

/** The placeholder the sources use for the service's public base URL, substituted at serve time. */
export const BASE_URL_PLACEHOLDER = "{{base_url}}";

/** Categories in navigation order, with their titles. A page in an unknown category fails the load. */
export const CATEGORIES: ReadonlyArray<{ id: string; title: Record<Locale, string> }> = [
	{ id: "getting-started", title: { en: "Getting started", es: "Primeros pasos" } },
	{ id: "api", title: { en: "Demo API and chat API", es: "API de demostración y API de chat" } },
	{ id: "mcp", title: { en: "MCP tool server", es: "Servidor de herramientas MCP" } },
	{ id: "reference", title: { en: "Reference", es: "Referencia" } },
	{ id: "guides", title: { en: "Guides", es: "Guías" } }
];

export interface DocPage {
	locale: Locale;
	category: string;
	slug: string;
	title: string;
	description: string;
	order: number;
	/** Markdown body with front matter removed and placeholders still in place. */
	body: string;
	/** The file it came from, for error messages. */
	file: string;
}

export interface DocLookup {
	doc: DocPage;
	/** True when Spanish was asked for and the English page is served instead. */
	fellBack: boolean;
}

export interface NavCategory {
	id: string;
	title: string;
	pages: Array<{ slug: string; title: string; description: string; fellBack: boolean }>;
}

const key = (category: string, slug: string) => `${category}/${slug}`;

export class DocsCatalog {
	private readonly byLocale = new Map<Locale, Map<string, DocPage>>();

	constructor(pages: DocPage[]) {
		for (const locale of LOCALES) this.byLocale.set(locale, new Map());
		for (const page of pages) {
			const index = this.byLocale.get(page.locale) as Map<string, DocPage>;
			const k = key(page.category, page.slug);
			const clash = index.get(k);
			if (clash) throw new Error(`${page.file}: ${page.locale} page ${k} is also declared by ${clash.file}`);
			index.set(k, page);
		}
		for (const locale of LOCALES) {
			if (locale === DEFAULT_LOCALE) continue;
			for (const page of this.byLocale.get(locale)?.values() ?? []) {
				// A translation without its English original would have no fallback twin and no x-default.
				if (!this.exact(DEFAULT_LOCALE, page.category, page.slug)) {
					throw new Error(`${page.file}: translated page ${key(page.category, page.slug)} has no English original`);
				}
			}
		}
	}

	/** The page in exactly this locale, without fallback. */
	exact(locale: Locale, category: string, slug: string): DocPage | undefined {
		return this.byLocale.get(locale)?.get(key(category, slug));
	}

	/** The page in this locale, else its English original (`fellBack: true`), else undefined. */
	getDoc(locale: Locale, category: string, slug: string): DocLookup | undefined {
		const own = this.exact(locale, category, slug);
		if (own) return { doc: own, fellBack: false };
		if (locale === DEFAULT_LOCALE) return undefined;
		const original = this.exact(DEFAULT_LOCALE, category, slug);
		return original ? { doc: original, fellBack: true } : undefined;
	}

	/** Every page that answers in this locale (own or fallback), in navigation order. */
	list(locale: Locale): DocLookup[] {
		const english = [...(this.byLocale.get(DEFAULT_LOCALE)?.values() ?? [])];
		return english
			.map(page => this.getDoc(locale, page.category, page.slug) as DocLookup)
			.sort((a, b) => compareNav(a.doc, b.doc));
	}

	/** Pages written in exactly this locale (no fallbacks). */
	written(locale: Locale): DocPage[] {
		return [...(this.byLocale.get(locale)?.values() ?? [])].sort(compareNav);
	}

	/** Navigation: categories in order, each with its pages in order. */
	nav(locale: Locale): NavCategory[] {
		const lookups = this.list(locale);
		return CATEGORIES.map(category => ({
			id: category.id,
			title: category.title[locale],
			pages: lookups
				.filter(l => l.doc.category === category.id)
				.map(l => ({ slug: l.doc.slug, title: l.doc.title, description: l.doc.description, fellBack: l.fellBack }))
		})).filter(c => c.pages.length > 0);
	}
}

function categoryRank(id: string): number {
	return CATEGORIES.findIndex(c => c.id === id);
}

function compareNav(a: DocPage, b: DocPage): number {
	return categoryRank(a.category) - categoryRank(b.category) || a.order - b.order || a.slug.localeCompare(b.slug);
}

function markdownFiles(dir: string): string[] {
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter(entry => entry.isFile() && entry.name.endsWith(".md"))
		.map(entry => path.join(entry.parentPath, entry.name))
		.sort();
}

/**
 * Reads every `<dir>/<locale>/**.md` file. The folder layout must agree with the front matter, so a
 * file's URL can be guessed from where it sits in the repository.
 */
export function loadDocsCatalog(dir: string = DEFAULT_DOCS_DIR): DocsCatalog {
	const pages: DocPage[] = [];
	for (const locale of LOCALES) {
		const root = path.join(dir, locale);
		for (const file of markdownFiles(root)) {
			const label = path.relative(dir, file);
			const { meta, body } = parseDocSource(fs.readFileSync(file, "utf8"), label);
			if (!CATEGORIES.some(c => c.id === meta.category)) throw new Error(`${label}: unknown category "${meta.category}"`);
			const expected = path.join(root, meta.category, `${meta.slug}.md`);
			if (path.resolve(file) !== path.resolve(expected)) {
				throw new Error(`${label}: front matter says ${meta.category}/${meta.slug}, so the file belongs at ${path.relative(dir, expected)}`);
			}
			pages.push({ locale, ...meta, body, file: label });
		}
	}
	return new DocsCatalog(pages);
}

let defaultCatalog: DocsCatalog | undefined;

/** The repository's documentation, loaded on first use and kept for the life of the process. */
export function defaultDocsCatalog(): DocsCatalog {
	defaultCatalog ??= loadDocsCatalog(DEFAULT_DOCS_DIR);
	return defaultCatalog;
}

/** Replaces the base-URL placeholder. `baseUrl` has no trailing slash (config guarantees it). */
export function substituteBaseUrl(text: string, baseUrl: string): string {
	return text.split(BASE_URL_PLACEHOLDER).join(baseUrl.replace(/\/+$/, ""));
}

/** The `.md` representation of a page: front matter stripped, placeholders substituted. */
export function markdownSource(doc: DocPage, baseUrl: string): string {
	const body = substituteBaseUrl(doc.body, baseUrl);
	return body.endsWith("\n") ? body : `${body}\n`;
}
