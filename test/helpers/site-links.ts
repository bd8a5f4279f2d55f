/**
 * A link checker for the site's Markdown: finds every link with marked's own lexer (so code blocks
 * and inline code are not mistaken for links) and resolves links into the site against the docs
 * catalog, anchors included.
 */
import { Lexer, Token, Tokens } from "marked";
import { DocsCatalog, markdownSource } from "../../lib/site/docs-catalog";
import { renderMarkdown } from "../../lib/site/render-markdown";
import { parseSitePath } from "../../lib/site/site-paths";

/** Paths served by the gateway and other services that are not documentation pages. */
export const SERVICE_PATHS = new Set([
	"/api",
	"/openapi.json",
	"/openapi.yaml",
	"/.well-known/mcp.json",
	"/.well-known/mcp/server-card.json",
	"/.well-known/mcp",
	"/llms.txt",
	"/llms-full.txt",
	"/sitemap.xml",
	"/v2/health",
	"/account",
	"/account/signup"
]);

function collect(tokens: Token[] | undefined, out: string[]): void {
	for (const token of tokens ?? []) {
		if (token.type === "link") out.push((token as Tokens.Link).href);
		const nested = token as { tokens?: Token[]; items?: Token[]; header?: Tokens.TableCell[]; rows?: Tokens.TableCell[][] };
		collect(nested.tokens, out);
		collect(nested.items, out);
		for (const cell of nested.header ?? []) collect(cell.tokens, out);
		for (const row of nested.rows ?? []) for (const cell of row) collect(cell.tokens, out);
	}
}

/** Every link target in a Markdown document, in order. */
export function markdownLinks(markdown: string): string[] {
	const out: string[] = [];
	collect(new Lexer({ gfm: true }).lex(markdown), out);
	return out;
}

const anchorCache = new Map<string, Set<string>>();

function anchorsOf(catalog: DocsCatalog, locale: "en" | "es", category: string, slug: string, base: string): Set<string> | undefined {
	const found = catalog.getDoc(locale, category, slug);
	if (!found) return undefined;
	const key = `${found.doc.locale}/${category}/${slug}`;
	let anchors = anchorCache.get(key);
	if (!anchors) {
		anchors = new Set(renderMarkdown(markdownSource(found.doc, base)).headings.map(h => h.id));
		anchorCache.set(key, anchors);
	}
	return anchors;
}

/**
 * Why a link does not resolve, or undefined when it does. `current` names the page the link is on,
 * for same-page anchors. External links (another origin) are not followed.
 */
export function linkProblem(
	href: string,
	base: string,
	catalog: DocsCatalog,
	current?: { locale: "en" | "es"; category: string; slug: string }
): string | undefined {
	if (href.startsWith("#")) {
		if (!current) return `same-page anchor ${href} outside a doc page`;
		const anchors = anchorsOf(catalog, current.locale, current.category, current.slug, base);
		return anchors?.has(href.slice(1)) ? undefined : `no heading #${href.slice(1)} on this page`;
	}
	if (!href.startsWith(`${base}/`) && href !== base) {
		// Internal links must be absolute (written with the base-URL placeholder), so they work in .md sources too.
		if (!/^https?:\/\//.test(href)) return `relative link ${href}`;
		return undefined;
	}
	const url = new URL(href);
	const path = url.pathname;
	const anchor = url.hash ? decodeURIComponent(url.hash.slice(1)) : undefined;
	if (SERVICE_PATHS.has(path)) return anchor ? `anchor on a non-page ${href}` : undefined;
	const target = parseSitePath(path);
	if (!target) return `no such page ${path}`;
	if (target.kind !== "doc") return anchor ? `anchor on ${path} is not checked` : undefined;
	const anchors = anchorsOf(catalog, target.locale, target.category, target.slug, base);
	if (!anchors) return `no such doc ${path}`;
	if (anchor && !anchors.has(anchor)) return `no heading #${anchor} on ${path}`;
	return undefined;
}
