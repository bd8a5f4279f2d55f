/**
 * What answering reads of a retrieved chunk, analysed once and kept for the chunks read most
 * recently: its sentences line by line with their terms, every term of its text and heading, and
 * the terms of its heading and page title. The same chunks come back question after question on
 * one chatbot, and analysing their text was about 40 % of an answer's time in a CPU profile over
 * the development questions of the answer benchmark.
 */
import { RecentMap } from "../cache/recent-map";
import type { Chunk } from "../retrieval/chunker";
import { termsOfCode } from "../text/symbols";
import { analyze, Locale, splitSentences } from "../text/tokenize";

/** One sentence of a chunk, with the line it stands on. */
export interface Unit {
	text: string;
	line: number;
	terms: string[];
	/** A line of a code block (chunker.ts `codeLines`). */
	code: boolean;
}

export interface ChunkAnalysis {
	units: readonly Unit[];
	/** Terms of the text and of the heading. */
	terms: ReadonlySet<string>;
	/** Terms of the heading and of the page title: the context a passage carries. */
	context: ReadonlySet<string>;
}

/** Chunks kept analysed: a few chatbots' worth of retrieved chunks (16 per question), a few megabytes. */
const CACHED_CHUNKS = 1024;

interface Entry {
	text: string;
	heading?: string;
	title: string;
	codeLines?: number[];
	analysis: ChunkAnalysis;
}

const cache = new RecentMap<string, Entry>(CACHED_CHUNKS);

function analyzeChunk(chunk: Chunk, locale: Locale): ChunkAnalysis {
	const units: Unit[] = [];
	const codeLines = new Set(chunk.codeLines);
	chunk.text.split("\n").forEach((line, lineIndex) => {
		const code = codeLines.has(lineIndex);
		for (const sentence of splitSentences(line)) {
			const terms = analyze(sentence, locale);
			units.push({ text: sentence, line: lineIndex, terms: code ? termsOfCode(terms) : terms, code });
		}
	});
	return {
		units,
		// Terms never span a line or a sentence break (both fall on white space), so the text's terms are its sentences'.
		terms: new Set([...units.flatMap(unit => unit.terms), ...analyze(chunk.heading ?? "", locale)]),
		context: new Set(analyze(`${chunk.heading ?? ""}\n${chunk.title}`, locale))
	};
}

/** The chunk's analysis, from the cache when its text, heading, title and code lines are those analysed. */
export function analyzedChunk(chunk: Chunk, locale: Locale): ChunkAnalysis {
	const key = `${locale}\u0000${chunk.id}`;
	const entry = cache.get(key);
	// Chunk ids are positions in a source (chunker.ts), so a retrained source's chunk keeps its id with new text.
	if (entry && entry.text === chunk.text && entry.heading === chunk.heading && entry.title === chunk.title && sameLines(entry.codeLines, chunk.codeLines)) return entry.analysis;
	const analysis = analyzeChunk(chunk, locale);
	cache.set(key, { text: chunk.text, heading: chunk.heading, title: chunk.title, codeLines: chunk.codeLines, analysis });
	return analysis;
}

function sameLines(a: readonly number[] | undefined, b: readonly number[] | undefined): boolean {
	if (!a || !b) return a === b;
	return a.length === b.length && a.every((line, i) => line === b[i]);
}
