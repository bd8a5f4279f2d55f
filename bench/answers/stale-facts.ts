/**
 * In-scope questions whose facts their pages no longer hold. The project's own documentation is one
 * of the corpora and keeps changing: a question written when "messaging channels are not available
 * yet" was true would otherwise count every correct answer as wrong. Out-of-scope questions cannot
 * be checked this way (a page gaining their answer is found by reading the misses).
 */
import { loadCorpus } from "./corpus";
import { CORPORA, QUESTIONS } from "./dev-set";
import { holdsFact } from "./evaluate";

export interface StaleQuestion {
	id: string;
	/** Facts none of the question's pages holds. */
	missing: string[];
}

export function staleFacts(): StaleQuestion[] {
	const pageTexts = new Map<string, string>();
	for (const corpus of CORPORA) for (const page of loadCorpus(corpus)) pageTexts.set(`${corpus.name}/${page.key}`, `${page.title}\n${page.text}`);
	const stale: StaleQuestion[] = [];
	for (const question of QUESTIONS) {
		if (question.oos) continue;
		const texts = question.pages.map(key => pageTexts.get(`${question.corpus}/${key}`) ?? "");
		const missing = question.facts.filter(fact => !texts.some(text => holdsFact(text, fact)));
		if (missing.length > 0) stale.push({ id: question.id, missing });
	}
	return stale;
}
