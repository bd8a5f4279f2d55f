/**
 * The main text of an HTML page, without navigation boilerplate, with its structure kept as lines:
 * paragraphs separated by a blank line, each heading (marked "#" to "######" by its level) and
 * list item on its own line, so a chunker can split on structure later.
 *
 * Site chrome (nav, page-level header and footer, aside, forms, scripts) is removed first. Then
 * @mozilla/readability picks the main content, over linkedom (a DOM without a browser). When it finds
 * nothing, or the page is too short for its scoring to be reliable, the text is the whole page minus
 * that chrome.
 */
import { Readability } from "@mozilla/readability";
import type { DOMParser as LinkedomParser } from "linkedom";

export interface ReadableText {
	title: string;
	text: string;
}

/** Elements whose content never counts as text. */
const SKIPPED = new Set(["script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "head"]);

/** Elements that start a new paragraph. */
const BLOCKS = new Set([
	"address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div", "dl", "dt", "fieldset",
	"figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav",
	"ol", "p", "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "ul", "caption"
]);

/**
 * Headings are written as Markdown ATX lines ("## Limits") so the chunker knows them for headings
 * instead of guessing from short lines (lib/retrieval/chunker.ts reads the marks).
 */
const HEADING_LEVELS: Readonly<Record<string, number | undefined>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

/** Blocks written as a single line rather than a paragraph of their own. */
const LINE_BLOCKS = new Set(["li", "dt", "dd", "tr"]);

/** Site chrome: removed before Readability, which keeps it on short pages where it dominates. */
const BOILERPLATE_SELECTOR = [
	"nav", "aside", "form", "script", "style", "noscript", "template", "dialog",
	"[role=navigation]", "[role=banner]", "[role=contentinfo]", "[role=search]", "[aria-hidden=true]", "[hidden]"
].join(",");

/** `header` and `footer` are site chrome at page level but an article's own byline inside one. */
const PAGE_CHROME_SELECTOR = "header, footer";

/** Length of the longest run of `char` in `text`. */
function longestRun(text: string, char: string): number {
	let longest = 0;
	let run = 0;
	for (const c of text) {
		run = c === char ? run + 1 : 0;
		if (run > longest) longest = run;
	}
	return longest;
}

/** Marks that end what a line says; a list item's words ending without one get ":" before its own list. */
const SENTENCE_MARKS = new Set([".", ":", ";", "?", "!", ",", "…", "。", "¿", "¡"]);

/** Lists, which inside a list item are that item's own list. */
const LISTS = new Set(["ul", "ol"]);

/** Accumulates text, turning block boundaries into line and paragraph breaks. */
class TextWriter {
	private out = "";
	/** Break owed before the next text: 0 none, 1 newline, 2 blank line. */
	private pendingBreak = 0;
	private pendingSpace = false;

	/** Inline text: whitespace runs collapse to one space, as a browser renders them. */
	text(raw: string): void {
		const collapsed = raw.replace(/\s+/g, " ");
		const trimmed = collapsed.trim();
		if (!trimmed) {
			if (collapsed) this.pendingSpace = true;
			return;
		}
		if (collapsed.startsWith(" ")) this.pendingSpace = true;
		this.append(trimmed);
		this.pendingSpace = collapsed.endsWith(" ");
	}

	/** Text whose line breaks and indentation matter (`<pre>`), as a paragraph of its own. */
	preformatted(raw: string): void {
		// Trimmed by code: `\s+$` is retried from every space of a long run inside the block.
		const lines = raw.replace(/\r\n?/g, "\n").trimEnd();
		let start = 0;
		while (lines.charCodeAt(start) === 0x0a) start++;
		const text = lines.slice(start);
		if (!text) return;
		// Fenced as Markdown code, so the chunker reads its lines as code ("# install" is a comment
		// there, not a heading); the fence outruns any run of backticks inside.
		const fence = "`".repeat(Math.max(3, longestRun(text, "`") + 1));
		this.breakLine(2);
		this.append(`${fence}\n${text}\n${fence}`);
		this.breakLine(2);
	}

	space(): void {
		this.pendingSpace = true;
	}

	/** Where the text written so far ends, to ask later whether anything was written since. */
	position(): number {
		return this.out.length;
	}

	/**
	 * Ends what was written since `start` with ":" unless it already ends with a mark, and keeps
	 * the next text on the next line: the words of a list item that holds a list of its own lead
	 * that list ("Support channels:" then its items), as the indentation shows on the page, even
	 * when the words are a paragraph of their own (`<li><p>…</p><ul>`). Nothing when the item has
	 * no words of its own.
	 */
	leadFrom(start: number): void {
		if (this.out.length <= start) return;
		if (!SENTENCE_MARKS.has(this.out[this.out.length - 1])) this.out += ":";
		this.pendingBreak = 1;
		this.pendingSpace = false;
	}

	/** Asks for at least `kind` break before the next text. */
	breakLine(kind: 1 | 2): void {
		this.pendingBreak = Math.max(this.pendingBreak, kind);
	}

	private append(text: string): void {
		if (this.out) {
			if (this.pendingBreak) this.out += this.pendingBreak === 2 ? "\n\n" : "\n";
			else if (this.pendingSpace) this.out += " ";
		}
		this.out += text;
		this.pendingBreak = 0;
		this.pendingSpace = false;
	}

	toString(): string {
		return this.out
			.split("\n")
			.map(line => line.trimEnd())
			.join("\n")
			.replace(/\n{3,}/g, "\n\n")
			.trim();
	}
}

function walk(node: Node, writer: TextWriter): void {
	if (node.nodeType === 3) {
		writer.text(node.nodeValue ?? "");
		return;
	}
	if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
	const name = node.nodeType === 1 ? (node as Element).localName.toLowerCase() : "";
	if (SKIPPED.has(name)) return;
	if (name === "br") {
		writer.breakLine(1);
		return;
	}
	if (name === "pre") {
		writer.preformatted(node.textContent ?? "");
		return;
	}
	const block = BLOCKS.has(name);
	const kind: 1 | 2 = LINE_BLOCKS.has(name) ? 1 : 2;
	// A list inside a list item goes on from the item's words on the next line (leadFrom); a blank
	// line after it still parts it from the next item.
	if (block && !(LISTS.has(name) && (node as Element).parentElement?.localName.toLowerCase() === "li")) writer.breakLine(kind);
	const level = HEADING_LEVELS[name];
	// An empty heading gets no mark: a lone "##" would read as a paragraph.
	if (level && (node.textContent ?? "").trim()) writer.text(`${"#".repeat(level)} `);
	if (name === "td" || name === "th") writer.space();
	// The item's words before each list of its own lead it: since the item began, or since its last list ended.
	let start = writer.position();
	for (let child = node.firstChild; child; child = child.nextSibling) {
		const ownList = name === "li" && child.nodeType === 1 && LISTS.has((child as Element).localName.toLowerCase());
		if (ownList) writer.leadFrom(start);
		walk(child, writer);
		if (ownList) start = writer.position();
	}
	if (block) writer.breakLine(kind);
}

/** Text of a DOM subtree with paragraph breaks and one line per heading and list item. */
export function structuredText(root: Node): string {
	const writer = new TextWriter();
	walk(root, writer);
	return writer.toString();
}

function parse(html: string): Document {
	// linkedom's Document implements the DOM interfaces Readability and the walker use.
	return new (domParser())().parseFromString(html, "text/html") as unknown as Document;
}

/**
 * Readability drops any element whose id or class reads like chrome ("header", "menu", "extra",
 * "comment"…), and a heading's id is usually the slug of its own words: "## getCookies(headers)"
 * gets id "getcookiesheaders" and vanished with its title, leaving the section under the wrong
 * heading. A heading's id and class name an anchor or a style, not a page region, so Readability
 * does not see them (chrome around a heading is recognised by its container).
 */
function unmarkHeadings(doc: Document): void {
	for (const el of Array.from(doc.querySelectorAll("h1, h2, h3, h4, h5, h6"))) {
		el.removeAttribute("id");
		el.removeAttribute("class");
	}
}

function stripBoilerplate(doc: Document): void {
	for (const el of Array.from(doc.querySelectorAll(BOILERPLATE_SELECTOR))) el.remove();
	for (const el of Array.from(doc.querySelectorAll(PAGE_CHROME_SELECTOR))) {
		if (!el.parentElement?.closest("article, main")) el.remove();
	}
}

/**
 * Readability scores paragraphs to find the content block; below about this many characters it has
 * too little to go on and drops headings and introductions that are not next to the densest block.
 * A page that short is read whole, minus its chrome.
 */
const MIN_ARTICLE_CHARS = 500;

function pageWithoutChrome(html: string): string {
	// Readability mutates the document it reads, so this starts from a fresh parse.
	const doc = parse(html);
	stripBoilerplate(doc);
	return structuredText(doc.body ?? doc.documentElement);
}

/** Extracts the title and main text of an HTML document fetched from `url`. */
export function readableText(html: string, url: string): ReadableText {
	const doc = parse(html);
	// A body with no element at all (empty, white space, a lone comment) has no document element.
	if (!doc.documentElement) return { title: "", text: "" };
	const pageTitle = (doc.querySelector("title")?.textContent ?? "").replace(/\s+/g, " ").trim();
	stripBoilerplate(doc);
	unmarkHeadings(doc);
	let article: { title?: string | null; content?: Node | null } | null = null;
	try {
		// Readability reads documentURI for relative links; linkedom leaves it empty.
		Object.defineProperty(doc, "documentURI", { value: url, configurable: true });
		article = new Readability(doc, { serializer: (node: Node) => node }).parse();
	} catch {
		article = null;
	}
	const articleText = article?.content ? structuredText(article.content) : "";
	const text = articleText.length >= MIN_ARTICLE_CHARS ? articleText : pageWithoutChrome(html) || articleText;
	const title = (article?.title ?? "").replace(/\s+/g, " ").trim() || pageTitle;
	return { title, text };
}

/** linkedom, required at the first page parsed: an idle process need not hold it. */
function domParser(): typeof LinkedomParser {
	return (require("linkedom") as { DOMParser: typeof LinkedomParser }).DOMParser;
}
