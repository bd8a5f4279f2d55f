/**
 * Whether the ranker's weights are at their best for what matters most, the passage holding the
 * fact ranked first: a coordinate search over `RANKER` (each weight in turn scaled, shifted or
 * zeroed, kept when more dev questions' best passage holds the fact), then the same search
 * cross-validated in five folds of the dev split. The held-out split is only reported. The
 * softmax fit of calibrate.ts optimises a smoother objective; this asks whether top-1 itself has
 * room left. Nothing is written.
 *
 * Run: `npx tsx bench/answers/ranker-search.ts`.
 */
import { answerText, MAX_ANSWER_CHARS, weighEvidence } from "../../lib/answer/extractive";
import { RANKER } from "../../lib/answer/calibration";
import { PASSAGE_FEATURES, passageFeatureVector } from "../../lib/answer/evidence";
import { lexiconFor } from "../../lib/answer/lexicon";
import { Asked, askedDevQuestions, askedHeldOutQuestions } from "./asked";
import { answersQuestion } from "./evaluate";

interface Candidate {
	features: number[];
	/** Ranked after every candidate holding the kind of value asked for, as weighEvidence ranks it. */
	lacksValue: boolean;
	hitRank: number;
	holdsFact: boolean;
}

/** Each in-scope question's candidates, read once: a weight vector is then scored without re-running the answerer. */
function candidatesOf(asked: readonly Asked[]): Candidate[][] {
	return asked
		.filter(a => !a.question.oos)
		.map(({ question, locale, hits, history }) => {
			const evidence = weighEvidence({ question: question.q, locale, hits, history, ...lexiconFor(locale) });
			return evidence.candidates.map(c => ({
				features: passageFeatureVector(c.features),
				lacksValue: c.lacksValue,
				hitRank: c.passage.hitRank,
				holdsFact: answersQuestion(question, answerText(c.passage, MAX_ANSWER_CHARS, evidence.terms), c.passage.chunk.sourceId)
			}));
		});
}

function score(weights: readonly number[], c: Candidate): number {
	let z = 0;
	for (let i = 0; i < weights.length; i++) z += weights[i] * c.features[i];
	return z;
}

/** Questions whose first-ranked candidate holds the fact (same order as weighEvidence: value first, then score, then chunk rank). */
function topOne(weights: readonly number[], questions: readonly Candidate[][]): number {
	let count = 0;
	for (const candidates of questions) {
		let best: Candidate | undefined;
		let bestScore = -Infinity;
		for (const c of candidates) {
			const s = score(weights, c);
			const better = !best || Number(c.lacksValue) < Number(best.lacksValue) || (c.lacksValue === best.lacksValue && (s > bestScore || (s === bestScore && c.hitRank < best.hitRank)));
			if (better) {
				best = c;
				bestScore = s;
			}
		}
		if (best?.holdsFact) count++;
	}
	return count;
}

/** Tried for each weight in turn; the change is kept only when strictly more questions rank right. */
const MOVES: Array<(w: number) => number> = [() => 0, w => w * 0.5, w => w * 1.5, w => w * 2, w => w * 3, w => w - 1, w => w + 1, w => -w];
const ROUNDS = 4;

function search(start: readonly number[], questions: readonly Candidate[][]): number[] {
	let weights = [...start];
	let best = topOne(weights, questions);
	for (let round = 0; round < ROUNDS; round++) {
		let improved = false;
		for (let i = 0; i < weights.length; i++) {
			for (const move of MOVES) {
				const tried = weights.map((w, j) => (j === i ? move(w) : w));
				const count = topOne(tried, questions);
				if (count > best) {
					best = count;
					weights = tried;
					improved = true;
				}
			}
		}
		if (!improved) break;
	}
	return weights;
}

async function main(): Promise<void> {
	const dev = candidatesOf(await askedDevQuestions());
	const heldOut = candidatesOf(await askedHeldOutQuestions());
	const current = PASSAGE_FEATURES.map(name => RANKER[name] ?? 0);
	const searched = search(current, dev);
	console.log(`current RANKER: top-1 holds the fact for ${topOne(current, dev)} of ${dev.length} dev questions, ${topOne(current, heldOut)} of ${heldOut.length} held-out`);
	console.log(`searched on the dev split: ${topOne(searched, dev)} dev, ${topOne(searched, heldOut)} held-out`);
	console.log(JSON.stringify(Object.fromEntries(PASSAGE_FEATURES.map((name, i) => [name, Number(searched[i].toFixed(3))]))));
	const FOLDS = 5;
	let kept = 0;
	let found = 0;
	for (let k = 0; k < FOLDS; k++) {
		const test = dev.filter((_, i) => i % FOLDS === k);
		const train = dev.filter((_, i) => i % FOLDS !== k);
		kept += topOne(current, test);
		found += topOne(search(current, train), test);
	}
	console.log(`cross-validated in ${FOLDS} folds: ${found} of ${dev.length} with the searched weights, ${kept} with the current ones`);
}

main().catch(err => {
	console.error(err instanceof Error ? err.message : err);
	process.exitCode = 1;
});
