/** Frozen copy of the extractive answerer as it was before issue 12 (commit 29a3d80): the benchmark's baseline. */
/**
 * What a question asks for, in index terms. "How long / how much / how many / cuánto…" questions
 * want a quantity: those phrases are taken out of the content terms (a sentence need not contain
 * "long" to say how long something lasts) and mark the question as wanting a number.
 */
import { analyze, Locale } from "../../lib/text/tokenize";

export interface ParsedQuestion {
	/** Distinct content terms of the question. */
	terms: string[];
	/** The question asks for an amount, a duration, a price or a count. */
	wantsNumber: boolean;
}

const QUANTITY_PHRASES: Record<Locale, RegExp> = {
	en: /\bhow\s+(?:long|much|many|often|far|old|big|large|soon|late|early|fast|tall|heavy)\b/giu,
	es: /(?:¿\s*)?\b(?:cu[aá]nt[oa]s?(?:\s+tiempo)?|qu[eé]\s+tan|a\s+qu[eé]\s+hora)\b/giu
};

const QUANTITY_WORDS: Record<Locale, RegExp> = {
	en: /\b(?:price|prices|cost|costs|fee|fees|rate|percent|percentage|when|what time|how much|duration)\b/iu,
	es: /\b(?:precio|precios|cuesta|cuestan|coste|costo|tarifa|porcentaje|cu[aá]ndo|duraci[oó]n|horario)\b/iu
};

export function parseQuestion(question: string, locale: Locale): ParsedQuestion {
	const phrases = QUANTITY_PHRASES[locale];
	const wantsNumber = new RegExp(phrases.source, "iu").test(question) || QUANTITY_WORDS[locale].test(question);
	let terms = [...new Set(analyze(question.replace(phrases, " "), locale))];
	// "How much?" alone: better to match on the phrase than on nothing.
	if (terms.length === 0) terms = [...new Set(analyze(question, locale))];
	return { terms, wantsNumber };
}
