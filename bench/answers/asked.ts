/**
 * The dev split's questions asked of their corpus's index as the chat service asks them (each turn
 * with the earlier questions of its conversation), with the retrieved hits: what the fitting
 * (calibrate.ts) and the ranker diagnosis (ranker-misses.ts) both start from. Never the held-out split,
 * which only `askedHeldOutQuestions` returns, for checks that fit nothing (ranker-search.ts).
 */
import { questionQuery, RETRIEVE_LIMIT } from "../../lib/answer/retrieval-query";
import type { SearchHit } from "../../lib/retrieval/vector-index";
import type { Locale } from "../../lib/text/tokenize";
import { CORPORA, DevQuestion, isHeldOut, QUESTIONS } from "./dev-set";
import { indexCorpus } from "./index-corpus";

export interface Asked {
	question: DevQuestion;
	locale: Locale;
	hits: SearchHit[];
	history: string[];
}

export async function askedDevQuestions(): Promise<Asked[]> {
	return asked(false);
}

/** The held-out split asked the same way: to report on, never to fit. */
export async function askedHeldOutQuestions(): Promise<Asked[]> {
	return asked(true);
}

async function asked(heldOut: boolean): Promise<Asked[]> {
	const out: Asked[] = [];
	for (const corpus of CORPORA) {
		const index = await indexCorpus(corpus);
		const histories = new Map<string, string[]>();
		for (const question of QUESTIONS.filter(q => q.corpus === corpus.name)) {
			const history = question.conv ? (histories.get(question.conv) ?? []) : [];
			if (question.conv) histories.set(question.conv, [...history, question.q]);
			if (isHeldOut(question) !== heldOut) continue;
			const hits = index.search({ sparse: questionQuery(question.q, history, corpus.locale).sparse }, RETRIEVE_LIMIT);
			out.push({ question, locale: corpus.locale, hits, history });
		}
	}
	return out;
}
