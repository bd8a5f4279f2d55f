/**
 * The one HTML shell every site page shares: header navigation with the language switch, the page,
 * and a footer pointing at the machine-readable documents. It also carries what crawlers and agents
 * look for in the head: `lang`, hreflang alternates, the canonical URL and the Markdown twin.
 */
import { escapeHtml } from "./render-markdown";
import { DEFAULT_LOCALE, LOCALES, Locale, localePath } from "./site-paths";
import { SITE_CSS } from "./styles";

export type SiteSection = "home" | "docs" | "developers";

export interface LayoutOptions {
	locale: Locale;
	/** Public base URL without a trailing slash. */
	baseUrl: string;
	/** Page title, without the site name. */
	title: string;
	description: string;
	/** Inner HTML of `<main>`. Trusted: callers escape what they insert. */
	body: string;
	/**
	 * Locale-neutral path of this page (`/docs/api/add-url`). Drives the canonical URL, the hreflang
	 * alternates and the language switch. Omit for pages with no language twins (the 404 page).
	 */
	path?: string;
	/** Absolute URL of the page's Markdown source, announced as `rel="alternate" type="text/markdown"`. */
	markdownUrl?: string;
	/** Which header link to mark as the current section. */
	section?: SiteSection;
	/** Keep the page out of search indexes (error pages). */
	noindex?: boolean;
}

export const SITE_NAME = "Chatbot Builder";

const CHROME: Record<Locale, { home: string; docs: string; developers: string; language: string; nav: string; skip: string; footer: string; tagline: string }> = {
	en: {
		home: "Home",
		docs: "Docs",
		developers: "Developers",
		language: "Language",
		nav: "Site",
		skip: "Skip to content",
		footer: "For programs",
		tagline: "Chatbots trained on your own content."
	},
	es: {
		home: "Inicio",
		docs: "Documentación",
		developers: "Desarrolladores",
		language: "Idioma",
		nav: "Sitio",
		skip: "Saltar al contenido",
		footer: "Para programas",
		tagline: "Chatbots entrenados con tu propio contenido."
	}
};

function headLinks(opts: LayoutOptions): string {
	const links: string[] = [];
	if (opts.path !== undefined) {
		links.push(`<link rel="canonical" href="${escapeHtml(opts.baseUrl + localePath(opts.locale, opts.path))}">`);
		for (const locale of LOCALES) {
			links.push(`<link rel="alternate" hreflang="${locale}" href="${escapeHtml(opts.baseUrl + localePath(locale, opts.path))}">`);
		}
		links.push(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(opts.baseUrl + localePath(DEFAULT_LOCALE, opts.path))}">`);
	}
	if (opts.markdownUrl) links.push(`<link rel="alternate" type="text/markdown" href="${escapeHtml(opts.markdownUrl)}">`);
	links.push(`<link rel="service-desc" type="application/json" href="${escapeHtml(opts.baseUrl)}/openapi.json">`);
	return links.join("\n");
}

function languageSwitch(opts: LayoutOptions): string {
	const text = CHROME[opts.locale];
	const target = opts.path ?? "/";
	const items = LOCALES.map(locale => {
		const label = locale.toUpperCase();
		if (locale === opts.locale) return `<span aria-current="true" lang="${locale}">${label}</span>`;
		return `<a href="${escapeHtml(opts.baseUrl + localePath(locale, target))}" hreflang="${locale}" lang="${locale}">${label}</a>`;
	});
	return `<span class="lang" role="group" aria-label="${text.language}">${items.join("")}</span>`;
}

export function renderLayout(opts: LayoutOptions): string {
	const { locale, baseUrl } = opts;
	const text = CHROME[locale];
	const link = (section: SiteSection, href: string, label: string) =>
		`<a href="${escapeHtml(baseUrl + localePath(locale, href))}"${opts.section === section ? ' aria-current="page"' : ""}>${label}</a>`;
	const title = opts.section === "home" ? `${SITE_NAME}: ${opts.title}` : `${opts.title} · ${SITE_NAME}`;
	const base = escapeHtml(baseUrl);
	return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(opts.description)}">
<meta name="color-scheme" content="light dark">${opts.noindex ? '\n<meta name="robots" content="noindex">' : ""}
${headLinks(opts)}
<style>${SITE_CSS}</style>
</head>
<body>
<a class="skip" href="#content">${text.skip}</a>
<header class="site"><div class="wrap">
<a class="brand" href="${escapeHtml(baseUrl + localePath(locale, "/"))}"><span class="dot" aria-hidden="true"></span>${SITE_NAME}</a>
<nav class="main" aria-label="${text.nav}">
${link("home", "/", text.home)}
${link("docs", "/docs", text.docs)}
${link("developers", "/developers", text.developers)}
${languageSwitch(opts)}
</nav>
</div></header>
<main id="content"><div class="wrap">
${opts.body}
</div></main>
<footer class="site"><div class="wrap">
<span class="spacer">${SITE_NAME} · ${text.tagline}</span>
<span>${text.footer}:</span>
<a href="${base}/sitemap.xml">sitemap.xml</a>
<a href="${base}/llms.txt">llms.txt</a>
<a href="${base}/openapi.json">openapi.json</a>
<a href="${base}/api">/api</a>
</div></footer>
</body>
</html>
`;
}
