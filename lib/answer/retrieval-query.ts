/**
 * The retrieval query for a question in its conversation: BM25 over the question's own terms, plus
 * an earlier question's terms at a lower weight for a follow-up (follow-up.ts). The chat service
 * and the answer benchmark both build queries here, so what is measured is what runs.
 */
import { weightedQueryVector } from "../retrieval/sparse";
import type { SparseVector } from "../retrieval/sparse";
import type { SearchHit } from "../retrieval/vector-index";
import { weightedQuestion } from "./follow-up";
import { analyzedChunk } from "./chunk-analysis";
import { isSymbolTerm, stemsNaming } from "../text/symbols";
import { analyze, Locale } from "../text/tokenize";
import { corrected, spellingCorrections, SpellingOptions } from "./spelling";

/** Chunks retrieved per question: a pool wide enough for passages to be re-scored, small enough to stay fast. */
export const RETRIEVE_LIMIT = 16;

export interface QuestionQuery {
	sparse: SparseVector;
	/** The text to embed when dense embeddings are configured (the follow-up with its context); none for a search by words alone. */
	embedText?: string;
}

/** A lexical query for chunks holding any of `words` (each weighing the same), with nothing to embed. */
export function wordsQuery(words: readonly string[], locale: Locale): QuestionQuery {
	const weights = new Map<string, number>();
	for (const word of words) for (const term of analyze(word, locale)) weights.set(term, 1);
	return { sparse: weightedQueryVector(weights) };
}

export function questionQuery(question: string, history: readonly string[], locale: Locale): QuestionQuery {
	const weighted = weightedQuestion(question, history, locale);
	const previous = history.at(-1);
	return {
		sparse: weightedQueryVector(withSymbolNames(weighted.terms, locale)),
		embedText: weighted.usedContext && previous ? `${previous}\n${question}` : question
	};
}

/**
 * The query's terms, and for each symbol among them the stems of the words naming it, at its weight:
 * chunks indexed before symbols became terms (lib/text/symbols.ts) hold "asterisk" where chunks
 * indexed since hold "*", and a chatbot is not retrained when the service is upgraded. Chunks
 * indexed since hold no such stem, so for them the extra terms match nothing.
 */
function withSymbolNames(terms: ReadonlyMap<string, number>, locale: Locale): ReadonlyMap<string, number> {
	let out: Map<string, number> | undefined;
	for (const [term, weight] of terms) {
		if (!isSymbolTerm(term)) continue;
		out ??= new Map(terms);
		for (const stem of stemsNaming(term, locale)) out.set(stem, Math.max(out.get(stem) ?? 0, weight));
	}
	return out ?? terms;
}

export interface Retrieved {
	/** The question as answered: as asked, or with its slips corrected (spelling.ts). */
	question: string;
	hits: SearchHit[];
}

/**
 * Retrieves the chunks for a question. When the question misspells a word (spelling.ts: "suport"
 * beside the retrieved text's "Support"), it retrieves again for the corrected question, which is
 * then the one answered; the conversation keeps the question as it was asked. A slip the retrieved
 * text does not explain is looked up in the rest of the chatbot's chunks: one more search, for
 * every word one edit from it. A correction to a common word of the language rather than to a word
 * of the chatbot's text stands only when the new retrieval meets it: "fetcher", a word the lexicon
 * does not know, is not turned into "fletcher".
 */
export async function retrieveFor(
	question: string,
	history: readonly string[],
	locale: Locale,
	search: (query: QuestionQuery) => Promise<SearchHit[]>,
	spelling: SpellingOptions = {}
): Promise<Retrieved> {
	const hits = await search(questionQuery(question, history, locale));
	let corrections = await spellingCorrections(question, locale, hits, spelling, words => search(wordsQuery(words, locale)));
	if (corrections.length === 0) return { question, hits };
	let asked = corrected(question, corrections);
	let found = await search(questionQuery(asked, history, locale));
	const met = new Set(found.flatMap(hit => [...analyzedChunk(hit.chunk, locale).terms]));
	const standing = corrections.filter(c => c.from !== "lexicon" || met.has(c.term));
	if (standing.length === corrections.length) return { question: asked, hits: found };
	if (standing.length === 0) return { question, hits };
	corrections = standing;
	asked = corrected(question, corrections);
	found = await search(questionQuery(asked, history, locale));
	return { question: asked, hits: found };
}
