/**
 * Text analysis shared by indexing and querying: both sides must turn text into the same terms, or
 * a question never meets the chunk that answers it.
 *
 * `analyze` lower-cases (Unicode-aware), splits into words, drops stop words, stems with the
 * Snowball stemmer of the locale and folds accents, so "garantías", "garantia" and "Garantía"
 * become one term. Numbers are kept verbatim ("37", "3.5", "1,000") because questions about
 * quantities are answered by them. Hyphenated or dotted names ("zephyr-9", "node.js") yield the
 * whole name AND its parts, so a query for the exact model name scores higher than one that only
 * shares "zephyr"; so do camelCase names ("maxRetries": "maxretri", "max", "retri").
 */
import { newStemmer, Stemmer } from "snowball-stemmers";
import { isStopWord, Locale } from "./stop-words";
import { symbolNamed, TERM_SYMBOLS } from "./symbols";

export type { Locale } from "./stop-words";
export { splitSentences } from "./sentences";

/** `TERM_SYMBOLS` as a character class of a regular expression. */
const SYMBOL_CLASS = `[${TERM_SYMBOLS.replace(/[\\\]\-^]/g, "\\$&")}]`;
/**
 * A number with separators, a word possibly joined to others by - _ . or an apostrophe, or a symbol
 * standing alone (symbols.ts): a run of one of `TERM_SYMBOLS` with a space, a bracket, a quote or
 * a comma before it and a space, a bracket, a quote or sentence punctuation after it ("-, _, or *",
 * "the > character", "***"); "-v", "1--6", "<pre>" and "**bold**" hold none. The run's repeat
 * matches one character against the one before; when what follows the run is no boundary, it gives
 * back one character at a time, and every later start inside the run fails on the look-behind, so
 * the work stays linear in the run's length.
 */
const TOKEN = new RegExp(
	`\\p{N}+(?:[.,]\\p{N}+)+|[\\p{L}\\p{M}\\p{N}]+(?:['\\-_.][\\p{L}\\p{M}\\p{N}]+)*|(?<![^\\s(\\[{"'\`,;:])(${SYMBOL_CLASS})\\1*(?![^\\s)\\]}"'\`,;:.?!])`,
	"gu"
);
const NUMBER = /^\p{N}+(?:[.,]\p{N}+)*$/u;
const COMPOUND_SEPARATOR = /[-_.]/;
/** Symbols that make a lone letter a name: a format directive ("%j", "%O"), a flag ("-v"), a variable ("$x"). */
const SYMBOL_BEFORE_LETTER = new Set(["%", "-", "$", "@", "\\"]);
/** An acronym's plural ("PDFs", "APIs"): capitals, then a lower-case "s". */
const ACRONYM_PLURAL = /^\p{Lu}{2,}s$/u;
/** A number glued to its unit ("1024b", "15s", "100ms", "5MB"): digits, then letters only. */
const NUMBER_WITH_UNIT = /^(\p{N}+)\p{L}+$/u;
/** Longer "words" are hashes, base64 or glued garbage; they only bloat the index. */
const MAX_TERM_LENGTH = 48;
/**
 * Distinct words are few compared with word occurrences, so each word's term (or its drop as a
 * stop word) is kept: accent folding, the stop-word check and stemming run once per distinct word.
 * A locale's cache is emptied when it holds this many words.
 */
const WORD_CACHE_LIMIT = 100_000;

const stemmers: Record<Locale, Stemmer> = {
	en: newStemmer("english"),
	es: newStemmer("spanish")
};
/** Per locale: a lower-case word → its term, "" when the word is dropped. */
const wordTerms: Record<Locale, Map<string, string>> = { en: new Map(), es: new Map() };

/** Only ASCII: lower-casing is then the whole normalisation, and there is no accent to fold. */
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * Removes accents but keeps "ñ": "garantía" → "garantia", "año" stays "año" (folding it would merge
 * it with a different word).
 */
export function foldAccents(word: string): string {
	return word
		.normalize("NFD")
		.replace(/(?<!n)\u0303|[\u0300-\u0302\u0304-\u036f]/g, "")
		.normalize("NFC");
}

const APOSTROPHES = /[\u2019\u02bc]/g;

/** Lower-cases and unifies typographic apostrophes, so "Don’t" and "don't" are one word. */
export function normalizeText(text: string): string {
	return text.normalize("NFKC").toLowerCase().replace(APOSTROPHES, "'");
}

/**
 * Spanish stems must not depend on whether the writer typed accents ("garantía" and "garantia"
 * stem differently as typed), yet Snowball's suffix rules expect them ("-ción", "-ía"). So the
 * word is folded first, then the accents those suffixes carry are put back by rule: every
 * spelling of a word reaches the stemmer as the same string.
 */
function canonicalSpanish(folded: string): string {
	return folded.replace(/cion$/, "ción").replace(/sion$/, "sión").replace(/ias?$/, m => (m === "ia" ? "ía" : "ías"));
}

/** The term of a lower-case word (folded, stemmed), or "" when it is dropped: a stop word, or a lone letter. */
function termOf(word: string, locale: Locale): string {
	const folded = foldAccents(word);
	if (isStopWord(folded, locale)) return "";
	if (word.length === 1 && !/\p{N}/u.test(word)) return "";
	return symbolNamed(foldAccents(stemmers[locale].stem(locale === "es" ? canonicalSpanish(folded) : folded)), locale);
}

function pushWord(word: string, locale: Locale, out: string[]): void {
	const cache = wordTerms[locale];
	let term = cache.get(word);
	if (term === undefined) {
		term = termOf(word, locale);
		if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
		cache.set(word, term);
	}
	if (term) out.push(term);
}

/** `normalizeText` of a word, which for an ASCII word is lower-casing alone. */
function lowerWord(word: string, ascii: boolean): string {
	return ascii ? word.toLowerCase() : normalizeText(word);
}

/** A lower-case letter followed by an upper-case one: the joint of a camelCase name. */
const CAMEL_JOINT = /(?<=\p{Ll})(?=\p{Lu})/u;

/** Turns text into index terms for the locale (see the file comment). Order and repeats are kept. */
export function analyze(text: string, locale: Locale): string[] {
	const terms: string[] = [];
	const normalized = NOT_ASCII.test(text) ? text.normalize("NFKC").replace(APOSTROPHES, "'") : text;
	for (const match of normalized.matchAll(TOKEN)) {
		const original = match[0];
		if (original.length > MAX_TERM_LENGTH) continue;
		// A symbol standing alone ("*", "---", ">"): the symbol is the term, however often it repeats.
		if (TERM_SYMBOLS.includes(original[0])) {
			terms.push(original[0]);
			continue;
		}
		const ascii = !NOT_ASCII.test(original);
		const token = lowerWord(original, ascii);
		// A lone letter is dropped as noise ("e.g.", "x"), but one glued to a symbol is a name: "%j JSON" answers "%j".
		if (original.length === 1 && match.index > 0 && SYMBOL_BEFORE_LETTER.has(normalized.charAt(match.index - 1)) && /\p{L}/u.test(original)) {
			terms.push(token);
			continue;
		}
		if (NUMBER.test(token)) {
			terms.push(token);
			continue;
		}
		// "maxRetries", "getSetCookies": the whole name, and its words ("max", "retries").
		// An ASCII word with no capital (lower-casing left it as it was) has no camelCase joint.
		const camel = (!ascii || token !== original) && CAMEL_JOINT.test(original);
		if (COMPOUND_SEPARATOR.test(token) || camel) {
			terms.push(ascii ? token : foldAccents(token));
			for (const part of original.split(/[-_.]+/).flatMap(p => p.split(CAMEL_JOINT))) if (part) pushWord(lowerWord(part, ascii), locale, terms);
			continue;
		}
		// "PDFs" is "PDF" (the stemmer keeps the "s" of a word without a vowel before it).
		pushWord(ACRONYM_PLURAL.test(original) ? token.slice(0, -1) : token, locale, terms);
		// "1kb = 1024b": the quantity is also the bare number, so a question's "1024" meets it.
		const withUnit = NUMBER_WITH_UNIT.exec(token);
		if (withUnit) terms.push(withUnit[1]);
	}
	return terms;
}

/** The distinct terms of `text`, for overlap tests. */
export function termSet(text: string, locale: Locale): Set<string> {
	return new Set(analyze(text, locale));
}
