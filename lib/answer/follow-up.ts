/**
 * Conversation context: a follow-up ("and how long does that take?", "¿y cuántas páginas?") names
 * little of what it asks about, so the earlier question of the same conversation is read with it.
 *
 * The question's own terms keep full weight; terms of the previous question(s) join at a lower
 * weight, enough to pick the right section among several that answer "how many", too little to
 * outvote what the new question asks. A question that stands on its own (long enough, no leading
 * "and", no pronoun pointing back) ignores the history.
 */
import type { Locale } from "../text/tokenize";
import { ParsedQuestion, parseQuestion } from "./question";

/** Weight of a term that only the earlier turns supply. */
export const CONTEXT_WEIGHT = 0.45;
/** Earlier user questions consulted, newest first. */
const CONTEXT_TURNS = 2;
/** A question with at most this many content terms is read as a follow-up. */
const SHORT_QUESTION_TERMS = 2;

const LEADS_ON: Record<Locale, RegExp> = {
	en: /^\s*(?:and|also|but|so|then|what about|how about|same for)\b/iu,
	es: /^\s*¿?\s*(?:y|e|también|tambien|pero|entonces|qué tal|que tal|y qué|y que)\b/iu
};

const POINTS_BACK: Record<Locale, RegExp> = {
	en: /\b(?:it|its|that|this|they|them|those|these|there|one|ones)\b/iu,
	es: /\b(?:eso|esto|ese|esa|este|esta|esos|esas|ello|ahí|allí|lo mismo)\b/iu
};

/** A question word of its own: a follow-up that has one asks its own kind of question ("Where do orders ship from?"). */
const ASKS_ITSELF: Record<Locale, RegExp> = {
	en: /\b(?:what|where|who|whom|whose|when|which|why|how)\b/iu,
	es: /(?:^|[\s¿¡])(?:qu[eé]|d[oó]nde|qui[eé]n(?:es)?|cu[aá]ndo|cu[aá]l(?:es)?|c[oó]mo|por qu[eé])(?=$|[\s?!,.])/iu
};

/** What the question itself writes (question.ts), read of its own words only, never of earlier turns. */
type OwnParts = Pick<ParsedQuestion, "names" | "acronyms" | "phrases" | "choices" | "numerals" | "condition">;
/** The kind of value asked for and what it must be said of. */
type ValueAsked = Pick<ParsedQuestion, "expects" | "counted" | "priced" | "defined">;

export interface WeightedQuestion extends OwnParts, ValueAsked {
	/** Content term → weight (1 for the question's own terms). */
	terms: Map<string, number>;
	/** Terms of the question itself, in order. */
	ownTerms: string[];
	/** True when earlier turns were read with the question. */
	usedContext: boolean;
}

function ownParts({ names, acronyms, phrases, choices, numerals, condition }: ParsedQuestion): OwnParts {
	return { names, acronyms, phrases, choices, numerals, condition };
}

function valueAsked({ expects, counted, priced, defined }: ValueAsked): ValueAsked {
	return { ...(expects ? { expects } : {}), ...(counted ? { counted } : {}), ...(priced ? { priced } : {}), ...(defined ? { defined } : {}) };
}

export function isFollowUp(question: string, ownTermCount: number, locale: Locale): boolean {
	return ownTermCount <= SHORT_QUESTION_TERMS || LEADS_ON[locale].test(question) || POINTS_BACK[locale].test(question);
}

/**
 * The question's terms, plus the earlier questions' terms at `CONTEXT_WEIGHT` when it reads as a
 * follow-up. `history` holds earlier user questions of the conversation, oldest first.
 */
export function weightedQuestion(question: string, history: readonly string[], locale: Locale): WeightedQuestion {
	const own = parseQuestion(question, locale);
	const terms = new Map<string, number>(own.terms.map(term => [term, 1]));
	const earlier = history.slice(-CONTEXT_TURNS).reverse();
	if (earlier.length === 0 || !isFollowUp(question, own.terms.length, locale)) {
		return { terms, ownTerms: own.terms, ...ownParts(own), ...valueAsked(own), usedContext: false };
	}
	let asked = valueAsked(own);
	earlier.forEach((turn, age) => {
		const parsed = parseQuestion(turn, locale);
		// "and the sandbox?" after "how many messages…?" still asks for a number; "Where do orders
		// ship from?" after "How long is the warranty?" asks for a place, not a duration.
		const elliptical = LEADS_ON[locale].test(question) || !ASKS_ITSELF[locale].test(question);
		// Only the kind: what the earlier turn counted or priced may be what the follow-up replaces
		// ("How many URLs per session?", then "and pages?").
		if (age === 0 && own.terms.length <= SHORT_QUESTION_TERMS && elliptical && asked.expects === undefined && parsed.expects) asked = { expects: parsed.expects };
		const weight = CONTEXT_WEIGHT / (age + 1);
		for (const term of parsed.terms) if (!terms.has(term)) terms.set(term, weight);
	});
	return { terms, ownTerms: own.terms, ...ownParts(own), ...asked, usedContext: true };
}
