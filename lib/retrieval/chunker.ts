/**
 * Structure-aware chunking of one source's text into retrieval units.
 *
 * The text is read as blocks: headings (markdown `#` lines, setext underlines, and short title-like
 * lines standing on their own) and paragraphs (wrapped lines joined; list items kept apart). Each
 * paragraph is split into sentences, and sentences are packed greedily into chunks of at most
 * `MAX_CHUNK_CHARS`. A heading always starts a new chunk and is kept as the chunk's `heading`, so
 * every chunk knows which section it came from and never mixes two sections.
 *
 * Consecutive chunks of one section share up to `OVERLAP_CHARS` of whole trailing sentences, so a
 * fact that straddles a boundary is still found with its context. A sentence is never cut, except
 * one that alone is longer than `MAX_CHUNK_CHARS`, which is hard-split between words.
 *
 * Chunk ids hash (chatbotId, sourceId, ordinal): re-chunking the same source gives the same ids, so
 * re-indexing overwrites instead of duplicating.
 */
import { createHash } from "node:crypto";
import { tableAt } from "../text/markdown-table";
import { endingIn, ENDS_STATEMENT, splitSentences } from "../text/sentences";

/** Upper bound of a chunk's text (≈ 150 English words): small enough to be specific, large enough to carry context. */
export const MAX_CHUNK_CHARS = 800;
/** Whole trailing sentences of the previous chunk repeated at the start of the next one, at most this long. */
export const OVERLAP_CHARS = 120;
/** A line standing alone, at most this long and this many words, without final punctuation, is a heading. */
const TITLE_LINE_MAX_CHARS = 80;
const TITLE_LINE_MAX_WORDS = 10;
/** Adjacent headings kept together as a chunk's heading, and how they are joined. */
const HEADINGS_KEPT = 2;
export const HEADING_JOINER = " › ";

export type SourceKind = "url" | "file" | "text" | "qa";

interface SourceBase {
	chatbotId: string;
	sourceId: string;
	/** Page title, file name or a caller-chosen label; shown in citations. */
	title: string;
	url?: string;
	fileName?: string;
}

export interface TextSource extends SourceBase {
	kind: "url" | "file" | "text";
	text: string;
}

export interface QaSource extends SourceBase {
	kind: "qa";
	question: string;
	answer: string;
}

export type ChunkSource = TextSource | QaSource;

export interface Chunk {
	/** Deterministic: 32 hex characters of sha256(chatbotId, sourceId, ordinal). */
	id: string;
	chatbotId: string;
	sourceId: string;
	/** Position of the chunk within its source, from 0. */
	ordinal: number;
	/** Sentences of the chunk; paragraphs and list items separated by "\n". The heading is not repeated here. */
	text: string;
	/** Nearest heading above the chunk, if the source has one. */
	heading?: string;
	title: string;
	url?: string;
	fileName?: string;
	kind: SourceKind;
	/**
	 * Lines of `text` (0-based, as split at "\n") that are lines of a code block: an example, a
	 * command, a diagram's source; empty when it has none. Absent in chunks stored before it was
	 * recorded, whose code is not known.
	 */
	codeLines?: number[];
	/** Set on Q&A chunks only. */
	question?: string;
	answer?: string;
}

/**
 * `level`: 1 to 6 for a heading marked in Markdown ("## " is 2; underlined with "=" 1, "-" 2); none
 * for one guessed from a short line.
 */
type Block = { type: "heading"; text: string; level?: number } | { type: "paragraph"; text: string; code?: boolean };

/** Stable chunk id; exported so other back ends derive point ids from the same value. */
export function chunkId(chatbotId: string, sourceId: string, ordinal: number): string {
	return createHash("sha256").update(`${chatbotId}\u0000${sourceId}\u0000${ordinal}`).digest("hex").slice(0, 32);
}

/**
 * Replaces each `<opener>text](target)` with its text, leftmost first, as the pattern
 * `<opener>([^\]]*)\](\([^)]*\))` would (with `+` when `minText` is 1). Written as a scan because a
 * regex engine retries that pattern from every opener of a long line that never closes it, which
 * is quadratic; here the next `]` and `)` are found once and reused while they lie ahead.
 */
function unwrapLinks(line: string, opener: string, minText: 0 | 1): string {
	let out = "";
	let copied = 0;
	let closeBracket = -1;
	let closeParen = -1;
	for (let at = line.indexOf(opener); at >= 0; ) {
		const textStart = at + opener.length;
		if (closeBracket < textStart) closeBracket = line.indexOf("]", textStart);
		if (closeBracket < 0) break;
		if (closeBracket - textStart < minText || line[closeBracket + 1] !== "(") {
			at = line.indexOf(opener, at + 1);
			continue;
		}
		if (closeParen < closeBracket + 2) closeParen = line.indexOf(")", closeBracket + 2);
		if (closeParen < 0) break;
		out += line.slice(copied, at) + line.slice(textStart, closeBracket);
		copied = closeParen + 1;
		at = line.indexOf(opener, copied);
	}
	return copied === 0 ? line : out + line.slice(copied);
}

/** Drops inline markdown that would otherwise show up in extractive answers: images, links, emphasis, code ticks. */
export function stripInlineMarkdown(line: string): string {
	return unwrapLinks(unwrapLinks(line, "![", 0), "[", 1).replace(/(\*\*|__|`)/g, "");
}

const SPACE = /\s/;

/**
 * An ATX heading line (`## Title ##`): its level and text, or undefined. The text is what
 * `^#{1,6}\s+(.+?)\s*#*\s*$` captures, found by trimming from both ends instead of a lazy capture
 * that a line ending in a long run of `#` makes quadratic. Expects a line without line breaks.
 */
function atxHeading(line: string): { level: number; text: string } | undefined {
	let level = 0;
	while (line[level] === "#") level++;
	if (level < 1 || level > 6 || !SPACE.test(line[level] ?? "")) return undefined;
	let start = level;
	while (start < line.length && SPACE.test(line[start])) start++;
	// The capture takes at least one character, giving back a space of the run when nothing follows it.
	if (start === line.length) return start - level >= 2 ? { level, text: line[start - 1] } : undefined;
	let end = line.length;
	while (end > start && SPACE.test(line[end - 1])) end--;
	while (end > start && line[end - 1] === "#") end--;
	while (end > start && SPACE.test(line[end - 1])) end--;
	return { level, text: line.slice(start, Math.max(end, start + 1)) };
}

/** The text of an ATX heading line, or undefined (see `atxHeading`). */
export function markdownHeading(line: string): string | undefined {
	return atxHeading(line)?.text;
}

const SETEXT_UNDERLINE = /^\s*(=+|-+)\s*$/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/;
/** A line ending at a sentence mark or a pause (":", ";", ","): no title, and the end of what a line says. */
const ENDS_CLAUSE = endingIn(".!?…:;,");

function isTitleLike(line: string): boolean {
	if (line.length > TITLE_LINE_MAX_CHARS || ENDS_CLAUSE.test(line)) return false;
	if (!/^[\p{Lu}\p{N}¿¡]/u.test(line) || !/\p{L}/u.test(line)) return false;
	return line.split(/\s+/).length <= TITLE_LINE_MAX_WORDS;
}

/**
 * Whether each line of a group stands alone instead of wrapping into the next: always in crawled
 * text (readable-text writes every paragraph on one line, and list items and table rows one per
 * line), and in other text when no line of the group ends a sentence (rows of a table, items of a
 * list without markers: joining those would make one run-on "sentence" of a whole table) or when
 * every line does (text typed or pasted a paragraph per line, which no line wraps: joined, "When
 * does the store open?" was answered with the whole text).
 */
function linesStandAlone(lines: string[], oneBlockPerLine: boolean): boolean {
	if (lines.some(line => SETEXT_UNDERLINE.test(line))) return false;
	return oneBlockPerLine || (lines.length > 1 && (!lines.some(line => ENDS_CLAUSE.test(line)) || lines.every(line => ENDS_STATEMENT.test(line))));
}

/**
 * Reads one group of adjacent non-blank lines into heading and paragraph blocks. `guessHeadings`:
 * a short title-like line standing alone counts as a heading even though nothing marks it so.
 */
function readGroup(lines: string[], out: Block[], oneBlockPerLine = false, guessHeadings = true): void {
	if (lines.length > 1 && linesStandAlone(lines, oneBlockPerLine)) {
		for (const line of lines) {
			const heading = atxHeading(line);
			out.push(heading ? { type: "heading", ...heading } : { type: "paragraph", text: line.replace(LIST_ITEM, "") });
		}
		return;
	}
	let paragraph: string[] = [];
	const flush = () => {
		if (paragraph.length) out.push({ type: "paragraph", text: paragraph.join(" ") });
		paragraph = [];
	};
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		const next = lines[i + 1];
		const heading = atxHeading(line);
		if (heading) {
			flush();
			out.push({ type: "heading", ...heading });
		} else if (next !== undefined && SETEXT_UNDERLINE.test(next) && paragraph.length === 0 && isTitleLike(line)) {
			out.push({ type: "heading", text: line, level: next.trim().startsWith("=") ? 1 : 2 });
			i++;
		} else if (LIST_ITEM.test(line)) {
			flush();
			paragraph.push(line.replace(LIST_ITEM, ""));
		} else if (
			guessHeadings &&
			isTitleLike(line) &&
			(i === 0 || ENDS_CLAUSE.test(lines[i - 1])) &&
			(next === undefined || /^[\p{Lu}\p{N}¿¡]/u.test(next) || LIST_ITEM.test(next))
		) {
			// A short line that neither continues the previous sentence nor wraps into the next one.
			flush();
			out.push({ type: "heading", text: line });
		} else {
			paragraph.push(line);
		}
	}
	flush();
}

/**
 * Whether a crawled page's text marks its own sections (readable-text writes `<h2>` as "## "): then
 * its short lines are not guessed to be headings. Guessing took "Returns: void", the last line of
 * one function's reference, for the heading of the next function's section, whose own heading
 * ("getCookies(headers)") starts in lower case and so never looked like one. One marked heading is
 * often only the page's title; two say the author marked the sections.
 */
function marksItsHeadings(lines: readonly string[], inCode: readonly boolean[]): boolean {
	let marked = 0;
	for (const [i, line] of lines.entries()) if (!inCode[i] && line.startsWith("#") && atxHeading(line.trim()) && ++marked >= 2) return true;
	return false;
}

/** A Markdown code fence: readable-text writes a `<pre>` between two, and so do authors of Markdown. */
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Which lines lie inside a fenced code block, and which are its fences. A block closes at a fence
 * of the same character, at least as long as the one that opened it, alone on its line.
 */
function fencedLines(lines: readonly string[]): { inCode: boolean[]; fence: boolean[] } {
	let opener: string | undefined;
	const inCode: boolean[] = [];
	const fence: boolean[] = [];
	for (const line of lines) {
		const mark = FENCE.exec(line)?.[1];
		const opens = opener === undefined && mark !== undefined;
		const closes = opener !== undefined && mark !== undefined && mark[0] === opener[0] && mark.length >= opener.length && line.trim() === mark;
		inCode.push(opener !== undefined || opens);
		fence.push(opens || closes);
		if (opens) opener = mark;
		else if (closes) opener = undefined;
	}
	return { inCode, fence };
}

/** `oneBlockPerLine`: the text comes from a crawled page, whose lines never wrap (see `linesStandAlone`). */
export function parseBlocks(text: string, oneBlockPerLine = false): Block[] {
	const blocks: Block[] = [];
	let group: string[] = [];
	let groupIsCode = false;
	const lines = text.replace(/\r\n?/g, "\n").split("\n");
	const { inCode, fence } = fencedLines(lines);
	const guess = !(oneBlockPerLine && marksItsHeadings(lines, inCode));
	const close = () => {
		// A code block's lines are lines of code, each its own, never headings ("# install it").
		if (groupIsCode) for (const line of group) blocks.push({ type: "paragraph", text: line, code: true });
		else if (group.length) readGroup(group, blocks, oneBlockPerLine, guess);
		group = [];
	};
	for (let i = 0; i < lines.length; i++) {
		const raw = lines[i];
		if (inCode[i] !== groupIsCode) {
			close();
			groupIsCode = inCode[i];
		}
		if (fence[i]) continue;
		const table = inCode[i] ? undefined : tableAt(lines, i);
		if (table) {
			// Rows as a crawled page's table gives them, one line each with its cells joined by spaces,
			// the header row first. Read instead as the context of the rows below it (a heading of
			// their own, "Limits › Surface Credential"), header rows of crawled tables answered 67 % /
			// 81 % of the dev questions against 71 % / 83 %, and 63 % / 87 % of the held-out ones
			// against 69 % / 87 %.
			close();
			const line = (cells: readonly string[]) => cells.map(cell => stripInlineMarkdown(cell).replace(/\s+/g, " ").trim()).filter(Boolean).join(" ");
			for (const row of [table.header, ...table.rows].map(line)) if (row) blocks.push({ type: "paragraph", text: row });
			i = table.end - 1;
			continue;
		}
		const line = (inCode[i] ? raw : stripInlineMarkdown(raw)).replace(/\s+/g, " ").trim();
		if (line) {
			group.push(line);
			continue;
		}
		close();
	}
	close();
	return blocks;
}

/** Splits an over-long sentence between words into pieces of at most `max` characters. */
export function hardSplit(sentence: string, max: number): string[] {
	const pieces: string[] = [];
	let current = "";
	for (const word of sentence.split(/\s+/)) {
		for (let start = 0; start < word.length; start += max) {
			const part = word.slice(start, start + max);
			if (current && current.length + 1 + part.length > max) {
				pieces.push(current);
				current = "";
			}
			current = current ? `${current} ${part}` : part;
		}
	}
	if (current) pieces.push(current);
	return pieces;
}

interface Piece {
	text: string;
	/**
	 * What joins it to the piece before: a space within a paragraph, a line break before a new
	 * paragraph or list item, a blank line where code begins or ends (so a list of short lines
	 * never runs from prose into code: lib/answer/passages.ts).
	 */
	joiner: " " | "\n" | "\n\n";
	/** A line of a code block. */
	code: boolean;
}

function render(pieces: Piece[]): string {
	return pieces.map((p, i) => (i === 0 ? p.text : p.joiner + p.text)).join("");
}

/** The lines of `render(pieces)` that hold code (each code line is a piece of its own). */
function codeLinesOf(pieces: Piece[]): number[] {
	const lines: number[] = [];
	let line = 0;
	pieces.forEach((piece, i) => {
		if (i > 0) line += piece.joiner === "\n\n" ? 2 : piece.joiner === "\n" ? 1 : 0;
		if (piece.code && lines[lines.length - 1] !== line) lines.push(line);
	});
	return lines;
}

function renderedLength(pieces: Piece[]): number {
	return pieces.reduce((sum, p, i) => sum + p.text.length + (i === 0 ? 0 : p.joiner.length), 0);
}

/** Whole trailing pieces whose rendered length stays within `OVERLAP_CHARS`. */
function overlapOf(pieces: Piece[]): Piece[] {
	const tail: Piece[] = [];
	for (let i = pieces.length - 1; i >= 0; i--) {
		const candidate = [pieces[i], ...tail];
		if (renderedLength(candidate) > OVERLAP_CHARS) break;
		tail.unshift(pieces[i]);
	}
	return tail;
}

/** Packs the blocks of a source into (heading, text) sections of at most `MAX_CHUNK_CHARS`. */
function pack(blocks: Block[]): Array<{ heading?: string; text: string; codeLines: number[] }> {
	const out: Array<{ heading?: string; text: string; codeLines: number[] }> = [];
	let heading: string | undefined;
	let pieces: Piece[] = [];
	let freshPieces = 0;

	const flush = (keepOverlap: boolean): Piece[] => {
		const carried = keepOverlap ? overlapOf(pieces) : [];
		if (freshPieces > 0) out.push({ heading, text: render(pieces), codeLines: codeLinesOf(pieces) });
		pieces = [];
		freshPieces = 0;
		return carried;
	};

	const add = (piece: Piece) => {
		if (pieces.length && renderedLength([...pieces, piece]) > MAX_CHUNK_CHARS) {
			const carried = flush(true);
			if (renderedLength([...carried, piece]) <= MAX_CHUNK_CHARS) pieces = carried;
		}
		pieces.push(piece);
		freshPieces++;
	};

	let headingRun: string[] = [];
	// Marked headings open so far, by level: an "### Options" under "## Pool" is read as "Pool › Options".
	let outline: Array<{ level: number; text: string }> = [];
	let adjacent = true;
	let announces = false;
	// Whether the paragraph before was code; undefined at a section's start.
	let inCode: boolean | undefined;
	for (const block of blocks) {
		if (block.type === "heading") {
			flush(false);
			// A heading the markdown marks takes its place in the outline, under the open ones of lower
			// levels. A guessed one is read together with headings right before it (a section title,
			// then a table's header row), or, when a sentence ending in ":" announces it (a table's
			// header row after "The widget reports two events:"), with the section it belongs to;
			// otherwise it starts a section of its own.
			const level = block.level;
			if (level !== undefined) {
				outline = [...outline.filter(open => open.level < level), { level, text: block.text }];
				// The page's own title (level 1) only while nothing deeper is open: it is in every chunk's
				// context already, and indexing the title with every chunk measured worse in an earlier round.
				const shown = outline.length > 1 ? outline.filter(open => open.level > 1) : outline;
				headingRun = shown.map(open => open.text).slice(-HEADINGS_KEPT);
			} else if (adjacent) headingRun = [...headingRun, block.text].slice(-HEADINGS_KEPT);
			else headingRun = announces && headingRun.length > 0 ? [headingRun[0], block.text] : [block.text];
			heading = headingRun.join(HEADING_JOINER);
			adjacent = true;
			inCode = undefined;
			continue;
		}
		adjacent = false;
		announces = block.text.endsWith(":");
		const code = block.code === true;
		const opening: Piece["joiner"] = inCode !== undefined && inCode !== code ? "\n\n" : "\n";
		inCode = code;
		splitSentences(block.text).forEach((sentence, index) => {
			const parts = sentence.length > MAX_CHUNK_CHARS ? hardSplit(sentence, MAX_CHUNK_CHARS) : [sentence];
			parts.forEach((text, partIndex) => add({ text, joiner: index === 0 && partIndex === 0 ? opening : " ", code }));
		});
	}
	flush(false);
	return out;
}

/** Cuts one source into chunks (a Q&A pair is always exactly one chunk). */
export function chunkSource(source: ChunkSource): Chunk[] {
	const base = {
		chatbotId: source.chatbotId,
		sourceId: source.sourceId,
		title: source.title,
		...(source.url !== undefined ? { url: source.url } : {}),
		...(source.fileName !== undefined ? { fileName: source.fileName } : {})
	};
	if (source.kind === "qa") {
		const question = source.question.trim();
		const answer = source.answer.trim();
		return [
			{ id: chunkId(source.chatbotId, source.sourceId, 0), ...base, ordinal: 0, text: `${question}\n${answer}`, kind: "qa", question, answer }
		];
	}
	return pack(parseBlocks(source.text, source.kind === "url")).map((section, ordinal) => ({
		id: chunkId(source.chatbotId, source.sourceId, ordinal),
		...base,
		ordinal,
		text: section.text,
		...(section.heading !== undefined ? { heading: section.heading } : {}),
		codeLines: section.codeLines,
		kind: source.kind
	}));
}

/** Chunks every source, in order. */
export function chunkSources(sources: readonly ChunkSource[]): Chunk[] {
	return sources.flatMap(chunkSource);
}
