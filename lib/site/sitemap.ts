/**
 * `/sitemap.xml` (sitemaps.org protocol with Google's `xhtml:link` hreflang extension): every site
 * page and documentation page in English and Spanish, each entry naming its language twins and the
 * `x-default` (English). Untranslated Spanish docs are listed because they answer 200 via fallback.
 */
import { DocsCatalog, defaultDocsCatalog } from "./docs-catalog";
import { DEFAULT_LOCALE, LOCALES, localePath } from "./site-paths";

const escapeXml = (text: string) =>
	text.replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] as string);

/** Locale-neutral paths of every page that answers 200 in every locale. */
export function sitePaths(catalog: DocsCatalog = defaultDocsCatalog()): string[] {
	const docs = catalog.list(DEFAULT_LOCALE).map(({ doc }) => `/docs/${doc.category}/${doc.slug}`);
	return ["/", "/developers", "/docs", ...docs];
}

export function sitemapXml(baseUrl: string, catalog: DocsCatalog = defaultDocsCatalog()): string {
	const entries: string[] = [];
	for (const path of sitePaths(catalog)) {
		const alternates = [
			...LOCALES.map(locale => ({ hreflang: locale as string, href: baseUrl + localePath(locale, path) })),
			{ hreflang: "x-default", href: baseUrl + localePath(DEFAULT_LOCALE, path) }
		]
			.map(a => `    <xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${escapeXml(a.href)}"/>`)
			.join("\n");
		for (const locale of LOCALES) {
			entries.push(`  <url>\n    <loc>${escapeXml(baseUrl + localePath(locale, path))}</loc>\n${alternates}\n  </url>`);
		}
	}
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
		...entries,
		"</urlset>",
		""
	].join("\n");
}
