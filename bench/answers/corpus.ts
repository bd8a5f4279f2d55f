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
import type { Corpus } from "./dev-set";

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

export function loadCorpus(corpus: Corpus, chatbotId = corpus.name): LoadedPage[] {
	return corpus.pages.map(page => {
		const file = path.join(ROOT, page.file);
		const raw = fs.readFileSync(file, "utf8");
		const url = `${corpusOrigin(corpus)}/${page.key}`;
		let title: string;
		let text: string;
		if (/\.md$/i.test(file)) {
			const { data, body } = splitFrontMatter(raw);
			const expanded = body.replace(/\{\{base_url\}\}/g, corpusOrigin(corpus));
			title = markdownTitle(data, expanded, page.key);
			text = readableText(pageHtml(title, expanded), url).text;
		} else {
			text = raw.replace(/^\uFEFF/, "");
			title = text.split(/\r?\n/).find(l => l.trim())?.trim() ?? page.key;
		}
		return { key: page.key, title, url, text, source: { chatbotId, sourceId: page.key, kind: "url", title, url, text } };
	});
}

/** Pages as HTML for a loopback site (the end-to-end check crawls these). */
export function corpusHtmlPages(corpus: Corpus): Array<{ key: string; html: string }> {
	return corpus.pages.map(page => {
		const raw = fs.readFileSync(path.join(ROOT, page.file), "utf8");
		if (!/\.md$/i.test(page.file)) {
			const text = raw.replace(/^\uFEFF/, "");
			const title = text.split(/\r?\n/).find(l => l.trim())?.trim() ?? page.key;
			const paragraphs = text.split(/\r?\n\s*\r?\n/).map(p => `<p>${escapeHtml(p.trim())}</p>`).join("");
			return { key: page.key, html: `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body><main>${paragraphs}</main></body></html>` };
		}
		const { data, body } = splitFrontMatter(raw);
		const expanded = body.replace(/\{\{base_url\}\}/g, "");
		return { key: page.key, html: pageHtml(markdownTitle(data, expanded, page.key), expanded) };
	});
}
