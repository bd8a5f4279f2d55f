/**
 * The 404 for paths outside the JSON surfaces (SPEC §7.3 rule 2): a designed HTML page for browsers,
 * sharing the site layout, and a short Markdown document for everything else that is not asking for
 * JSON. (The JSON body is rendered by the gateway's error renderer.) A path under `/es` gets Spanish.
 */
import { renderLayout } from "./layout";
import { escapeHtml } from "./render-markdown";
import { Locale, localePath, splitLocale } from "./site-paths";

const TEXT: Record<Locale, { title: string; missing: string; help: string; links: Array<[string, string, string]> }> = {
	en: {
		title: "Page not found",
		missing: "Nothing lives at",
		help: "These will help you find your way:",
		links: [
			["/sitemap.xml", "Sitemap", "every page of the site"],
			["/llms.txt", "llms.txt", "the site index for language models"],
			["/docs", "Documentation", "guides and reference"],
			["/developers", "Developers", "the demo API and the MCP tool server"]
		]
	},
	es: {
		title: "Página no encontrada",
		missing: "No hay nada en",
		help: "Esto te ayudará a orientarte:",
		links: [
			["/sitemap.xml", "Mapa del sitio", "todas las páginas del sitio"],
			["/llms.txt", "llms.txt", "el índice del sitio para modelos de lenguaje"],
			["/docs", "Documentación", "guías y referencia"],
			["/developers", "Desarrolladores", "la API de demostración y el servidor de herramientas MCP"]
		]
	}
};

// The sitemap and llms.txt exist once, at the root; the pages have a Spanish twin under /es.
const localizedHref = (publicUrl: string, locale: Locale, target: string) =>
	publicUrl + (target.includes(".") ? target : localePath(locale, target));

export function notFoundMarkdown(publicUrl: string, path: string): string {
	const { locale } = splitLocale(path);
	const text = TEXT[locale];
	return [
		`# ${text.title}`,
		"",
		`${text.missing} \`${path.replace(/`/g, "")}\`. ${text.help}`,
		"",
		...text.links.map(([target, label, note]) => `- [${label}](${localizedHref(publicUrl, locale, target)}): ${note}`),
		""
	].join("\n");
}

export function notFoundHtml(publicUrl: string, path: string): string {
	const { locale } = splitLocale(path);
	const text = TEXT[locale];
	const items = text.links
		.map(([target, label, note]) => `<li><a href="${escapeHtml(localizedHref(publicUrl, locale, target))}">${escapeHtml(label)}</a>: ${escapeHtml(note)}</li>`)
		.join("\n");
	const body = `<section class="hero">
<h1>${text.title}</h1>
<p class="lead">${text.missing} <code>${escapeHtml(path)}</code>.</p>
</section>
<p>${text.help}</p>
<ul>
${items}
</ul>
<p class="actions"><a class="button primary" href="${escapeHtml(publicUrl + localePath(locale, "/"))}">${locale === "es" ? "Volver al inicio" : "Back to the home page"}</a></p>`;
	return renderLayout({ locale, baseUrl: publicUrl, title: text.title, description: `${text.title}: ${path}`, body, noindex: true });
}
