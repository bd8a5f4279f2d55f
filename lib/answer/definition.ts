/**
 * "What is a sandbox chatbot?", "What does claim mean?", "¿Qué es la API de demostración?": a
 * question asking what a thing is, answered by a sentence that says it ("A sandbox chatbot is…",
 * "Claim: …", "La API de demostración construye…" is not one; "… es …" is). Ranking only
 * (answer-type.ts `RANKING_ONLY`): pages define things in many other ways ("A pool of clients
 * connected to one origin."), so a passage without the form is never declined for it.
 */
import { analyze, Locale } from "../text/tokenize";

/** At most this many words name the thing asked about; a longer question asks something more specific. */
const MAX_SUBJECT_WORDS = 4;
/** The defining word must come within this many words of the sentence's start. */
const MAX_LEAD_WORDS = MAX_SUBJECT_WORDS + 4;

/**
 * The question forms, anchored at both ends; the subject is one to four words of letters, digits
 * and inner hyphens or apostrophes, each run of them separated by white space, so nothing can be
 * matched two ways.
 */
const SUBJECT = "([\\p{L}\\p{N}][\\p{L}\\p{N}'’.-]*(?:\\s+[\\p{L}\\p{N}][\\p{L}\\p{N}'’.-]*){0,3})";
const ASKS: Record<Locale, RegExp[]> = {
	en: [
		new RegExp(`^\\s*(?:and\\s+)?what\\s+(?:is|are|'s)\\s+(?:(?:a|an|the)\\s+)?${SUBJECT}\\s*\\?\\s*$`, "iu"),
		new RegExp(`^\\s*(?:and\\s+)?what\\s+does\\s+(?:(?:a|an|the)\\s+)?${SUBJECT}\\s+mean\\s*\\?\\s*$`, "iu")
	],
	es: [
		new RegExp(`^\\s*(?:¿\\s*)?(?:y\\s+)?qu[eé]\\s+(?:es|son)\\s+(?:(?:un|una|unos|unas|el|la|los|las|lo)\\s+)?${SUBJECT}\\s*\\?\\s*$`, "iu"),
		new RegExp(`^\\s*(?:¿\\s*)?(?:y\\s+)?qu[eé]\\s+significa\\s+(?:(?:un|una|el|la|los|las)\\s+)?${SUBJECT}\\s*\\?\\s*$`, "iu")
	]
};

/** Words that open a sentence before its subject. */
const ARTICLES: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["a", "an", "the"]),
	es: new Set(["un", "una", "unos", "unas", "el", "la", "los", "las", "lo"])
};

/** Words, or marks standing as words, that say what the subject before them is. */
const LINKS: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["is", "are", "means", "mean", "refers", "denotes", "represents", "stands", "—", "–", "-", ":"]),
	es: new Set(["es", "son", "significa", "significan", "designa", "designan", "consiste", "consisten", "—", "–", "-", ":"])
};

/** The terms of the thing a "What is X?" question asks about, in order; undefined for any other question. */
export function definedSubject(question: string, locale: Locale): string[] | undefined {
	for (const pattern of ASKS[locale]) {
		const subject = pattern.exec(question)?.[1];
		if (subject === undefined) continue;
		const terms = analyze(subject, locale);
		return terms.length > 0 && subject.trim().split(/\s+/).length <= MAX_SUBJECT_WORDS ? terms : undefined;
	}
	return undefined;
}

/**
 * Whether the sentence opens by saying what the subject is: its first words (an article aside)
 * hold the subject's terms in order, words without a term between them ("source of truth"), and
 * the next word links it to what it is ("is", "means", a dash), or the subject's last word ends
 * with a colon ("Claim link: …").
 */
export function definesSubject(sentence: string, subject: readonly string[], locale: Locale): boolean {
	if (subject.length === 0) return false;
	const words = sentence.trim().split(/\s+/, MAX_LEAD_WORDS + 1);
	let at = 0;
	while (at < words.length && ARTICLES[locale].has(words[at].toLowerCase())) at++;
	let matched = 0;
	for (; at < words.length && matched < subject.length; at++) {
		const terms = analyze(words[at], locale);
		// Words without a term may stand between the subject's words ("source of truth"), not before them.
		if (terms.length === 0 && matched === 0) return false;
		for (const term of terms) {
			if (term !== subject[matched]) return false;
			matched++;
		}
		if (matched === subject.length && words[at].endsWith(":")) return true;
	}
	if (matched < subject.length || at >= words.length) return false;
	return LINKS[locale].has(words[at].toLowerCase());
}
