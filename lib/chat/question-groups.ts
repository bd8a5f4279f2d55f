/**
 * Groups questions that ask the same thing, for the Improve page ("12 people asked about refunds")
 * and the top questions of the Analytics page.
 *
 * Two questions are alike when they have the same set of content terms: the words the retrieval
 * index itself uses (lib/text/tokenize.ts `analyze`: lower-cased, accents folded, stop words dropped,
 * stemmed). So "What is your refund policy?", "refund policies" and "Your REFUND policy??" are one
 * group, and "How long is the warranty?" is another. A question made only of stop words ("hi!")
 * is grouped by its normalized text.
 *
 * Time: one pass over the questions with a hash map, each question analyzed once (linear in its
 * length; its distinct terms, at most a few dozen for a 2,000-character message, are sorted to
 * make the key). The groups alone are then sorted. No pairwise comparison, so a month of questions
 * groups in the time it takes to read them.
 */
import { analyze, normalizeText, type Locale } from "../text/tokenize";

export interface AskedQuestion {
	id: string;
	question: string;
	at: number;
	answered: boolean;
}

export interface QuestionGroup {
	/** The grouping key: the sorted content terms. */
	key: string;
	/** The wording shown for the group: its most recent question. */
	question: string;
	/** How many times it was asked. */
	count: number;
	/** How many of those the chatbot declined. */
	declined: number;
	last_at: number;
	/** Ids of the group's questions, in the order given. */
	ids: string[];
	/** A few distinct wordings of it, in the order given. */
	wordings: string[];
}

const MAX_WORDINGS = 3;

/** The key of a question: its distinct content terms, sorted; or its normalized text when it has none. */
export function questionKey(question: string, locale: Locale): string {
	const terms = [...new Set(analyze(question, locale))].sort();
	if (terms.length > 0) return terms.join(" ");
	return `=${normalizeText(question).trim().split(/\s+/).join(" ")}`;
}

/** Groups alike questions; the largest group first, then the most recent. */
export function groupQuestions(questions: readonly AskedQuestion[], locale: Locale): QuestionGroup[] {
	const groups = new Map<string, QuestionGroup>();
	for (const asked of questions) {
		const key = questionKey(asked.question, locale);
		let group = groups.get(key);
		if (!group) {
			group = { key, question: asked.question, count: 0, declined: 0, last_at: asked.at, ids: [], wordings: [] };
			groups.set(key, group);
		} else if (asked.at > group.last_at) {
			group.question = asked.question;
			group.last_at = asked.at;
		}
		group.count++;
		if (!asked.answered) group.declined++;
		group.ids.push(asked.id);
		if (group.wordings.length < MAX_WORDINGS && !group.wordings.includes(asked.question)) group.wordings.push(asked.question);
	}
	return [...groups.values()].sort((a, b) => b.count - a.count || b.last_at - a.last_at || a.key.localeCompare(b.key));
}
