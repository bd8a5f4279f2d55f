/**
 * Loads a benchmark corpus the way a chatbot would learn it: a Markdown page is rendered to HTML,
 * wrapped in a page with site chrome, and read back by the crawler's own readable-text extraction
 * (so headings, lists and tables arrive as a crawled page's do); a plain-text page is used as is,
 * like an uploaded file. The pages are read from disk at benchmark time and never committed.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readableText } from "../../lib/crawl/readable-text";
import type { ChunkSource } from "../../lib/retrieval/chunker";
import { splitFrontMatter } from "../../lib/site/front-matter";
import { escapeHtml, renderMarkdown } from "../../lib/site/render-markdown";
import type { Corpus, CorpusPage } from "./dev-set";

const ROOT = path.join(__dirname, "..", "..");

export interface LoadedPage {
	key: string;
	title: string;
	url: string;
	text: string;
	source: ChunkSource;
}

/** The page as the crawler would see it: title, navigation and footer around the rendered body. */
export function pageHtml(title: string, markdownBody: string): string {
	const body = renderMarkdown(markdownBody).html;
	return `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><header><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav></header><main><article>${body}</article></main><footer>© Example docs</footer></body></html>`;
}

function markdownTitle(data: Record<string, unknown>, body: string, fallback: string): string {
	if (typeof data.title === "string") return data.title;
	return /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? fallback;
}

export function corpusOrigin(corpus: Corpus): string {
	return `https://${corpus.name}.docs.example`;
}

/** The `## section` of a Markdown document, as a page of its own titled by the section. */
function markdownSection(markdown: string, section: string): string {
	const lines = markdown.split("\n");
	const start = lines.findIndex(line => line === `## ${section}`);
	if (start < 0) throw new Error(`section "${section}" not found`);
	// The section ends at the next heading outside a code block: the spec's examples hold "# foo" lines.
	let end = lines.length;
	let fence = "";
	for (let i = start + 1; i < lines.length; i++) {
		const line = lines[i];
		const run = /^(`{3,}|~{3,})/.exec(line)?.[1];
		if (run && !fence) fence = run;
		else if (run && run[0] === fence[0] && run.length >= fence.length && line.trim() === run) fence = "";
		else if (!fence && (line.startsWith("## ") || line.startsWith("# "))) {
			end = i;
			break;
		}
	}
	// A definition the spec marks with "(@)" is a link to itself on the spec's site: its text is what reads.
	const body = lines.slice(start + 1, end).join("\n").replace(/\[([^\]\n]{1,80})\]\(@\)/g, "$1");
	return `# ${section}\n${body}`;
}

/** A page's title and its Markdown (rendered like a crawled page) or, for a plain-text file, its text. */
function readPage(page: CorpusPage, baseUrl: string): { title: string; markdown?: string; plain?: string } {
	const raw = fs.readFileSync(path.join(ROOT, page.file), "utf8");
	if (page.section) return { title: page.section, markdown: markdownSection(raw, page.section) };
	if (/\.md$/i.test(page.file)) {
		const { data, body } = splitFrontMatter(raw);
		const expanded = body.replace(/\{\{base_url\}\}/g, baseUrl);
		return { title: markdownTitle(data, expanded, page.key), markdown: expanded };
	}
	const text = raw.replace(/^\uFEFF/, "");
	return { title: text.split(/\r?\n/).find(l => l.trim())?.trim() ?? page.key, plain: text };
}

export function loadCorpus(corpus: Corpus, chatbotId = corpus.name): LoadedPage[] {
	return corpus.pages.map(page => {
		const url = `${corpusOrigin(corpus)}/${page.key}`;
		const { title, markdown, plain } = readPage(page, corpusOrigin(corpus));
		if (markdown === undefined) {
			// Read as the uploaded file it is: a file's lines are chunked as a file's are, not as a crawled page's.
			const text = plain as string;
			return { key: page.key, title, url, text, source: { chatbotId, sourceId: page.key, kind: "file", title, fileName: path.basename(page.file), text } };
		}
		const text = readableText(pageHtml(title, markdown), url).text;
		return { key: page.key, title, url, text, source: { chatbotId, sourceId: page.key, kind: "url", title, url, text } };
	});
}

/** Pages as HTML for a loopback site (the end-to-end check crawls these). */
export function corpusHtmlPages(corpus: Corpus): Array<{ key: string; html: string }> {
	return corpus.pages.map(page => {
		const { title, markdown, plain } = readPage(page, "");
		if (markdown !== undefined) return { key: page.key, html: pageHtml(title, markdown) };
		const paragraphs = (plain as string).split(/\r?\n\s*\r?\n/).map(p => `<p>${escapeHtml(p.trim())}</p>`).join("");
		return { key: page.key, html: `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><main>${paragraphs}</main></body></html>` };
	});
}
