/**
 * The tasks of the text worker (text-work.ts): everything that reads a whole fetched page, sitemap,
 * robots.txt or a chatbot's sources, so that no such input can hold the event loop.
 */
import { extractLinks, parseSitemap } from "../crawl/page-links";
import { readableText, ReadableText } from "../crawl/readable-text";
import { parseRobots, robotsAllow } from "../crawl/robots-rules";
import { normalizeText } from "../extract/plain-text";
import { Chunk, chunkSources, ChunkSource } from "../retrieval/chunker";

export interface PageText extends ReadableText {
	/** Same-origin page links, when asked for; otherwise empty. */
	links: string[];
}

/** The title, main text and (optionally) links of an HTML page fetched from `url`. */
export function readPage(input: { html: string; url: string; links: boolean }): PageText {
	const { title, text } = readableText(input.html, input.url);
	return { title, text, links: input.links ? extractLinks(input.html, input.url) : [] };
}

export function readSitemap(xml: string): string[] {
	return parseSitemap(xml);
}

export function normalizePlainText(text: string): string {
	return normalizeText(text);
}

/** Whether robots.txt lets `userAgent` fetch `url` (a 512 KB file is still a lot of text to read). */
export function robotsAllows(input: { robotsTxt: string; url: string; userAgent: string }): boolean {
	return robotsAllow(parseRobots(input.robotsTxt), input.url, input.userAgent);
}

export function chunk(sources: ChunkSource[]): Chunk[] {
	return chunkSources(sources);
}
