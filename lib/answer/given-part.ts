/**
 * What of the best passage is given as the answer: the candidates are scored whole (evidence.ts),
 * then the passage chosen is trimmed of what the question does not ask about. A span loses its
 * leading sentences that hold none of the question's words; a run of one-sentence paragraphs keeps
 * the paragraphs that answer; a table or list keeps its first line and the rows a name of the
 * question picks out. Lists announced by a line, code and Q&A answers stay whole.
 */
import { ENDS_SENTENCE } from "../text/sentences";
import type { Locale } from "../text/tokenize";
import { holdsAnswerType, RANKING_ONLY } from "./answer-type";
import type { WeightedQuestion } from "./follow-up";
import { isLeadIn, Passage } from "./passages";

/** The part of the chosen passage given as the answer. */
export function givenPart(passage: Passage, question: WeightedQuestion, locale: Locale): Passage {
	return withNamedRows(withoutUnaskedLines(withoutLeadIn(passage, question.terms), question, locale), question);
}

/**
 * The passage without its leading sentences that hold none of the question's words: a span
 * chosen for what follows an unrelated opening ("Every Acme kettle is built to last. The warranty
 * lasts 37 months.") starts where the answer does. Lists and Q&A answers stay whole.
 */
function withoutLeadIn(passage: Passage, questionTerms: ReadonlyMap<string, number>): Passage {
	if (passage.isList || passage.isQa) return passage;
	let start = 0;
	while (start < passage.parts.length - 1 && !passage.partTerms[start].some(term => questionTerms.has(term))) start++;
	if (start === 0) return passage;
	return withParts(passage, passage.parts.map((_, i) => i).slice(start));
}

/** The passage with only the parts at `kept` (ascending indexes), its terms read from those; a single part left is no list. */
function withParts(passage: Passage, kept: readonly number[]): Passage {
	const partTerms = kept.map(i => passage.partTerms[i]);
	const sequence = partTerms.flat();
	return {
		...passage,
		parts: kept.map(i => passage.parts[i]),
		partTerms,
		code: kept.map(i => passage.code[i]),
		lineBreaks: kept.map((i, k) => k > 0 && passage.lineBreaks[i]),
		terms: new Set(sequence),
		sequence,
		isList: passage.isList && kept.length > 1
	};
}

/**
 * A run of one-sentence paragraphs that no line announces, less the lines holding none of the
 * question's words, only some of those another line holds, or not the kind of value asked for
 * when another line holds it. The chunker keeps one paragraph per line, so three one-sentence
 * paragraphs make a run like a list's items: "How long are conversations kept?" was answered with
 * all three ("Conversations are kept for a day…", "Keys expire after 90 days.", "An account may
 * hold up to 5 API keys…"), and "How many keys can an account hold?" needs only the third.
 *
 * Such runs are typed text's, and a file's whose lines are all whole sentences (a Word document's
 * paragraphs: its lists and tables lose their markers in extraction, but table rows and most list
 * items are no sentences). A crawled page's run is a table or a list whose rows answer together (a
 * header row holding the question's words above rows holding the values), and an announced list's
 * items answer together: those stay whole.
 */
function withoutUnaskedLines(passage: Passage, question: WeightedQuestion, locale: Locale): Passage {
	if (!passage.isList || !isParagraphRun(passage) || isLeadIn(passage.parts[0] ?? "")) return passage;
	const matched = passage.partTerms.map(terms => new Set(terms.filter(term => question.terms.has(term))));
	// A line whose question words another line holds along with more adds nothing to the answer.
	const outdone = (i: number) => matched.some((other, j) => j !== i && other.size > matched[i].size && [...matched[i]].every(term => other.has(term)));
	const withWords = passage.parts.map((_, i) => i).filter(i => matched[i].size > 0 && !outdone(i));
	// Nor does one without the kind of value asked for, when another holds it ("90 days" for "how long").
	const { expects } = question;
	const valued = expects && !RANKING_ONLY.has(expects) ? withWords.filter(i => holdsAnswerType(passage.parts[i], expects, locale, question.numerals, question.counted)) : [];
	const asked = valued.length > 0 ? valued : withWords;
	if (asked.length === 0 || asked.length === passage.parts.length) return passage;
	// One paragraph left is a paragraph, not a list to introduce with its heading (withParts).
	return withParts(passage, asked);
}

/** Every part a line of code. */
export function isCodeOnly(passage: Passage): boolean {
	return passage.code.length > 0 && passage.code.every(Boolean);
}

/** A table or list this long is cut to the rows a name of the question picks out. */
const MIN_ROWS_TO_PICK = 4;

/**
 * A table or list of a crawled page or a file (rows that answer together, withoutUnaskedLines) cut
 * to its first line (the table's header row, the list's lead-in) and the rows holding a name the
 * question writes, when some rows hold one and others do not: "How many messages per month does
 * each Business chatbot get?" is answered with the plans table's header row and its Business row,
 * not all its plans. Names only: a common word of the question in one row ("bytes" in "b for
 * bytes") says nothing of whether the other rows answer. Code is never cut (an example loses its
 * sense line by line), nor a chunk stored before code lines were recorded.
 */
function withNamedRows(passage: Passage, question: WeightedQuestion): Passage {
	if (!passage.isList || isParagraphRun(passage) || passage.parts.length < MIN_ROWS_TO_PICK || question.names.length === 0) return passage;
	// A chunk stored before code lines were recorded may hold code that reads as prose.
	if (passage.chunk.codeLines === undefined || passage.code.some(Boolean)) return passage;
	const names = new Set(question.names);
	const rows = passage.parts.map((_, i) => i).filter(i => i > 0 && passage.partTerms[i].some(term => names.has(term)));
	if (rows.length === 0 || rows.length === passage.parts.length - 1) return passage;
	return withParts(passage, [0, ...rows]);
}

/** A run of short lines that are paragraphs rather than a list's items or a table's rows. */
function isParagraphRun(passage: Passage): boolean {
	const { kind } = passage.chunk;
	return kind === "text" || (kind === "file" && passage.parts.every(part => ENDS_SENTENCE.test(part)));
}
