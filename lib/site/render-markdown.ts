/**
 * Markdown → HTML for the documentation pages, with `marked`.
 *
 * Our sources are trusted, but the renderer is built as if they were not: raw HTML in a source is
 * shown as text, never passed through, and links with a script scheme lose their href. Headings get
 * stable ids so the error bodies' `documentation_url` anchors (`#expired`) land on their section.
 */
import { Marked, Renderer, Tokens } from "marked";

type RendererOverrides = {
	[K in "html" | "heading" | "link" | "table"]: (this: Renderer, ...args: Parameters<Renderer[K]>) => string;
};

export interface RenderedHeading {
	depth: number;
	text: string;
	id: string;
}

export interface RenderedMarkdown {
	html: string;
	headings: RenderedHeading[];
}

export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

/**
 * The anchor id of a heading: lowercase, accents folded (so Spanish headings give ASCII ids),
 * punctuation dropped, spaces to hyphens. Underscores survive, so the heading `url_cap` is `#url_cap`.
 */
export function slugifyHeading(text: string): string {
	return text
		.normalize("NFKD")
		.replace(/[\u0300-\u036f]/g, "")
		.toLowerCase()
		.replace(/[^a-z0-9_\s-]/g, "")
		.trim()
		.replace(/[\s-]+/g, "-");
}

const SAFE_HREF = /^(?:https?:|mailto:|\/|#|\.{0,2}\/)/i;

function safeHref(href: string): string | undefined {
	const trimmed = href.trim();
	// Relative references without a scheme are safe too ("page.md"); anything with another scheme is not.
	if (SAFE_HREF.test(trimmed) || !/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return trimmed;
	return undefined;
}

/** Raw HTML in a source is shown as text, never passed through. */
function escapedHtml(token: Tokens.HTML | Tokens.Tag): string {
	const shown = escapeHtml(token.text);
	return "block" in token && token.block ? `<p>${shown.trim()}</p>\n` : shown;
}

/** A link keeps its href only when the scheme is harmless; otherwise only its text is shown. */
function safeLink(this: Renderer, { href, title, tokens }: Tokens.Link): string {
	const inner = this.parser.parseInline(tokens);
	const safe = safeHref(href);
	if (safe === undefined) return inner;
	const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
	return `<a href="${escapeHtml(safe)}"${titleAttr}>${inner}</a>`;
}

/** Renders one document. Heading ids are unique within it: a repeated heading gets `-1`, `-2`, … */
export function renderMarkdown(markdown: string): RenderedMarkdown {
	const headings: RenderedHeading[] = [];
	const used = new Map<string, number>();
	// Overrides run with `this` bound to marked's own renderer, whose `parser` is set during parsing.
	const renderer: RendererOverrides = {
		html: escapedHtml,
		heading({ tokens, depth }: Tokens.Heading) {
			const inner = this.parser.parseInline(tokens);
			const text = decodeEntities(this.parser.parseInline(tokens, this.parser.textRenderer));
			const base = slugifyHeading(text) || "section";
			const seen = used.get(base) ?? 0;
			used.set(base, seen + 1);
			const id = seen === 0 ? base : `${base}-${seen}`;
			headings.push({ depth, text, id });
			return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true" tabindex="-1">#</a>${inner}</h${depth}>\n`;
		},
		link: safeLink,
		// Wide tables scroll inside their own box instead of widening the page on a phone.
		table(token: Tokens.Table) {
			return `<div class="table-wrap">${Renderer.prototype.table.call(this, token)}</div>\n`;
		}
	};

	const marked = new Marked({ gfm: true, async: false, renderer });
	const html = marked.parse(markdown) as string;
	return { html, headings };
}

/** Renders one line of inline Markdown (code spans, emphasis, links) with the same safety rules. */
export function renderInlineMarkdown(markdown: string): string {
	const renderer: Pick<RendererOverrides, "html" | "link"> = {
		html: escapedHtml,
		link: safeLink
	};
	return new Marked({ gfm: true, async: false, renderer }).parseInline(markdown) as string;
}

/** The text renderer leaves entities escaped (`&amp;`); heading text is shown and slugified decoded. */
function decodeEntities(text: string): string {
	return text
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'")
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&amp;/g, "&");
}
