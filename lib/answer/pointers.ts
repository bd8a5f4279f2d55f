/**
 * Sentences that only point elsewhere ("See Files for how extraction works.", "Los límites … se
 * describen en Límites de uso."): on a crawled page they are a link's text, and what they name is
 * said on the page they link to, not here.
 */
import type { Locale } from "../text/tokenize";

/** A pointer is a short sentence: a longer one says something of its own beside the link. */
const MAX_POINTER_CHARS = 140;

const OPENS_WITH_POINTER: Record<Locale, RegExp> = {
	en: /^(?:see|read|visit|consult|refer\s+to|learn\s+more|for\s+(?:more\s+)?(?:details|information))(?![\p{L}-])/iu,
	es: /^(?:consulta|lee|visita|véase|vease|más\s+(?:información|detalles)\s+en)(?!\p{L})/iu
};
/** What points within the page ("listed in the table below:") announces what follows rather than pointing away. */
const POINTS_WITHIN: Record<Locale, RegExp> = {
	en: /\b(?:below|following)\b|:\s*$/iu,
	es: /(?<!\p{L})(?:abajo|siguientes?|a continuaci[oó]n)(?!\p{L})|:\s*$/iu
};
const SAYS_IT_IS_ELSEWHERE: Record<Locale, RegExp> = {
	en: /\b(?:is|are)\s+(?:described|explained|documented|covered|detailed|listed)\s+(?:in|on|under)\s/iu,
	es: /\bse\s+(?:describen?|explican?|detallan?|documentan?)\s+en\s/iu
};

/** True when the sentence only points to another page. */
export function isPointer(sentence: string, locale: Locale): boolean {
	const text = sentence.trim();
	if (text.length > MAX_POINTER_CHARS || POINTS_WITHIN[locale].test(text)) return false;
	return OPENS_WITH_POINTER[locale].test(text) || SAYS_IT_IS_ELSEWHERE[locale].test(text);
}

const ASKS_WHERE: Record<Locale, RegExp> = { en: /\bwhere\b/iu, es: /(?<!\p{L})d[oó]nde(?!\p{L})/iu };

/** A question asking where something is ("Where are the rate limits described?") is answered by a pointer. */
export function asksWhere(question: string, locale: Locale): boolean {
	return ASKS_WHERE[locale].test(question);
}

/** True when every part of the passage points elsewhere or asks a question ("¿Empiezas? Lee la guía rápida."). */
export function onlyPoints(parts: readonly string[], locale: Locale): boolean {
	let points = false;
	for (const part of parts) {
		if (isPointer(part, locale)) points = true;
		else if (!part.trim().endsWith("?")) return false;
	}
	return points;
}
