/**
 * The site's URL scheme (product decisions): English at the root, Spanish under `/es`, docs at
 * `/docs/{category}/{slug}` with a `.md` twin. Every link the site renders and every path the gateway
 * parses goes through these helpers, so the two cannot disagree.
 */
import { DEFAULT_LOCALE, LOCALES, type Locale } from "../locales";

export { DEFAULT_LOCALE, LOCALES, type Locale } from "../locales";

/** `/developers` in Spanish is `/es/developers`; the home page `/` is `/es`. */
export function localePath(locale: Locale, path: string): string {
	if (locale === DEFAULT_LOCALE) return path;
	return path === "/" ? `/${locale}` : `/${locale}${path}`;
}

/** The locale-neutral path of a localized one, and its locale: `/es/docs` → `{ es, /docs }`. */
export function splitLocale(path: string): { locale: Locale; path: string } {
	for (const locale of LOCALES) {
		if (locale === DEFAULT_LOCALE) continue;
		if (path === `/${locale}` || path === `/${locale}/`) return { locale, path: "/" };
		if (path.startsWith(`/${locale}/`)) return { locale, path: path.slice(locale.length + 1) };
	}
	return { locale: DEFAULT_LOCALE, path };
}

export function docPath(locale: Locale, category: string, slug: string, markdown = false): string {
	return localePath(locale, `/docs/${category}/${slug}${markdown ? ".md" : ""}`);
}

/** What a site path names, for the gateway's router. */
export type SitePathTarget =
	| { kind: "home"; locale: Locale }
	| { kind: "developers"; locale: Locale }
	| { kind: "docs-index"; locale: Locale }
	| { kind: "doc"; locale: Locale; category: string; slug: string; markdown: boolean };

const DOC_PATH = /^\/docs\/([a-z0-9-]+)\/([a-z0-9-]+?)(\.md)?$/;

/**
 * Parses a request path (no query string) into the page it names, or undefined when it is not a
 * site page. It does not check that a doc exists; the catalog answers that.
 */
export function parseSitePath(requestPath: string): SitePathTarget | undefined {
	const { locale, path } = splitLocale(requestPath);
	const trimmed = path.length > 1 ? path.replace(/\/$/, "") : path;
	if (trimmed === "/") return { kind: "home", locale };
	if (trimmed === "/developers") return { kind: "developers", locale };
	if (trimmed === "/docs") return { kind: "docs-index", locale };
	const match = DOC_PATH.exec(trimmed);
	if (match) return { kind: "doc", locale, category: match[1], slug: match[2], markdown: match[3] === ".md" };
	return undefined;
}
