/**
 * The case a question asks about and the cases a passage's sentences state a rule for.
 *
 * Specifications and reference pages state most rules as a consequence of a case: "If the client
 * does not support the version in the server's response, it SHOULD disconnect." A question about
 * that case names it the same way ("What should the client do if it does not support the version
 * the server picked?"), while the sentences around it hold the same words in other rules ("The
 * client MUST send the latest version it supports"). A passage whose own condition holds the
 * question's condition speaks of that case (evidence.ts reads the share of the question's condition
 * it holds).
 *
 * A condition is the words after a conjunction that opens one ("if", "when", "whenever", "once",
 * "unless", "after", "while"; "si", "cuando", "tras", "mientras"), up to the end of its clause: the
 * next comma, semicolon or colon in a sentence, the end of the question in a question.
 */
import { analyze, Locale } from "../text/tokenize";

/** The words that open a condition ("if", "si"…). */
export const CONDITION_OPENERS: Readonly<Record<Locale, ReadonlySet<string>>> = {
	en: new Set(["if", "when", "whenever", "once", "unless", "after", "while"]),
	es: new Set(["si", "cuando", "tras", "mientras"])
};

/**
 * Verbs after which "when" or "if" opens what is decided or known, not the case of a rule: "Who
 * decides when a tool is used?", "How does the client know if the server is alive?". Spanish writes
 * that "cuándo" with its accent, which is no opener.
 */
const EMBEDDING_VERBS: Readonly<Record<Locale, ReadonlySet<string>>> = {
	en: new Set(["decide", "decides", "decided", "determine", "determines", "determined", "choose", "chooses", "chose", "know", "knows", "tell", "tells", "ask", "asks", "check", "checks", "say", "says", "specify", "specifies", "control", "controls", "see", "find", "learn", "learns", "signal", "signals", "indicate", "indicates"]),
	es: new Set<string>()
};

const CLAUSE_ENDS = new Set([",", ";", ":"]);
/** Opening punctuation a conjunction may carry ("¿Si…", "(when…"). */
const LEADING_MARKS = new Set(["¿", "¡", "(", "\"", "'", "“", "‘"]);

function bareWord(word: string): string {
	let start = 0;
	while (start < word.length && LEADING_MARKS.has(word[start])) start++;
	return word.slice(start).toLowerCase();
}

function endsClause(word: string): boolean {
	return CLAUSE_ENDS.has(word[word.length - 1]);
}

/**
 * The terms of each condition in `text`. With `toEnd` (a question), the first condition runs to
 * the end of the text, except one opening the text, which is a condition only when a comma closes
 * it ("When a ping times out, what…"): otherwise it is the question word ("When is…?"). Each word
 * is read once: a conjunction inside a condition belongs to it.
 */
function conditions(text: string, locale: Locale, toEnd: boolean): string[][] {
	const words = text.split(/\s+/).filter(Boolean);
	const openers = CONDITION_OPENERS[locale];
	const out: string[][] = [];
	let i = 0;
	while (i < words.length) {
		if (!openers.has(bareWord(words[i])) || (i > 0 && EMBEDDING_VERBS[locale].has(bareWord(words[i - 1])))) {
			i++;
			continue;
		}
		const opensText = i === 0;
		const runsToEnd = toEnd && !opensText;
		let end = i + 1;
		while (end < words.length && (runsToEnd || !endsClause(words[end]))) end++;
		if (toEnd && opensText && end === words.length) {
			i++;
			continue;
		}
		out.push(analyze(words.slice(i + 1, end + 1).join(" "), locale));
		i = end + 1;
		if (toEnd) break;
	}
	return out;
}

/** The terms of the condition a question sets (none when it sets none). */
export function askedCondition(question: string, locale: Locale): string[] {
	return conditions(question, locale, true)[0] ?? [];
}

/** The terms of each condition a sentence states (none for most sentences). */
export function statedConditions(sentence: string, locale: Locale): string[][] {
	return conditions(sentence, locale, false);
}
