/**
 * Candidate answer passages from retrieved chunks: every span of up to `MAX_SPAN_UNITS` adjacent
 * sentences of a chunk, and every list (a run of short lines: list items, table rows) kept whole
 * with the line that introduces it. Spans never leave their chunk, so a passage always sits under
 * one heading of one source, which is what it cites.
 *
 * A line that announces what follows ("Connecting through a proxy is possible by:") is also a
 * candidate with the lines it introduces, and so is a list that runs to its chunk's end, with the
 * list's continuation at the start of the next chunk of the same section when that chunk was
 * retrieved too: a list cut by the chunker is answered whole. A line announcing what follows that
 * ends its chunk goes on into the table it announces, which the chunker put in a subsection.
 *
 * A Q&A pair is one passage: its answer, matched on question and answer together.
 */
import { Chunk, HEADING_JOINER } from "../retrieval/chunker";
import type { SearchHit } from "../retrieval/vector-index";
import { analyze, Locale } from "../text/tokenize";
import { analyzedChunk, Unit } from "./chunk-analysis";

/** Longest span of adjacent sentences considered as one answer. */
export const MAX_SPAN_UNITS = 3;
/** A list passage stops growing at this many items. */
const MAX_LIST_ITEMS = 12;
/** A line this short, holding one sentence or none, can be a list item or a table row. */
const LIST_LINE_MAX_CHARS = 180;
const MIN_LIST_ITEMS = 3;
/** A paragraph up to this long is also a candidate as a whole. */
const MAX_LINE_CHARS = 600;
/** A line announcing what follows takes at most this many characters of the lines after it. */
const LEAD_IN_FOLLOW_CHARS = 600;
const LEAD_IN = /:\s*$/;

export interface Passage {
	chunk: Chunk;
	/** Rank of the chunk in the retrieval results, from 0. */
	hitRank: number;
	/** Retrieval score of the chunk (comparable only within one result list). */
	hitScore: number;
	/** The sentences or lines of the passage, in reading order. */
	parts: string[];
	/** Line breaks between parts (a list's items, a table's rows) are kept when rendered. */
	lineBreaks: boolean[];
	terms: Set<string>;
	/** The analysed terms of each part, in the order of `parts`. */
	partTerms: string[][];
	/** Whether each part is a line of code (an example, a command), in the order of `parts`. */
	code: boolean[];
	/** The analysed terms in reading order (for the proximity of matched words). */
	sequence: string[];
	/** A whole list or table rather than a span of sentences. */
	isList: boolean;
	/** A Q&A pair's answer. */
	isQa: boolean;
	/** The sentence right after the span in the same paragraph, if any (an answer may take it along). */
	following?: string;
	/**
	 * When that sentence announces what follows ("Expect questions about:"): it and the lines it
	 * introduces, which an answer gives after the span rather than stop on the promise. Not scored:
	 * the span is chosen for what it says.
	 */
	announced?: { parts: string[]; lineBreaks: boolean[] };
}

function unitsOf(chunk: Chunk, locale: Locale): readonly Unit[] {
	return analyzedChunk(chunk, locale).units;
}

function passage(hit: SearchHit, hitRank: number, units: Unit[], isList: boolean, next?: Unit, introduced?: readonly Unit[]): Passage {
	const sequence = units.flatMap(u => u.terms);
	return {
		chunk: hit.chunk,
		hitRank,
		hitScore: hit.score,
		parts: units.map(u => u.text),
		partTerms: units.map(u => u.terms),
		code: units.map(u => u.code),
		lineBreaks: lineBreaksOf(units),
		terms: new Set(sequence),
		sequence,
		isList,
		isQa: false,
		...(next && next.line === units[units.length - 1].line ? continuing(next, introduced) : {})
	};
}

/** What an answer may give after a span: the next sentence, or one announcing what follows with what it introduces (never the promise alone). */
function continuing(next: Unit, introduced: readonly Unit[] | undefined): Pick<Passage, "following" | "announced"> {
	if (!isLeadIn(next.text)) return { following: next.text };
	if (!introduced || introduced.length === 0) return {};
	const units = [next, ...introduced];
	return { announced: { parts: units.map(u => u.text), lineBreaks: lineBreaksOf(units) } };
}

/** For each unit, whether it starts a new line (list items and rows are given one per line). */
function lineBreaksOf(units: readonly Unit[]): boolean[] {
	return units.map((u, i) => i > 0 && u.line !== units[i - 1].line);
}

/** The units grouped by line, in reading order (units come in line order). */
function linesOf(units: readonly Unit[]): Unit[][] {
	const lines: Unit[][] = [];
	for (const unit of units) {
		const last = lines.at(-1);
		if (last && last[0].line === unit.line) last.push(unit);
		else lines.push([unit]);
	}
	return lines;
}

/** A line short enough, and of one sentence, to be a list item or a table row. */
function isRow(line: readonly Unit[]): boolean {
	return line.length === 1 && line[0].text.length <= LIST_LINE_MAX_CHARS;
}

/** A line that announces what follows ("The widget reports two events:"). */
function announces(line: readonly Unit[]): boolean {
	return isLeadIn(line[line.length - 1].text);
}

/** Whether a sentence announces what follows it ("Connecting through a proxy is possible by:"). */
export function isLeadIn(sentence: string): boolean {
	return LEAD_IN.test(sentence);
}

/** Runs of at least `MIN_LIST_ITEMS` rows, with a lead-in line ending in ":" if one precedes. */
function listRuns(lines: readonly Unit[][]): Unit[][] {
	const runs: Unit[][] = [];
	let run: Unit[] = [];
	const close = (index: number) => {
		if (run.length >= MIN_LIST_ITEMS) {
			const before = lines[index - run.length - 1];
			const lead = before && before.length === 1 && announces(before) ? before : [];
			runs.push([...lead, ...run.slice(0, MAX_LIST_ITEMS)]);
		}
		run = [];
	};
	lines.forEach((line, index) => {
		// A blank line before it (where code begins or ends) ends the run; so does a line announcing
		// something of its own, which leads the next one.
		if (run.length > 0 && line[0].line !== run[run.length - 1].line + 1) close(index);
		if (isRow(line) && !announces(line)) run.push(line[0]);
		else close(index);
	});
	close(lines.length);
	return runs;
}

/**
 * The opening lines of the next chunk of the same section, if it was retrieved too (a list the
 * chunker cut), after the lines it repeats from the end of this chunk (the chunker's overlap).
 * With `intoSubsection` (a line announcing what follows ends the chunk), the next chunk may also
 * be a subsection of this one, such as the table the line announces ("The widget reports two
 * events:", then "Usage beacons › Event Sent when"), whose own heading (the table's header row)
 * then leads its lines.
 */
function continuationOf(hit: SearchHit, units: readonly Unit[], byPosition: ReadonlyMap<string, SearchHit>, locale: Locale, intoSubsection = false): Unit[] {
	const next = byPosition.get(`${hit.chunk.sourceId}\u0000${hit.chunk.ordinal + 1}`);
	if (!next) return [];
	const heading = hit.chunk.heading ?? "";
	const nextHeading = next.chunk.heading ?? "";
	const subsection = intoSubsection && heading !== "" && nextHeading.startsWith(heading + HEADING_JOINER) ? nextHeading.slice(heading.length + HEADING_JOINER.length) : undefined;
	if (nextHeading !== heading && subsection === undefined) return [];
	const following = unitsOf(next.chunk, locale);
	const fresh = following.slice(repeatedOpening(units, following));
	// The announced table: its header row, then its rows up to the first paragraph, which speaks of something else.
	const continued = subsection === undefined ? untilNextLeadIn(linesOf(fresh)) : [{ text: subsection, line: -1, terms: analyze(subsection, locale), code: false }, ...rowsOf(fresh)];
	return takeLines(continued.map(u => ({ ...u, line: u.line + CONTINUED_LINE })), LEAD_IN_FOLLOW_CHARS);
}

/** The opening rows of `units`, up to the first line that is not a row. */
function rowsOf(units: readonly Unit[]): Unit[] {
	const rows: Unit[] = [];
	for (const line of linesOf(units)) {
		if (!isRow(line)) break;
		rows.push(line[0]);
	}
	return rows;
}

/** How many opening units of `next` repeat the closing units of `units`, in order (the longest such run). */
function repeatedOpening(units: readonly Unit[], next: readonly Unit[]): number {
	for (let k = Math.min(units.length, next.length); k > 0; k--) {
		const tail = units.length - k;
		let same = true;
		for (let i = 0; i < k && same; i++) same = units[tail + i].text === next[i].text;
		if (same) return k;
	}
	return 0;
}

/** The units of `lines` before the next line that announces something of its own ("Each is one small request:"). */
function untilNextLeadIn(lines: readonly Unit[][]): Unit[] {
	const end = lines.findIndex((line, index) => index > 0 && announces(line));
	return (end < 0 ? lines : lines.slice(0, end)).flat();
}

/** Line numbers of a continuation chunk are shifted past any real line of the chunk before it. */
const CONTINUED_LINE = 1_000_000;

/** Whole lines from the start of `units`, at most `maxChars` long together (at least one line). */
function takeLines(units: readonly Unit[], maxChars: number): Unit[] {
	const out: Unit[] = [];
	let length = 0;
	for (const unit of units) {
		const newLine = out.length > 0 && unit.line !== out[out.length - 1].line;
		if (newLine && length + unit.text.length > maxChars) break;
		if (out.length >= MAX_LIST_ITEMS * 2) break;
		out.push(unit);
		length += unit.text.length + 1;
	}
	return out;
}

function withSequence(sequence: string[]): { terms: Set<string>; sequence: string[] } {
	return { terms: new Set(sequence), sequence };
}

/** Every candidate passage of the hits, best-ranked chunk first. */
export function passagesOf(hits: readonly SearchHit[], locale: Locale): Passage[] {
	const out: Passage[] = [];
	const byPosition = new Map(hits.map(hit => [`${hit.chunk.sourceId}\u0000${hit.chunk.ordinal}`, hit]));
	hits.forEach((hit, hitRank) => {
		const { chunk } = hit;
		if (chunk.kind === "qa" && chunk.answer) {
			const answerTerms = analyze(chunk.answer, locale);
			out.push({
				chunk,
				hitRank,
				hitScore: hit.score,
				parts: [chunk.answer],
				partTerms: [answerTerms],
				code: [false],
				lineBreaks: [false],
				...withSequence([...analyze(chunk.question ?? "", locale), ...answerTerms]),
				isList: false,
				isQa: true
			});
			return;
		}
		const units = unitsOf(chunk, locale);
		const lines = linesOf(units);
		// A whole line (a paragraph, a list item, a table row) is a candidate even past MAX_SPAN_UNITS sentences.
		for (const lineUnits of lines) {
			if (lineUnits.length > MAX_SPAN_UNITS && lineUnits.reduce((n, u) => n + u.text.length, 0) <= MAX_LINE_CHARS && !announces(lineUnits)) out.push(passage(hit, hitRank, lineUnits, false));
		}
		// A line announcing what follows, with the lines it introduces.
		const introducedBy = new Map<Unit, Unit[]>();
		let unitsSoFar = 0;
		lines.forEach((line, index) => {
			unitsSoFar += line.length;
			if (!announces(line)) return;
			// Within one chunk the announcing line keeps what follows past its rows, up to the next line
			// announcing something: stopping at the last row (as into an announced subsection) answered
			// 65 % / 60 % of the dev / held-out questions against 67 % / 63 %.
			const after = takeLines(untilNextLeadIn(lines.slice(index + 1)), LEAD_IN_FOLLOW_CHARS);
			const reachesEnd = unitsSoFar + after.length === units.length;
			const introduced = [...after, ...(reachesEnd ? continuationOf(hit, units, byPosition, locale, after.length === 0) : [])];
			if (introduced.length > 0) introducedBy.set(line[line.length - 1], introduced);
		});
		// Spans stay within one line: a paragraph, a list item or a table row is one thought.
		for (let start = 0; start < units.length; start++) {
			for (let length = 1; length <= MAX_SPAN_UNITS && start + length <= units.length; length++) {
				if (units[start + length - 1].line !== units[start].line) break;
				// A span ending on a sentence that announces what follows would answer with a promise: the
				// sentence is a candidate with what it introduces (below).
				if (isLeadIn(units[start + length - 1].text)) continue;
				const next = units[start + length];
				out.push(passage(hit, hitRank, units.slice(start, start + length), false, next, next && introducedBy.get(next)));
			}
		}
		for (const run of listRuns(lines)) {
			const atEnd = run[run.length - 1] === units[units.length - 1];
			const continued = atEnd ? continuationOf(hit, units, byPosition, locale) : [];
			out.push(passage(hit, hitRank, [...run, ...continued], true));
		}
		for (const [lead, introduced] of introducedBy) out.push(passage(hit, hitRank, [lead, ...introduced], true));
	});
	return out;
}

/** The passage as answer text: parts joined by spaces, list items and rows by line breaks. */
export function renderPassage(p: Pick<Passage, "parts" | "lineBreaks">): string {
	return p.parts.map((part, i) => (i === 0 ? part : (p.lineBreaks[i] ? "\n" : " ") + part)).join("");
}
