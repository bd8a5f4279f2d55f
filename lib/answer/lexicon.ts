/**
 * The related-words lexicon of each locale, for passage scoring (evidence.ts): English reads the
 * compact word vectors (lib/text/word-vectors.ts) and the WordNet synonyms and derivations
 * (lib/text/related-words.ts) shipped in assets/, a pair of terms being as related as the stronger
 * of the two says, and not at all when WordNet calls them opposites; Spanish has neither, and
 * relies on shared word stems alone. Loaded once per process, on first use.
 */
import * as path from "node:path";
import type { Locale } from "../text/tokenize";
import { readRelatedWords, RelatedWords } from "../text/related-words";
import { readWordVectors, vectorRelatedness, WordVectors } from "../text/word-vectors";
import type { RelatednessFn } from "./evidence";
import type { SpellingOptions } from "./spelling";

const ENGLISH_VECTORS = path.resolve(__dirname, "../../assets/word-vectors.en.bin");
const ENGLISH_RELATED_WORDS = path.resolve(__dirname, "../../assets/related-words.en.bin");

export interface Lexicon {
	/** Relatedness of two analysed terms in [0, 1]. */
	related?: RelatednessFn;
	/** Frequency rank of a term in general use (0 = most common); undefined for a rare or unknown term. */
	rank?: (term: string) => number | undefined;
}

let english: { vectors?: WordVectors; words?: RelatedWords } | undefined;

/** Loads the English vectors and related words now (the chat service does at start, so the first question is not slower). */
export function loadLexicons(): void {
	if (english) return;
	english = { vectors: readWordVectors(ENGLISH_VECTORS), words: readRelatedWords(ENGLISH_RELATED_WORDS) };
}

/** Which resources a lexicon uses (all by default; the benchmark measures each one's part). */
export interface LexiconParts {
	vectors?: boolean;
	relatedWords?: boolean;
}

/**
 * The stronger of the two signals, except that WordNet's opposites are never related, however close
 * the vectors put them (related-words.ts says why). Opposites have no WordNet relatedness of their
 * own, so the opposite lookup is needed only when the vectors say more than WordNet.
 */
function combinedRelatedness(byVectors: RelatednessFn | undefined, words: RelatedWords | undefined): RelatednessFn | undefined {
	if (!words) return byVectors;
	if (!byVectors) return (a, b) => words.relatedness(a, b);
	return (a, b) => {
		const listed = words.relatedness(a, b);
		const close = byVectors(a, b);
		if (close <= listed) return listed;
		return words.opposite(a, b) ? 0 : close;
	};
}

/** The lexicon of the locale; empty when the locale has none. */
export function lexiconFor(locale: Locale, parts: LexiconParts = {}): Lexicon {
	if (locale !== "en") return {};
	loadLexicons();
	const vectors = parts.vectors === false ? undefined : english?.vectors;
	const words = parts.relatedWords === false ? undefined : english?.words;
	const related = combinedRelatedness(vectors ? vectorRelatedness(vectors) : undefined, words);
	return { ...(related ? { related } : {}), ...(vectors ? { rank: (term: string) => vectors.rank(term) } : {}) };
}

/**
 * What spelling correction (spelling.ts) knows of the locale: the frequency rank of English words
 * (the word vectors' order), and every word the vectors or WordNet hold as a word, never a slip.
 */
export function spellingFor(locale: Locale): SpellingOptions {
	if (locale !== "en") return {};
	loadLexicons();
	const vectors = english?.vectors;
	const words = english?.words;
	if (!vectors) return {};
	return { rank: term => vectors.rank(term), known: term => vectors.has(term) || (words?.has(term) ?? false) };
}
