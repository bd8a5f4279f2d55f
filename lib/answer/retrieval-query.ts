/**
 * The retrieval query for a question in its conversation: BM25 over the question's own terms, plus
 * an earlier question's terms at a lower weight for a follow-up (follow-up.ts). The chat service
 * and the answer benchmark both build queries here, so what is measured is what runs.
 */
import { weightedQueryVector } from "../retrieval/sparse";
import type { SparseVector } from "../retrieval/sparse";
import type { Locale } from "../text/tokenize";
import { weightedQuestion } from "./follow-up";

/** Chunks retrieved per question: a pool wide enough for passages to be re-scored, small enough to stay fast. */
export const RETRIEVE_LIMIT = 16;

export interface QuestionQuery {
	sparse: SparseVector;
	/** The text to embed when dense embeddings are configured (the follow-up with its context). */
	embedText: string;
}

export function questionQuery(question: string, history: readonly string[], locale: Locale): QuestionQuery {
	const weighted = weightedQuestion(question, history, locale);
	const previous = history.at(-1);
	return {
		sparse: weightedQueryVector(weighted.terms),
		embedText: weighted.usedContext && previous ? `${previous}\n${question}` : question
	};
}
