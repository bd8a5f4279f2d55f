/** Frozen copy of the extractive answerer as it was before issue 12 (commit 29a3d80): the benchmark's baseline. */
/**
 * Extractive answers: the reply is made of sentences copied from the retrieved chunks, so it can
 * only say what the sources say. Used when no LLM is configured.
 *
 * 1. A Q&A chunk whose question matches the user's question (Dice overlap of content terms
 *    ≥ `QA_MATCH`) answers with its answer, verbatim.
 * 2. Otherwise every sentence of every hit (a Q&A pair counts as one "sentence": its answer, matched
 *    on question + answer) is scored by the share of the question's term weight it covers. Weights
 *    are IDF over the candidate sentences, so a rare term of the question counts more than a term
 *    every sentence repeats. A term found only in the chunk's heading counts half. Quantity
 *    questions ("how long…", "cuánto…") prefer sentences with a number; higher-ranked hits win ties.
 * 3. Grounding: a sentence is eligible only if it contains at least one question term itself and
 *    covers at least `MIN_COVERAGE` of the question's weight. With no eligible sentence the reply
 *    is the locale's "I couldn't find that" and cites nothing.
 * 4. Up to `MAX_SENTENCES` sentences scoring within `KEEP_RATIO` of the best are used; only the
 *    sources of the sentences used are cited.
 */
import type { Chunk } from "../../lib/retrieval/chunker";
import type { SearchHit } from "../../lib/retrieval/vector-index";
import { analyze, Locale, splitSentences } from "../../lib/text/tokenize";
import { AnswerEvent, Citation, uniqueCitations } from "../../lib/answer/events";
import { answerMessages } from "../../lib/answer/messages";
import { parseQuestion } from "./baseline-question";

export const MAX_SENTENCES = 3;
export const MAX_ANSWER_CHARS = 700;
/** Share of the question's term weight a sentence must cover to be used. */
export const MIN_COVERAGE = 0.5;
/** Dice overlap between the user's question and a stored Q&A question for a direct answer. */
export const QA_MATCH = 0.5;
/** Further sentences are used only when they score at least this share of the best one. */
const KEEP_RATIO = 0.6;
const NUMBER_BONUS = 0.25;
const RANK_BONUS = 0.05;
const HEADING_WEIGHT = 0.5;
const LONG_SENTENCE_CHARS = 350;
const LONG_SENTENCE_PENALTY = 0.1;

export interface AnswerInput {
	question: string;
	locale: Locale;
	/** Retrieved chunks, best first. */
	hits: readonly SearchHit[];
}

export interface ExtractiveAnswer {
	text: string;
	citations: Citation[];
	/** False for the grounded refusal. */
	answered: boolean;
}

interface Candidate {
	text: string;
	terms: Set<string>;
	chunk: Chunk;
	hitRank: number;
	position: number;
	headingTerms: Set<string>;
	coverage: number;
	score: number;
}

function dice(a: Set<string>, b: Set<string>): number {
	if (a.size === 0 || b.size === 0) return 0;
	let shared = 0;
	for (const term of a) if (b.has(term)) shared++;
	return (2 * shared) / (a.size + b.size);
}

/** The stored Q&A pair that asks the user's question, if one does. */
function matchingQa(questionTerms: Set<string>, hits: readonly SearchHit[], locale: Locale): Chunk | undefined {
	let best: { chunk: Chunk; match: number } | undefined;
	for (const { chunk } of hits) {
		if (chunk.kind !== "qa" || !chunk.question || !chunk.answer) continue;
		const match = dice(questionTerms, new Set(parseQuestion(chunk.question, locale).terms));
		if (match >= QA_MATCH && (!best || match > best.match)) best = { chunk, match };
	}
	return best?.chunk;
}

function candidatesOf(hits: readonly SearchHit[], locale: Locale): Candidate[] {
	const candidates: Candidate[] = [];
	hits.forEach(({ chunk }, hitRank) => {
		const headingTerms = new Set(chunk.heading ? analyze(chunk.heading, locale) : []);
		const base = { chunk, hitRank, headingTerms, coverage: 0, score: 0 };
		if (chunk.kind === "qa" && chunk.answer) {
			const terms = new Set(analyze(`${chunk.question ?? ""}\n${chunk.answer}`, locale));
			candidates.push({ ...base, text: chunk.answer, terms, position: 0 });
			return;
		}
		splitSentences(chunk.text).forEach((text, position) => {
			candidates.push({ ...base, text, terms: new Set(analyze(text, locale)), position });
		});
	});
	return candidates;
}

/** IDF of each question term over the candidate sentences. */
function termWeights(terms: readonly string[], candidates: readonly Candidate[]): Map<string, number> {
	const weights = new Map<string, number>();
	for (const term of terms) {
		const containing = candidates.filter(c => c.terms.has(term)).length;
		weights.set(term, Math.log(1 + (candidates.length + 1) / (containing + 1)));
	}
	return weights;
}

function score(candidate: Candidate, weights: Map<string, number>, wantsNumber: boolean, hitCount: number): void {
	let total = 0;
	let covered = 0;
	let inSentence = 0;
	for (const [term, weight] of weights) {
		total += weight;
		if (candidate.terms.has(term)) {
			covered += weight;
			inSentence++;
		} else if (candidate.headingTerms.has(term)) {
			covered += weight * HEADING_WEIGHT;
		}
	}
	candidate.coverage = inSentence > 0 && total > 0 ? covered / total : 0;
	candidate.score =
		candidate.coverage +
		(wantsNumber && /\p{N}/u.test(candidate.text) ? NUMBER_BONUS : 0) +
		RANK_BONUS * (1 - candidate.hitRank / Math.max(1, hitCount)) -
		(candidate.text.length > LONG_SENTENCE_CHARS ? LONG_SENTENCE_PENALTY : 0);
}

function normalizedKey(text: string): string {
	return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** Picks the answer sentences: the best, then close runners-up, without repeats, within the size limits. */
function select(candidates: Candidate[]): Candidate[] {
	const eligible = candidates.filter(c => c.coverage >= MIN_COVERAGE).sort((a, b) => b.score - a.score);
	if (eligible.length === 0) return [];
	const [best] = eligible;
	const chosen: Candidate[] = [best];
	const seen = new Set([normalizedKey(best.text)]);
	let length = best.text.length;
	for (const candidate of eligible.slice(1)) {
		if (chosen.length >= MAX_SENTENCES || candidate.score < best.score * KEEP_RATIO) break;
		const key = normalizedKey(candidate.text);
		if (seen.has(key) || length + candidate.text.length + 1 > MAX_ANSWER_CHARS) continue;
		seen.add(key);
		chosen.push(candidate);
		length += candidate.text.length + 1;
	}
	// The best sentence leads; the others follow in reading order.
	const rest = chosen.slice(1).sort((a, b) => a.hitRank - b.hitRank || a.position - b.position);
	return [best, ...rest];
}

/** Builds the answer (or the grounded refusal) from the retrieved hits. */
export function extractiveAnswer({ question, locale, hits }: AnswerInput): ExtractiveAnswer {
	const refusal: ExtractiveAnswer = { text: answerMessages(locale).notFound, citations: [], answered: false };
	const parsed = parseQuestion(question, locale);
	if (parsed.terms.length === 0 || hits.length === 0) return refusal;

	const qa = matchingQa(new Set(parsed.terms), hits, locale);
	if (qa) return { text: qa.answer as string, citations: uniqueCitations([qa]), answered: true };

	const candidates = candidatesOf(hits, locale);
	const weights = termWeights(parsed.terms, candidates);
	for (const candidate of candidates) score(candidate, weights, parsed.wantsNumber, hits.length);
	const chosen = select(candidates);
	if (chosen.length === 0) return refusal;
	return {
		text: chosen.map(c => c.text).join(" "),
		citations: uniqueCitations(chosen.map(c => c.chunk)),
		answered: true
	};
}

/** The extractive answer as an answer stream (same events as the LLM path). */
export async function* answerExtractively(input: AnswerInput): AsyncGenerator<AnswerEvent> {
	const answer = extractiveAnswer(input);
	yield { type: "token", text: answer.text };
	yield { type: "done", citations: answer.citations, answered: answer.answered };
}
