/** Documentation pages and the docs index, each as HTML (site layout) and as Markdown. */
import { DocsCatalog, defaultDocsCatalog, markdownSource, NavCategory } from "./docs-catalog";
import { renderLayout } from "./layout";
import { escapeHtml, renderMarkdown } from "./render-markdown";
import { Locale, docPath } from "./site-paths";

export interface SitePage {
	html: string;
	markdown: string;
	title: string;
	description: string;
}

export interface DocSitePage extends SitePage {
	/** True when Spanish was asked for and the English page is served. */
	fellBack: boolean;
}

const TEXT: Record<Locale, { docs: string; index: string; intro: string; untranslated: string; asMarkdown: string; navLabel: string }> = {
	en: {
		docs: "Documentation",
		index: "Guides and reference for the demo API, the chat API and the MCP tool server.",
		intro: "Every page is also available as Markdown: add `.md` to its URL. The whole set is in [`/llms-full.txt`]({base}/llms-full.txt).",
		untranslated: "",
		asMarkdown: "View as Markdown",
		navLabel: "Documentation"
	},
	es: {
		docs: "Documentación",
		index: "Guías y referencia de la API de demostración, la API de chat y el servidor de herramientas MCP.",
		intro: "Cada página está también en Markdown: añade `.md` a su URL. El conjunto completo, en inglés, está en [`/llms-full.txt`]({base}/llms-full.txt).",
		untranslated: "Esta página todavía no está traducida; se muestra la versión en inglés.",
		asMarkdown: "Ver como Markdown",
		navLabel: "Documentación"
	}
};

function sidebar(locale: Locale, base: string, nav: NavCategory[], current?: { category: string; slug: string }): string {
	const sections = nav.map(category => {
		const items = category.pages.map(page => {
			const isCurrent = current?.category === category.id && current.slug === page.slug;
			const href = base + docPath(locale, category.id, page.slug);
			return `<li><a href="${escapeHtml(href)}"${isCurrent ? ' aria-current="page"' : ""}>${escapeHtml(page.title)}</a></li>`;
		});
		return `<h2>${escapeHtml(category.title)}</h2><ul>${items.join("")}</ul>`;
	});
	return `<aside><nav aria-label="${TEXT[locale].navLabel}">${sections.join("\n")}</nav></aside>`;
}

/**
 * Only the `.md` source of a page (for `/docs/{category}/{slug}.md`), without rendering any HTML;
 * undefined when no such page exists in any language.
 */
export function docMarkdown(
	locale: Locale,
	category: string,
	slug: string,
	baseUrl: string,
	catalog: DocsCatalog = defaultDocsCatalog()
): { markdown: string; fellBack: boolean } | undefined {
	const found = catalog.getDoc(locale, category, slug);
	return found ? { markdown: markdownSource(found.doc, baseUrl), fellBack: found.fellBack } : undefined;
}

/** One documentation page, or undefined when no such page exists in any language. */
export function docsPage(
	locale: Locale,
	category: string,
	slug: string,
	baseUrl: string,
	catalog: DocsCatalog = defaultDocsCatalog()
): DocSitePage | undefined {
	const found = catalog.getDoc(locale, category, slug);
	if (!found) return undefined;
	const { doc, fellBack } = found;
	const markdown = markdownSource(doc, baseUrl);
	const markdownUrl = baseUrl + docPath(locale, category, slug, true);
	const text = TEXT[locale];
	const notice = fellBack ? `<p class="notice" lang="${locale}">${escapeHtml(text.untranslated)}</p>\n` : "";
	const meta = `<p class="doc-meta"><a href="${escapeHtml(markdownUrl)}" type="text/markdown">${text.asMarkdown}</a></p>`;
	const article = `<article lang="${doc.locale}">\n${notice}${renderMarkdown(markdown).html}${meta}\n</article>`;
	const html = renderLayout({
		locale,
		baseUrl,
		title: doc.title,
		description: doc.description,
		path: `/docs/${category}/${slug}`,
		markdownUrl,
		section: "docs",
		body: `<div class="docs">\n${article}\n${sidebar(locale, baseUrl, catalog.nav(locale), { category, slug })}\n</div>`
	});
	return { html, markdown, fellBack, title: doc.title, description: doc.description };
}

/** The docs index: every category with its pages and their one-line descriptions. */
export function docsIndexPage(locale: Locale, baseUrl: string, catalog: DocsCatalog = defaultDocsCatalog()): SitePage {
	const text = TEXT[locale];
	const nav = catalog.nav(locale);
	const lines = [`# ${text.docs}`, "", `> ${text.index}`, "", text.intro.replace("{base}", baseUrl), ""];
	for (const category of nav) {
		lines.push(`## ${category.title}`, "");
		for (const page of category.pages) {
			lines.push(`- [${page.title}](${baseUrl + docPath(locale, category.id, page.slug)}): ${page.description}`);
		}
		lines.push("");
	}
	const markdown = lines.join("\n");
	const html = renderLayout({
		locale,
		baseUrl,
		title: text.docs,
		description: text.index,
		path: "/docs",
		section: "docs",
		body: `<div class="docs">\n<article>\n${renderMarkdown(markdown).html}</article>\n${sidebar(locale, baseUrl, nav)}\n</div>`
	});
	return { html, markdown, title: text.docs, description: text.index };
}
