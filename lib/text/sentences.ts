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

/** What may open the next sentence. */
const SENTENCE_START = /^[\p{Lu}\p{N}¿¡"'“‘«([]/u;
/** Terminal punctuation, closing quotes or brackets, then the white space before the next sentence. */
const BOUNDARY = /([.!?…]+)(["'”’»)\]]*)(\s+)/g;

function lastWord(before: string): string {
	const match = /(\S+)$/.exec(before);
	return match ? match[1].replace(/^[("'¿¡«“‘[]+/, "").toLowerCase() : "";
}

function endsSentence(line: string, punctIndex: number, punct: string, next: string): boolean {
	if (next === "") return true;
	if (/[?!]/.test(punct)) return true;
	if (punct === ".") {
		const word = lastWord(line.slice(0, punctIndex));
		if (ABBREVIATIONS.has(word)) return false;
		if (/^\p{L}$/u.test(word)) return false;
		if (/^(?:\p{L}\.)+\p{L}$/u.test(word)) return false;
	}
	return SENTENCE_START.test(next);
}

function splitLine(line: string, out: string[]): void {
	let start = 0;
	for (const match of line.matchAll(BOUNDARY)) {
		const punctIndex = match.index;
		const end = punctIndex + match[1].length + match[2].length;
		const nextStart = punctIndex + match[0].length;
		if (!endsSentence(line, punctIndex, match[1], line.slice(nextStart))) continue;
		const sentence = line.slice(start, end).trim();
		if (sentence) out.push(sentence);
		start = nextStart;
	}
	const rest = line.slice(start).trim();
	if (rest) out.push(rest);
}

/** Splits text into trimmed, non-empty sentences, in order. */
export function splitSentences(text: string): string[] {
	const sentences: string[] = [];
	for (const line of text.split(/\r?\n/)) {
		const trimmed = line.replace(/\s+/g, " ").trim();
		if (trimmed) splitLine(trimmed, sentences);
	}
	return sentences;
}
