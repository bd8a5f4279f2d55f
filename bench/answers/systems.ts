/**
 * The two answerers the benchmark compares, each doing exactly what its chat service did or does:
 * the baseline (the answerer before issue 12: BM25 top 8, one-sentence coverage gate, no
 * conversation context) and the current one (lib/answer: conversation-aware query, passage
 * scoring, calibrated decision).
 */
import { answerWith, extractiveAnswer, weighEvidence } from "../../lib/answer/extractive";
import type { DecisionFeatures } from "../../lib/answer/evidence";
import { QuestionQuery, questionQuery, RETRIEVE_LIMIT, retrieveFor } from "../../lib/answer/retrieval-query";
import type { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeQuery } from "../../lib/retrieval/vectorize";
import type { Locale } from "../../lib/text/tokenize";
import { lexiconFor, spellingFor } from "../../lib/answer/lexicon";
import { extractiveAnswer as baselineAnswer } from "./baseline-extractive";

/** `ANSWERS_NO_VECTORS=1` / `ANSWERS_NO_WORDNET=1` measure the new answerer without the word vectors / the WordNet related words. */
const lexicon = (locale: Locale) => lexiconFor(locale, { vectors: !process.env.ANSWERS_NO_VECTORS, relatedWords: !process.env.ANSWERS_NO_WORDNET });
import type { Outcome } from "./evaluate";

export interface Turn {
	question: string;
	/** Earlier user questions of the conversation, oldest first. */
	history: string[];
	locale: Locale;
}

export interface SystemResult extends Outcome {
	/** The calibrated probability behind the decision (current answerer only). */
	probability?: number;
	/** What the best passage would answer, declined or not (current answerer only): for the trade-off curve. */
	candidate?: Outcome;
	/** What the decision read (current answerer only): for the probe's list of misses. */
	features?: DecisionFeatures;
}

export interface AnswerSystem {
	name: string;
	ask(index: GenerationIndex, turn: Turn): Promise<SystemResult>;
}

const BASELINE_LIMIT = 8;

export const baseline: AnswerSystem = {
	name: "baseline (before)",
	async ask(index, { question, locale }) {
		const hits = index.search(await vectorizeQuery(question, { locale }), BASELINE_LIMIT);
		const answer = baselineAnswer({ question, locale, hits });
		return { answered: answer.answered, text: answer.text, cited: answer.citations.map(c => c.sourceId) };
	}
};

/** The current answerer; `correctSpelling: false` leaves a question's slips as they are (the typo table's "no correction" row). */
function currentAnswerer(name: string, correctSpelling: boolean): AnswerSystem {
	return {
		name,
		async ask(index, { question, history, locale }) {
			const search = async (query: QuestionQuery) => index.search({ sparse: query.sparse }, RETRIEVE_LIMIT);
			const { question: asked, hits } =
				correctSpelling
					? await retrieveFor(question, history, locale, search, spellingFor(locale))
					: { question, hits: await search(questionQuery(question, history, locale)) };
			const input = { question: asked, locale, hits, history, ...lexicon(locale) };
			const answer = extractiveAnswer(input);
			const evidence = weighEvidence(input);
			const chosen = evidence.best ? answerWith(evidence) : undefined;
			const candidate = chosen ? { answered: true, text: chosen.text, cited: chosen.chunks.map(c => c.sourceId) } : { answered: false, text: "", cited: [] };
			return { answered: answer.answered, text: answer.text, cited: answer.citations.map(c => c.sourceId), probability: evidence.probability, candidate, features: evidence.features };
		}
	};
}

export const current = currentAnswerer("new", true);
export const currentWithoutSpelling = currentAnswerer("new, no spelling correction", false);
