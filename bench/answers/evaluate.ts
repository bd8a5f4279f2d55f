/**
 * Scoring of one answer against a dev-set question, and the per-corpus summary rows.
 *
 * - In scope: "answered with the fact" when the answer claims to answer and holds every fact;
 *   "wrong" when it claims to answer without them; else declined.
 * - Out of scope: declined, or wrong (it answered something).
 * - Citation correct: an answer with the fact cites at least one page that holds it.
 */
import type { DevQuestion } from "./dev-set";

export interface Outcome {
	answered: boolean;
	text: string;
	/** Source ids cited (page keys in the benchmark). */
	cited: string[];
}

export type Verdict = "fact" | "wrong" | "declined";

export interface Graded {
	question: DevQuestion;
	verdict: Verdict;
	citationOk: boolean;
	outcome: Outcome;
}

/** Lower case, markdown marks dropped, separators and spacing unified. */
export function normalizeForFacts(text: string): string {
	return text
		.normalize("NFKC")
		.toLowerCase()
		.replace(/[`*_]+(?=\S)|(?<=\S)[`*_]+/g, m => (m.includes("_") ? m : ""))
		.replace(/[\u2019]/g, "'")
		.replace(/\s+/g, " ");
}

const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/** Whether `needle` occurs in `haystack` as a whole number where it begins or ends with a digit: "5" is not in "500". */
function occursAsNumber(haystack: string, needle: string): boolean {
	const digitFirst = isDigit(needle[0]);
	const digitLast = isDigit(needle[needle.length - 1]);
	for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
		if (digitFirst && isDigit(haystack[at - 1])) continue;
		if (digitLast && isDigit(haystack[at + needle.length])) continue;
		return true;
	}
	return false;
}

export function holdsFact(text: string, fact: string): boolean {
	const haystack = normalizeForFacts(text);
	return fact.split("|").some(alternative => occursAsNumber(haystack, normalizeForFacts(alternative)));
}

/** Whether a passage's text, from source `sourceId`, answers an in-scope question: a page that holds the fact, and every fact. */
export function answersQuestion(question: DevQuestion, text: string, sourceId: string): boolean {
	return !question.oos && question.pages.includes(sourceId) && question.facts.every(fact => holdsFact(text, fact));
}

export function grade(question: DevQuestion, outcome: Outcome): Graded {
	if (question.oos) return { question, verdict: outcome.answered ? "wrong" : "declined", citationOk: false, outcome };
	if (!outcome.answered) return { question, verdict: "declined", citationOk: false, outcome };
	const hasFacts = question.facts.every(fact => holdsFact(outcome.text, fact));
	return { question, verdict: hasFacts ? "fact" : "wrong", citationOk: hasFacts && outcome.cited.some(id => question.pages.includes(id)), outcome };
}

export interface Summary {
	inScope: number;
	fact: number;
	declinedInScope: number;
	wrongInScope: number;
	outOfScope: number;
	declinedOos: number;
	citationOk: number;
}

export function summarize(graded: readonly Graded[]): Summary {
	const inScope = graded.filter(g => !g.question.oos);
	const oos = graded.filter(g => g.question.oos);
	return {
		inScope: inScope.length,
		fact: inScope.filter(g => g.verdict === "fact").length,
		declinedInScope: inScope.filter(g => g.verdict === "declined").length,
		wrongInScope: inScope.filter(g => g.verdict === "wrong").length,
		outOfScope: oos.length,
		declinedOos: oos.filter(g => g.verdict === "declined").length,
		citationOk: inScope.filter(g => g.citationOk).length
	};
}

/** The columns every answer-quality table prints for a group of graded questions. */
export function summaryColumns(graded: readonly Graded[]): Record<string, string> {
	const s = summarize(graded);
	return {
		"in-scope": String(s.inScope),
		"answered with fact": percent(s.fact, s.inScope),
		declined: percent(s.declinedInScope, s.inScope),
		"wrong answer": percent(s.wrongInScope, s.inScope),
		"out-of-scope": String(s.outOfScope),
		"OOS declined": percent(s.declinedOos, s.outOfScope),
		"citation correct": percent(s.citationOk, s.fact)
	};
}

export function percent(part: number, whole: number): string {
	return whole === 0 ? "–" : `${((100 * part) / whole).toFixed(0)}%`;
}
