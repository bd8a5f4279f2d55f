/** One candidate passage on two lines, for the diagnostics that list candidates: score, chunk rank, features, text. */
import { answerText } from "../../lib/answer/extractive";
import type { ScoredPassage } from "../../lib/answer/evidence";

export function describePassage(s: ScoredPassage): string {
	const features = Object.entries(s.features).map(([name, value]) => `${name}=${value.toFixed(2)}`).join(" ");
	return `${s.score.toFixed(2)} (chunk #${s.passage.hitRank}) ${features}\n      ${answerText(s.passage).replace(/\n/g, " ⏎ ").slice(0, 200)}`;
}
