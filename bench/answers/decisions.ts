/**
 * Where the answer-or-decline decision stands on the dev split (never the held-out split): every
 * dev question with the calibrated probability of its best passage and the decision features,
 * highest probability first, marked OOS (out of scope: should be declined), HIT (the best passage
 * holds the fact: should be answered) or MISS (it does not: a ranking miss, see ranker-misses.ts).
 * The OOS questions just above the HITs the threshold declines are what keeps the threshold up.
 *
 * Run: `npx tsx bench/answers/decisions.ts [OOS|HIT|MISS]`.
 */
import { answerText, MAX_ANSWER_CHARS, weighEvidence } from "../../lib/answer/extractive";
import { lexiconFor } from "../../lib/answer/lexicon";
import { askedDevQuestions } from "./asked";
import { answersQuestion } from "./evaluate";

type Kind = "OOS" | "HIT" | "MISS";

async function main(): Promise<void> {
	const only = process.argv[2] as Kind | undefined;
	const rows: Array<{ kind: Kind; probability: number; text: string }> = [];
	for (const { question, locale, hits, history } of await askedDevQuestions()) {
		const evidence = weighEvidence({ question: question.q, locale, hits, history, ...lexiconFor(locale) });
		const best = evidence.best;
		const answer = best ? answerText(best.passage, MAX_ANSWER_CHARS, evidence.terms) : "";
		const holds = !!best && answersQuestion(question, answer, best.passage.chunk.sourceId);
		const kind: Kind = question.oos ? "OOS" : holds ? "HIT" : "MISS";
		const features = Object.entries(evidence.features).map(([name, value]) => `${name}=${value.toFixed(2)}`).join(" ");
		rows.push({
			kind,
			probability: evidence.probability,
			text: `${kind.padEnd(4)} p=${evidence.probability.toFixed(2)} ${question.id} ${question.q}\n      ${features}\n      > ${answer.replace(/\n/g, " ⏎ ").slice(0, 160)}`
		});
	}
	rows.sort((a, b) => b.probability - a.probability);
	for (const row of rows) if (!only || row.kind === only) console.log(row.text);
}

main().catch(err => {
	console.error(err);
	process.exitCode = 1;
});
