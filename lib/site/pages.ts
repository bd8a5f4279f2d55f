/**
 * Every human-facing page of the site, each as HTML (for browsers) and Markdown (for
 * `Accept: text/markdown`). The gateway picks the representation and adds `Vary: Accept`.
 */
import { blocksToHtml, blocksToMarkdown } from "./blocks";
import { developersCopy } from "./developers-page";
import type { SitePage } from "./docs-pages";
import { homeCopy, PageCopy } from "./home-page";
import { renderLayout, SiteSection } from "./layout";
import type { Locale } from "./site-paths";

export { docMarkdown, docsPage, docsIndexPage } from "./docs-pages";
export type { SitePage, DocSitePage } from "./docs-pages";

function designedPage(copy: PageCopy, locale: Locale, baseUrl: string, path: string, section: SiteSection): SitePage {
	const html = renderLayout({
		locale,
		baseUrl,
		title: copy.title,
		description: copy.description,
		path,
		section,
		body: blocksToHtml(copy.blocks)
	});
	return { html, markdown: blocksToMarkdown(copy.blocks), title: copy.title, description: copy.description };
}

/** The landing page (`/`, `/es`). */
export function homePage(locale: Locale, baseUrl: string): SitePage {
	return designedPage(homeCopy(locale, baseUrl), locale, baseUrl, "/", "home");
}

/** The developer page (`/developers`, `/es/developers`). */
export function developersPage(locale: Locale, baseUrl: string): SitePage {
	return designedPage(developersCopy(locale, baseUrl), locale, baseUrl, "/developers", "developers");
}
