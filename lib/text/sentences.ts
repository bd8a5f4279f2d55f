/**
 * Sentence splitting for English and Spanish prose, good enough to pick answer sentences and to
 * keep chunk boundaries between sentences.
 *
 * A line break always ends a sentence (callers join wrapped lines before splitting). Inside a line,
 * a sentence ends at . ! ? or … followed by white space and then something that can start a
 * sentence: an upper-case letter, a digit, an opening quote or bracket, or Spanish ¿ ¡. A period
 * does not end a sentence after a known abbreviation ("Dr.", "e.g.", "Sra.", "pág."), after a
 * single-letter initial ("J. Smith"), or inside a number ("3.5" has no space after the period).
 */

/** Lower-case, without the final period. Both locales share one list: the cost of a wrong hit is low. */
const ABBREVIATIONS = new Set([
	// English
	"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "etc", "e.g", "i.e", "approx", "inc",
	"ltd", "co", "corp", "dept", "est", "fig", "no", "vol", "jan", "feb", "mar", "apr", "jun", "jul",
	"aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "min",
	"max", "ave", "blvd", "rd", "u.s", "u.k", "a.m", "p.m", "ph.d",
	// Spanish
	"sra", "srta", "dra", "lic", "ing", "arq", "avda", "av", "pág", "pag", "págs", "núm", "num", "nº",
	"tel", "ud", "uds", "vd", "vds", "aprox", "admón", "cía", "dpto", "ee.uu", "s.a", "s.l", "p.ej", "ej"
]);

/** What may open the next sentence (tested on the first character after the white space). */
const SENTENCE_START = /^[\p{Lu}\p{N}¿¡"'“‘«([]/u;
/** Punctuation that can end a sentence, and closing quotes or brackets that may follow it. */
const TERMINAL = new Set([".", "!", "?", "…"]);
const CLOSING = new Set(['"', "'", "”", "’", "»", ")", "]"]);
const OPENING = new Set(["(", '"', "'", "¿", "¡", "«", "“", "‘", "["]);
const SPACE = /\s/;

/**
 * One candidate end of a sentence: a run of terminal punctuation, closing quotes or brackets, then
 * white space. Found by a scan that reads each character once; the equivalent pattern
 * `([.!?…]+)(["'”’»)\]]*)(\s+)` is retried by a regex engine from every character of a long run of
 * punctuation that is not followed by white space, which is quadratic.
 */
interface Boundary {
	punctIndex: number;
	punct: string;
	/** End of the closing quotes or brackets: where the sentence ends. */
	end: number;
	/** First character after the white space: where the next sentence starts. */
	nextStart: number;
}

function* boundaries(line: string): Generator<Boundary> {
	let i = 0;
	while (i < line.length) {
		if (!TERMINAL.has(line[i])) {
			i++;
			continue;
		}
		const punctIndex = i;
		while (i < line.length && TERMINAL.has(line[i])) i++;
		const punctEnd = i;
		while (i < line.length && CLOSING.has(line[i])) i++;
		const end = i;
		while (i < line.length && SPACE.test(line[i])) i++;
		if (i > end) yield { punctIndex, punct: line.slice(punctIndex, punctEnd), end, nextStart: i };
	}
}

/** The lower-cased word just before `index`, without opening quotes or brackets. */
function wordBefore(line: string, index: number): string {
	let start = index;
	while (start > 0 && !SPACE.test(line[start - 1])) start--;
	while (start < index && OPENING.has(line[start])) start++;
	return line.slice(start, index).toLowerCase();
}

function endsSentence(line: string, boundary: Boundary): boolean {
	if (boundary.nextStart === line.length) return true;
	if (boundary.punct.includes("?") || boundary.punct.includes("!")) return true;
	if (boundary.punct === ".") {
		const word = wordBefore(line, boundary.punctIndex);
		if (ABBREVIATIONS.has(word)) return false;
		if (/^\p{L}$/u.test(word)) return false;
		if (/^(?:\p{L}\.)+\p{L}$/u.test(word)) return false;
	}
	// Two code units, so a character outside the Basic Multilingual Plane is tested whole.
	return SENTENCE_START.test(line.slice(boundary.nextStart, boundary.nextStart + 2));
}

function splitLine(line: string, out: string[]): void {
	let start = 0;
	for (const boundary of boundaries(line)) {
		if (!endsSentence(line, boundary)) continue;
		const sentence = line.slice(start, boundary.end).trim();
		if (sentence) out.push(sentence);
		start = boundary.nextStart;
	}
	const rest = line.slice(start).trim();
	if (rest) out.push(rest);
}

/**
 * A pattern for text ending in one of `marks` (a character class's contents), closing quotes or
 * brackets allowed after it. Linear: V8 tries each candidate end once.
 */
export function endingIn(marks: string): RegExp {
	return new RegExp(`[${marks}]["'”’)\\]]*$`, "u");
}

/** A line that ends a whole sentence (".", "!", "?", "…"): not a lead-in, nor one that wraps on. */
export const ENDS_SENTENCE = endingIn(".!?…");
/** A line that ends a whole sentence or announces what follows (":"): not one that wraps on mid-sentence or at a comma. */
export const ENDS_STATEMENT = endingIn(".!?…:");

/** Splits text into trimmed, non-empty sentences, in order. */
export function splitSentences(text: string): string[] {
	const sentences: string[] = [];
	for (const line of text.split(/\r?\n/)) {
		const trimmed = line.replace(/\s+/g, " ").trim();
		if (trimmed) splitLine(trimmed, sentences);
	}
	return sentences;
}
