/**
 * Where the passage ranker goes wrong on the dev split (never the held-out split): for each
 * in-scope dev question whose best-ranked passage does not hold the fact, the position of the first
 * candidate that does (-1: no candidate does, so retrieval missed it), the top passage and that
 * one, each with its features. The calibrated decision plays no part, so this separates ranking
 * misses from declines. A fact is found as the benchmark finds it (a number only whole: "5" is not in "500").
 *
 * Run: `npx tsx bench/answers/ranker-misses.ts [id,id…]` (`TOPN=5` also lists the first candidates).
 */
import { answerText, MAX_ANSWER_CHARS, weighEvidence } from "../../lib/answer/extractive";
import type { ScoredPassage } from "../../lib/answer/evidence";
import { describePassage } from "./describe";
import { lexiconFor } from "../../lib/answer/lexicon";
import { askedDevQuestions } from "./asked";
import { answersQuestion } from "./evaluate";

async function main(): Promise<void> {
	const only = process.argv[2]?.split(",");
	const topN = Number(process.env.TOPN ?? 0);
	let top = 0;
	let found = 0;
	let asked = 0;
	for (const { question, locale, hits, history } of await askedDevQuestions()) {
		if (question.oos || (only && !only.includes(question.id))) continue;
		const evidence = weighEvidence({ question: question.q, locale, hits, history, ...lexiconFor(locale) });
		const holds = (s: ScoredPassage) => answersQuestion(question, answerText(s.passage, MAX_ANSWER_CHARS, evidence.terms), s.passage.chunk.sourceId);
		const position = evidence.candidates.findIndex(holds);
		asked++;
		if (position === 0) top++;
		if (position >= 0) found++;
		if (position === 0) continue;
		console.log(`\n${question.id} first holding the fact: ${position}  p=${evidence.probability.toFixed(2)}  ${question.q}  facts=${JSON.stringify(question.facts)}`);
		if (evidence.candidates[0]) console.log(`   top:  ${describePassage(evidence.candidates[0])}`);
		if (position > 0) console.log(`   fact: ${describePassage(evidence.candidates[position])}`);
		for (const s of evidence.candidates.slice(0, topN)) console.log(`   - ${describePassage(s)}`);
	}
	console.log(`\nbest passage holds the fact: ${top} of ${asked}; some candidate does: ${found} of ${asked}`);
}

main().catch(err => {
	console.error(err);
	process.exitCode = 1;
});
