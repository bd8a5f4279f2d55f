/**
 * Slips of the keyboard in a question ("suport", "desacled", "wararnty"), corrected to the words of
 * the text retrieved for it. A question's longest word is most often the one that says what it asks
 * about, and one slip in it took the answer benchmark's questions from 66 % to 28 % answered with
 * the fact: BM25 and the passage scores match terms, and a misspelled term matches nothing.
 *
 * A word is read as a slip only when all of these hold, so a word spelled right is left as it is:
 * - it is a plain word of at least `MIN_WORD_LETTERS` letters (`MIN_WORD_LETTERS_UNCHECKED` in a
 *   language without a lexicon), not part of a name in code ("max_retry", "getCookies") nor
 *   capitalised past the question's first word (a name);
 * - neither it nor its term is in the retrieved text (headings and page titles included), nor a
 *   derivation of a term there ("fetcher" beside "fetch", which passage scoring relates);
 * - the lexicon does not know it as a word of the language (English: the word vectors' and
 *   WordNet's words; Spanish has none, so there the other rules carry it).
 *
 * It is corrected to the one word of the retrieved text, with the same first letter, one edit away:
 * a letter dropped or added, two swapped, or a letter struck for one on a neighbouring key (in
 * English also by its term: "straemed" to "stream"). Failing that, to such a word of the chatbot's
 * other chunks, found by searching its index for every word one edit from the slip (`lookUp`, given
 * by retrieval-query.ts): a slip in the only word that could find the right page ("¿Cuándo hay
 * que dsecalcificar?") leaves no retrieved text that holds the word meant. A slip of a stop word
 * ("shuold", "thorugh") is corrected to it, since no text holds a stop word's term: in English
 * before the index is searched (the lexicon vouches the slip is no word), in Spanish after (a word
 * of the chatbot's pages may be one letter from a stop word: "estados", "estado"). Failing all, in
 * English, to the commonest known word one edit away, which the caller keeps only if retrieval
 * meets it.
 */
import type { SearchHit } from "../retrieval/vector-index";
import { isStopWord } from "../text/stop-words";
import { analyze, foldAccents, Locale } from "../text/tokenize";
import { analyzedChunk } from "./chunk-analysis";
import { formRelatedness } from "./evidence";

/** Shorter words have too many neighbours one edit away ("form"/"from") to correct safely. */
const MIN_WORD_LETTERS = 5;
/**
 * In a language without a lexicon, every word the retrieved text lacks is a suspect, and its short
 * words have neighbours of other meanings one edit away ("pagar" / "pasar", "falta" / "fallida"):
 * only longer ones are read. Six letters changes none of the benchmark's questions as written and
 * corrects more of their slips than seven (Spanish typo table 64 % -> 68 %).
 */
const MIN_WORD_LETTERS_UNCHECKED = 6;
/** Longer "words" are glued text or hashes, never a slip worth reading. */
const MAX_WORD_LETTERS = 24;
/** Terms shorter than this are too alike to match one another by their stems (Spanish "falt" / "fall"). */
const MIN_TERM_LETTERS = 5;
/** Words of one message examined at most: a long message of unknown words costs no more than this. */
const MAX_EXAMINED = 16;

/** A run of letters (a word, or a part of a name in code). */
const WORD = /\p{L}+/gu;
/** Characters that join letters into a name in code ("max_retry", "api-key", "tools/list", "bytes.parse") or a contraction ("doesn't"). */
const NAME_JOINER = /[\p{N}_\-./@$'\u2019]/u;
const CAPITAL = /\p{Lu}/u;

export interface SpellingOptions {
	/** Whether the lexicon holds the term as a word of the language: a known word is never a slip. */
	known?: (term: string) => boolean;
	/**
	 * Frequency rank of a term in general use (0 = most common), undefined for a word the lexicon
	 * does not rank: a slip no retrieved word explains is corrected to the commonest ranked word one
	 * edit away.
	 */
	rank?: (term: string) => number | undefined;
}

export interface Correction {
	/** The word as the question wrote it, and where. */
	word: string;
	at: number;
	replacement: string;
	/** The replacement's term, which the corrected question's retrieval should meet ("" for a stop word, which has none). */
	term: string;
	/**
	 * Where the replacement comes from: the retrieved text, the chatbot's other chunks (found by
	 * searching for the slip's variants), the language's stop words ("shuold", "thorugh": words the
	 * index never holds, so no text explains their slips), or the language's common words.
	 */
	from: "retrieved" | "index" | "stop word" | "lexicon";
}

/**
 * Slips of one message corrected beyond the retrieved text (by the index, then the lexicon): each
 * has a few hundred variants to analyse and look up. A question has one or two slips at most; a
 * 2,000-character message of 16 unknown 21-letter words took 28 ms in English with the lexicon
 * alone and no bound, and takes 9 ms (Spanish 6 ms) with the index and this bound.
 */
const MAX_LOOKED_UP_SLIPS = 2;

/** Finds the chatbot's chunks holding any of these words (one search of its index). */
export type LookUp = (words: readonly string[]) => Promise<readonly SearchHit[]>;

/**
 * The question's probable slips and their corrections, in the question's order; [] when it has
 * none. A slip is corrected to a word of the retrieved text; failing that, for the first
 * `MAX_LOOKED_UP_SLIPS`, to a word of the chunks `lookUp` finds for its variants, then to the
 * language's commonest word.
 */
export async function spellingCorrections(question: string, locale: Locale, hits: readonly SearchHit[], options: SpellingOptions = {}, lookUp?: LookUp): Promise<Correction[]> {
	const slips = slipsIn(question, locale, hits, options);
	if (slips.length === 0) return [];
	const retrieved = wordsOf(hits, locale);
	// Where the lexicon vouches that the slip is no word, a stop word one edit away is what was meant;
	// without one, a word of the chatbot's chunks is likelier ("estados" is no slip of "estado").
	const stopWordsFirst = WITH_LEXICON.has(locale);
	const direct = slips.map(slip => correctionFrom(slip, retrieved, locale, "retrieved") ?? (stopWordsFirst ? stopWordCorrection(slip, locale) : undefined));
	const unexplained = slips.filter((_, i) => !direct[i]).slice(0, MAX_LOOKED_UP_SLIPS);
	const indexed = lookUp && unexplained.length > 0 ? wordsOf(await lookUp(unexplained.flatMap(slip => variantsOf(slip, locale))), locale) : undefined;
	return slips.flatMap((slip, i) => {
		const found = direct[i];
		if (found) return [found];
		if (!unexplained.includes(slip)) return [];
		return (indexed && correctionFrom(slip, indexed, locale, "index")) || (stopWordsFirst ? undefined : stopWordCorrection(slip, locale)) || lexiconCorrection(slip, locale, options) || [];
	});
}

/**
 * The question's words read as slips: plain words the lexicon does not know that neither the
 * retrieved text nor a derivation of one of its terms holds; [] for most questions.
 */
function slipsIn(question: string, locale: Locale, hits: readonly SearchHit[], options: SpellingOptions = {}): Slip[] {
	// Most questions hold no word the lexicon does not know: the retrieved text is read only when one does.
	const unknown = unknownWords(question, locale, options);
	if (unknown.length === 0) return [];
	const present = new Set<string>();
	for (const { chunk } of hits) {
		const analysis = analyzedChunk(chunk, locale);
		for (const term of analysis.terms) present.add(term);
		for (const term of analysis.context) present.add(term);
	}
	// A derivation of a retrieved word ("fetcher" beside "fetch") is matched as one when passages are scored.
	return unknown.filter(w => !present.has(w.term) && ![...present].some(other => formRelatedness(w.term, other) > 0));
}

/**
 * The slip corrected to the one word of `vocabulary` (a text's words, `wordsOf`) one edit away, if
 * there is one and it is no derivation of the slip: "fetcher" is not a slip of "fetched" (passage
 * scoring relates the two, as `slipsIn` does with the retrieved text).
 */
function correctionFrom(slip: Slip, vocabulary: Vocabulary, locale: Locale, from: "retrieved" | "index"): Correction | undefined {
	const found = correction(slip, nearestIn(slip, vocabulary, locale), locale, from);
	return found && formRelatedness(slip.term, found.term) === 0 ? found : undefined;
}

/**
 * The slip corrected to a stop word of the language one edit away, preferring one of its length (a
 * swap or a struck key: "thorugh" is "through" before "though"). A stop word has no term, so the
 * correction only takes a word nothing can match out of the question.
 */
function stopWordCorrection(slip: Slip, locale: Locale): Correction | undefined {
	let best: string | undefined;
	for (const variant of variantsOf(slip, locale)) {
		if (!isStopWord(variant, locale)) continue;
		if (!best || (best.length !== slip.folded.length && variant.length === slip.folded.length)) best = variant;
	}
	return best === undefined ? undefined : { word: slip.word, at: slip.at, replacement: best, term: "", from: "stop word" };
}

/** In a language with a lexicon, the slip corrected to the commonest known word one edit away. */
function lexiconCorrection(slip: Slip, locale: Locale, options: SpellingOptions): Correction | undefined {
	return correction(slip, commonestKnown(slip, locale, options), locale, "lexicon");
}

function correction(slip: Slip, replacement: string | undefined, locale: Locale, from: Correction["from"]): Correction | undefined {
	const [term] = replacement ? analyze(replacement, locale) : [];
	return replacement && term ? { word: slip.word, at: slip.at, replacement, term, from } : undefined;
}

/**
 * The words one edit from the slip that keep its first letter, as `editDistance` counts edits: what
 * the chatbot's index is searched for when the retrieved text holds none of them.
 */
function variantsOf(slip: Slip, locale: Locale): string[] {
	const out = new Set<string>();
	for (const variant of edits(slip.folded, ALPHABETS[locale])) if (variant[0] === slip.folded[0]) out.add(variant);
	return [...out];
}

/** The question with the corrections made. */
export function corrected(question: string, corrections: readonly Correction[]): string {
	let out = question;
	// Right to left, so earlier offsets stay valid as words change length.
	for (const c of [...corrections].sort((a, b) => b.at - a.at)) out = out.slice(0, c.at) + c.replacement + out.slice(c.at + c.word.length);
	return out;
}

interface Slip {
	word: string;
	/** Lower-case, accents folded. */
	folded: string;
	/** Its term (stemmed): a slip before a suffix ("straemed") is nearer the right stem than the right word. */
	term: string;
	at: number;
}

/**
 * Whether the letters `word` at `at` in `text` stand as a plain word: no name in code (nothing such
 * as "_", "-", "." or a digit touching it) and no name (no capital, past the first letter of the
 * `opening` word).
 */
export function isPlainWord(text: string, at: number, word: string, opening: boolean): boolean {
	if (NAME_JOINER.test(text.charAt(at - 1)) || NAME_JOINER.test(text.charAt(at + word.length))) return false;
	return !CAPITAL.test(opening ? word.slice(1) : word);
}

/** Plain words of the question, long enough, whose single term the lexicon does not know: slips, if the retrieved text lacks them too. */
function unknownWords(question: string, locale: Locale, { known }: SpellingOptions): Slip[] {
	const out: Slip[] = [];
	const minLetters = WITH_LEXICON.has(locale) ? MIN_WORD_LETTERS : MIN_WORD_LETTERS_UNCHECKED;
	let examined = 0;
	let first = true;
	for (const match of question.matchAll(WORD)) {
		const word = match[0];
		const at = match.index;
		const opening = first;
		first = false;
		if (word.length < minLetters || word.length > MAX_WORD_LETTERS || !isPlainWord(question, at, word, opening)) continue;
		if (++examined > MAX_EXAMINED) break;
		const terms = analyze(word, locale);
		if (terms.length !== 1 || known?.(terms[0])) continue;
		out.push({ word, folded: foldAccents(word.toLowerCase()), term: terms[0], at });
	}
	return out;
}

interface Vocabulary {
	/** Words of the retrieved text: lower-case, accents folded → as written (lower-case) and how often. */
	words: Map<string, { word: string; count: number }>;
	/** Their terms → the commonest word with that term, and how often the term occurs. */
	terms: Map<string, { word: string; count: number }>;
}

/** The words of the hits' text (headings and page titles included), to correct slips to. */
function wordsOf(hits: readonly SearchHit[], locale: Locale): Vocabulary {
	const words = new Map<string, { word: string; count: number }>();
	for (const { chunk } of hits) {
		for (const text of [chunk.text, chunk.heading ?? "", chunk.title]) {
			for (const match of text.matchAll(WORD)) {
				const word = match[0].toLowerCase();
				if (word.length < MIN_WORD_LETTERS - 1 || word.length > MAX_WORD_LETTERS + 2) continue;
				const folded = foldAccents(word);
				const entry = words.get(folded);
				if (entry) entry.count++;
				else words.set(folded, { word, count: 1 });
			}
		}
	}
	const terms = new Map<string, { word: string; count: number; best: number }>();
	for (const { word, count } of words.values()) {
		const [term] = analyze(word, locale);
		if (!term) continue;
		const entry = terms.get(term);
		if (!entry) terms.set(term, { word, count, best: count });
		else {
			entry.count += count;
			if (count > entry.best) Object.assign(entry, { word, best: count });
		}
	}
	return { words, terms };
}

/**
 * The word of `vocabulary` nearest to the slip, by its letters or, in a language with a lexicon, by
 * its term: Spanish words one edit apart by their stems are as often different words ("contest" of
 * "contesta" and "content") as slips.
 */
function nearestIn(suspect: Slip, vocabulary: Vocabulary, locale: Locale): string | undefined {
	const byLetters = nearest(suspect.folded, vocabulary.words);
	if (byLetters || !WITH_LEXICON.has(locale) || suspect.term.length < MIN_TERM_LETTERS) return byLetters;
	return nearest(suspect.term, vocabulary.terms);
}

/** The one key of `candidates` one edit from `key`; undefined when none is, or two are and are equally common. */
function nearest(key: string, candidates: ReadonlyMap<string, { word: string; count: number }>): string | undefined {
	const budget = 1;
	let best: { word: string; distance: number; count: number } | undefined;
	let tied = false;
	for (const [candidate, { word, count }] of candidates) {
		if (candidate[0] !== key[0] || Math.abs(candidate.length - key.length) > budget) continue;
		const distance = editDistance(key, candidate, budget);
		if (distance > budget) continue;
		if (!best || distance < best.distance || (distance === best.distance && count > best.count)) {
			best = { word, distance, count };
			tied = false;
		} else if (distance === best.distance && count === best.count) tied = true;
	}
	return best && !tied ? best.word : undefined;
}

/** Letters a slip may have dropped or added, per locale (accents are folded before comparing). */
const ALPHABETS: Readonly<Record<Locale, string>> = { en: "abcdefghijklmnopqrstuvwxyz", es: "abcdefghijklmnopqrstuvwxyzñ" };
/** Locales whose lexicon knows the words of the language (lexicon.ts): the others correct only to words of the chatbot's text. */
const WITH_LEXICON: ReadonlySet<Locale> = new Set(["en"]);

/** The commonest word of the language among the slip's variants (`variantsOf`); undefined without a lexicon. */
function commonestKnown(slip: Slip, locale: Locale, { rank }: SpellingOptions): string | undefined {
	if (!rank || !WITH_LEXICON.has(locale)) return undefined;
	let best: { word: string; rank: number } | undefined;
	for (const variant of variantsOf(slip, locale)) {
		const terms = analyze(variant, locale);
		const r = terms.length === 1 ? rank(terms[0]) : undefined;
		if (r !== undefined && (!best || r < best.rank)) best = { word: variant, rank: r };
	}
	return best?.word;
}

/** Every string one edit away from `word` (as `editDistance` counts edits). */
function* edits(word: string, letters: string): Generator<string> {
	for (let i = 0; i <= word.length; i++) {
		const head = word.slice(0, i);
		const tail = word.slice(i);
		if (tail) yield head + tail.slice(1);
		if (tail.length > 1) yield head + tail[1] + tail[0] + tail.slice(2);
		for (const letter of letters) {
			if (tail && besideOnKeyboard(tail[0], letter)) yield head + letter + tail.slice(1);
			yield head + letter + tail;
		}
	}
}

/**
 * Neighbours of each letter on a QWERTY keyboard (Spanish keyboards place the letters alike). A
 * letter struck for another is a slip when the two keys touch; "parsing" for "parting" or "pagar"
 * for "pasar" are other words.
 */
const KEY_NEIGHBOURS: Readonly<Record<string, string>> = {
	q: "wa", w: "qeas", e: "wrsd", r: "etdf", t: "ryfg", y: "tugh", u: "yihj", i: "uojk", o: "ipkl", p: "ol",
	a: "qwsz", s: "adwezx", d: "sferxc", f: "dgrtcv", g: "fhtyvb", h: "gjyubn", j: "hkuinm", k: "jliom", l: "kop",
	z: "asx", x: "zcsd", c: "xvdf", v: "cbfg", b: "vngh", n: "bmhj", m: "njk"
};

function besideOnKeyboard(a: string, b: string): boolean {
	return KEY_NEIGHBOURS[a]?.includes(b) ?? false;
}

/**
 * Edits between two words (a letter added or dropped, a letter struck for a neighbouring key, two
 * adjacent letters swapped; any other change of letter counts two), or `budget + 1` as soon as it
 * must exceed `budget`.
 */
export function editDistance(a: string, b: string, budget: number): number {
	let before = new Array<number>(b.length + 1).fill(0);
	let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = new Array<number>(b.length + 1);
		row[0] = i;
		let smallest = row[0];
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : besideOnKeyboard(a[i - 1], b[j - 1]) ? 1 : 2;
			let d = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
			row[j] = d;
			if (d < smallest) smallest = d;
		}
		if (smallest > budget) return budget + 1;
		before = previous;
		previous = row;
	}
	return Math.min(previous[b.length], budget + 1);
}
