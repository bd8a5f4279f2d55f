/**
 * What a question asks for, in index terms. "How long / how much / how many / cuánto…" phrases
 * are taken out of the content terms (a sentence need not contain "long" to say how long something
 * lasts); the kind of answer they ask for is read by answer-type.ts.
 */
import { phrasalVerbs } from "../text/phrasal";
import { analyze, Locale } from "../text/tokenize";
import { trimEdges } from "../text/trim-edges";
import { AnswerType, expectedAnswerType, isCodeNoun } from "./answer-type";
import { askedCondition } from "./condition";
import { definedSubject } from "./definition";

export interface ParsedQuestion {
	/** Distinct content terms of the question. */
	terms: string[];
	/** The kind of answer asked for (a price, a duration, a number…), if any. */
	expects?: AnswerType;
	/**
	 * Terms of the words written as names: capitalised past the first word, or holding a digit or an
	 * inner capital ("Aurora", "Zephyr-9", "HTTP/2", "OAuth"), or written between quotes ("for
	 * '1 week'"). A passage about another product or version than the one named, or that does not
	 * say the quoted words themselves, does not answer, however much else it shares.
	 */
	names: string[];
	/**
	 * The names written in capitals alone ("API", "HTML", "URL"): an acronym may be the topic of a
	 * whole site rather than one product among others (evidence.ts reads how common it is there).
	 */
	acronyms: string[];
	/** Phrasal verbs of an English question ("leave out": the term "leav" under the key "leav_out"; lib/text/phrasal.ts). */
	phrases: Array<{ term: string; key: string }>;
	/**
	 * Alternatives the question offers ("in seconds or in milliseconds", "1000 or 1024", "¿HTTP/2 o
	 * HTTP/3?"): per "or", the terms of the words it joins, less the terms both sides share. A
	 * passage that holds one of them answers the choice, so the others are not missing from it;
	 * one that holds none does not answer.
	 */
	choices: string[][];
	/**
	 * Words the question writes with both letters and digits ("zephyr-9", "http/2", "5xx"), lower
	 * case: their digits name a thing, so a passage repeating them does not thereby hold a number.
	 */
	numerals: string[];
	/**
	 * The case the question asks about ("…if it does not support the version the server picked?";
	 * condition.ts), its terms limited to the question's content terms: a passage stating its rule
	 * for that case holds them in a condition of its own.
	 */
	condition: string[];
	/**
	 * For "how many API keys…" / "¿cuántas URL…": the terms of the words naming what is counted
	 * ("api", "key"). A number said of something else ("32 letters") does not count them.
	 */
	counted?: string[];
	/**
	 * For "how much does a new kettle cost?" / "¿cuánto cuesta una tapa?": the term of the thing
	 * priced ("kettl"). A price said in a sentence about something else ("lids cost 14 euros") is
	 * not its price.
	 */
	priced?: string[];
	/** For "What is a sandbox chatbot?" / "¿Qué es la API de demostración?": the terms of the thing asked about, in order (definition.ts). */
	defined?: string[];
}

const DIGIT = /\p{N}/u;
const CAPITAL_START = /^\p{Lu}/u;
const INNER_CAPITAL = /\p{Ll}\p{Lu}/u;
/** Punctuation around a word ("(Aurora)", "¿Zephyr-9?"), one character at a time (`trimEdges`). */
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]$/u;

/** The word joining two choices. */
const OR: Record<Locale, ReadonlySet<string>> = { en: new Set(["or"]), es: new Set(["o", "u"]) };
/** Words that may stand before each choice without naming one ("per key or per address"); stop words are passed over too. */
const CHOICE_LEAD_INS: Record<Locale, ReadonlySet<string>> = { en: new Set(["per", "via"]), es: new Set(["vía"]) };
/** After "or", these make it no choice: "whether or not", "10 or more", "Node 18 or later", "o más". */
const NOT_A_CHOICE_AFTER: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["not", "no", "more", "less", "fewer", "later", "earlier", "newer", "older", "above", "below", "higher", "lower", "so", "else", "otherwise"]),
	es: new Set(["no", "más", "mas", "menos", "así", "similar", "similares"])
};

const LETTER = /\p{L}/u;

/** The terms of the nearest word from `from` in direction `step` that names something, if any. */
function nearestTerms(words: readonly string[], from: number, step: 1 | -1, locale: Locale): string[] {
	for (let i = from; i >= 0 && i < words.length && !OR[locale].has(words[i].toLowerCase()); i += step) {
		if (CHOICE_LEAD_INS[locale].has(words[i].toLowerCase())) continue;
		const terms = analyze(words[i], locale);
		if (terms.length > 0) return terms;
	}
	return [];
}

/** Per "or" between two words that name something, the terms that tell the two sides apart. */
function choiceGroups(words: readonly string[], locale: Locale): string[][] {
	const groups: string[][] = [];
	words.forEach((word, i) => {
		if (!OR[locale].has(word.toLowerCase()) || NOT_A_CHOICE_AFTER[locale].has(words[i + 1]?.toLowerCase() ?? "")) return;
		const before = nearestTerms(words, i - 1, -1, locale);
		const after = nearestTerms(words, i + 1, 1, locale);
		const distinct = [...before.filter(term => !after.includes(term)), ...after.filter(term => !before.includes(term))];
		if (before.length === 0 || after.length === 0 || distinct.length === 0) return;
		// "A or B or C" is one choice: a pair sharing a term with the last group joins it.
		const last = groups.at(-1);
		if (last && before.some(term => last.includes(term))) last.push(...distinct.filter(term => !last.includes(term)));
		else groups.push([...new Set(distinct)]);
	});
	return groups;
}

/** A word in capitals alone, two to five letters: "API", "URL", "HTML" (not "HTTP/2", not "Aurora"). */
const ACRONYM = /^\p{Lu}{2,5}s?$/u;

const QUOTES = new Set(["'", '"', "‘", "’", "“", "”", "`", "«", "»"]);
const PUNCTUATION = /\p{P}/u;

/** Whether the punctuation at the start (or end) of a word holds a quotation mark. */
function quoteAtEdge(word: string, atEnd: boolean): boolean {
	const chars = [...word];
	if (atEnd) chars.reverse();
	for (const c of chars) {
		if (QUOTES.has(c)) return true;
		if (!PUNCTUATION.test(c)) return false;
	}
	return false;
}

/**
 * The words written between quotes ("for '1 week'", "the string \"100\"", "«minutos»"): a literal
 * the answer must say. An apostrophe inside a word ("hasn't", "site's") neither opens nor closes one.
 */
function quotedWords(raw: readonly string[]): Set<number> {
	const quoted = new Set<number>();
	let open = -1;
	raw.forEach((word, i) => {
		if (open < 0 && quoteAtEdge(word, false)) open = i;
		if (open >= 0 && quoteAtEdge(word, true) && (i > open || word.length > 1)) {
			for (let j = open; j <= i; j++) quoted.add(j);
			open = -1;
		}
	});
	return quoted;
}

/** Words that make the word beside a code noun one thing's name: "the percent field", "its timeout option", "el campo percent". */
const DETERMINERS: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["the", "a", "an", "its", "their", "this", "that", "my", "your", "our", "whose"]),
	es: new Set(["el", "la", "los", "las", "un", "una", "su", "sus", "este", "esta", "ese", "esa"])
};
const POSSESSIVE_END = /(?:'s|’s|s'|s’)$/u;

/**
 * Indexes of the words that name one field, option, header… of a program: in English the word
 * between a determiner or a possessive and the code noun ("the progress notification's percent
 * field"), in Spanish the word after an article and the code noun ("el campo percent").
 */
function codeNamed(raw: readonly string[], words: readonly string[], locale: Locale): Set<number> {
	const named = new Set<number>();
	const lower = words.map(w => w.toLowerCase());
	lower.forEach((word, i) => {
		if (!isCodeNoun(word, locale)) return;
		const [at, before] = locale === "en" ? [i - 1, i - 2] : [i + 1, i - 1];
		if (at < 0 || at >= lower.length || before < 0 || isCodeNoun(lower[at], locale) || analyze(words[at], locale).length === 0) return;
		if (DETERMINERS[locale].has(lower[before]) || (locale === "en" && POSSESSIVE_END.test(raw[before]))) named.add(at);
	});
	return named;
}

function nameTerms(question: string, locale: Locale): { names: string[]; acronyms: string[]; choices: string[][]; numerals: string[] } {
	const raw = question.split(/\s+/).filter(w => trimEdges(w, EDGE_PUNCTUATION));
	const words = raw.map(w => trimEdges(w, EDGE_PUNCTUATION));
	const quoted = quotedWords(raw);
	const code = codeNamed(raw, words, locale);
	const isName = (word: string | undefined, i: number) =>
		word !== undefined && (DIGIT.test(word) || INNER_CAPITAL.test(word) || (i > 0 && CAPITAL_START.test(word)) || quoted.has(i) || code.has(i));
	const names = words.filter(isName);
	const numerals = [...new Set(words.filter(word => DIGIT.test(word) && LETTER.test(word)).map(word => word.toLowerCase()))];
	const acronyms = names.filter(word => ACRONYM.test(word));
	return {
		names: [...new Set(names.flatMap(word => analyze(word, locale)))],
		acronyms: [...new Set(acronyms.flatMap(word => analyze(word, locale)))],
		choices: choiceGroups(words, locale),
		numerals
	};
}

const QUANTITY_PHRASES: Record<Locale, RegExp> = {
	en: /\bhow\s+(?:long|much|many|often|far|old|big|large|soon|late|early|fast|tall|heavy)\b|\bwhat\s+(?:time|hours)\b/giu,
	es: /(?:¿\s*)?\b(?:cu[aá]nt[oa]s?(?:\s+tiempo)?|qu[eé]\s+tan|a\s+qu[eé]\s+hora)\b/giu
};

/**
 * Words that frame a question without naming its topic: "What happens when…", "What does X
 * mean?", "¿Qué significa…?", "¿Qué quiere decir…?", "¿Hace falta…?". The answer states the
 * outcome or the meaning, so it never repeats them, and a passage should not need them to match.
 * Alternatives of plain words, no nested quantifiers.
 */
const FRAME_WORDS: Record<Locale, RegExp> = {
	en: /(?<![\p{L}\p{N}])(?:happens?|happened|happening|mean|means|meaning|stands?\s+for|located|situated)(?![\p{L}\p{N}])/giu,
	es: /(?<![\p{L}\p{N}])(?:pasa|pasar[aá]|ocurre|ocurrir[aá]|sucede|suceder[aá]|significa|significan|significado|quiere\s+decir|quieren\s+decir|hace\s+falta|ubicad[oa]s?|situad[oa]s?)(?![\p{L}\p{N}])/giu
};

/**
 * The verb of an English duration question ("How long does a key last?", "How long does training
 * take?"): the answer states the time ("Keys expire after 90 days"), not the verb, and a passage
 * that repeats it ("the last progress notification") is no better for it. Spanish keeps its verb:
 * "dura" shares its stem with "duración", which the answer often writes.
 */
const DURATION_VERBS = /(?<![\p{L}\p{N}])(?:last|lasts|lasted|take|takes|took)(?![\p{L}\p{N}])/giu;

/** The words that open a count question ("how many", "cuántos"), and at most this many words after them name what is counted. */
const HOW_MANY: Record<Locale, ReadonlyArray<readonly string[]>> = {
	en: [["how", "many"]],
	es: [["cuántos"], ["cuántas"], ["cuantos"], ["cuantas"]]
};
const COUNTED_WORDS = 2;

/** The question's words in lower case, split at anything but letters, digits and "_", "/", "-". */
function lowerWords(question: string): string[] {
	return question.toLowerCase().split(/[^\p{L}\p{N}_/-]+/u).filter(Boolean);
}

/** The terms of the words right after "how many" up to the first word with no term (a verb's auxiliary, an article). */
function countedTerms(words: readonly string[], locale: Locale): string[] {
	for (const opener of HOW_MANY[locale]) {
		for (let i = 0; i + opener.length <= words.length; i++) {
			if (!opener.every((word, k) => words[i + k] === word)) continue;
			const terms: string[] = [];
			for (const word of words.slice(i + opener.length, i + opener.length + COUNTED_WORDS)) {
				const analysed = analyze(word, locale);
				if (analysed.length === 0) break;
				terms.push(...analysed);
			}
			return terms;
		}
	}
	return [];
}

/** Words after which a thing's name stops: "a spare lid for the Zephyr-9" is a lid. */
const PREPOSITIONS: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["for", "of", "on", "in", "with", "per", "at", "from", "to"]),
	es: new Set(["de", "del", "para", "por", "en", "con", "al", "a"])
};

const ASKS_HOW_TO: Record<Locale, RegExp> = {
	en: /^\s*(?:how (?:do|can|should|would) (?:i|you|we|one)|how to|(?:which|what) command)\b/iu,
	es: /^\s*¿?\s*(?:c[oó]mo (?:hago|puedo|se hace|debo)|qu[eé] (?:comando|orden))(?!\p{L})/iu
};

/** A question asking how to do something ("How do I…", "Which command…", "¿Cómo puedo…?"): a command or an example alone may answer it. */
export function asksHowTo(question: string, locale: Locale): boolean {
	return ASKS_HOW_TO[locale].test(question);
}

/**
 * The term of the thing a price question prices: in English the last word before "cost" (before
 * any preposition: "a spare lid for the Zephyr-9" → "lid"); in Spanish the first word with a term
 * after "cuesta" / "vale". None when that word is a name (the name rule reads those).
 */
function pricedTerms(words: readonly string[], locale: Locale, names: readonly string[]): string[] {
	let thing: string[] = [];
	if (locale === "en") {
		const at = words.findIndex(word => word === "cost" || word === "costs");
		const start = words.findIndex(word => word === "does" || word === "do");
		if (at < 0 || start < 0 || start >= at) return [];
		thing = words.slice(start + 1, at);
		const cut = thing.findIndex(word => PREPOSITIONS.en.has(word));
		if (cut >= 0) thing = thing.slice(0, cut);
		thing = thing.reverse();
	} else {
		const at = words.findIndex(word => ["cuesta", "cuestan", "vale", "valen"].includes(word));
		if (at < 0) return [];
		thing = words.slice(at + 1).filter(word => !PREPOSITIONS.es.has(word));
	}
	for (const word of thing) {
		const [term] = analyze(word, locale);
		if (term !== undefined) return names.includes(term) ? [] : [term];
	}
	return [];
}

export function parseQuestion(question: string, locale: Locale): ParsedQuestion {
	let expects = expectedAnswerType(question, locale);
	let framed = question.replace(QUANTITY_PHRASES[locale], " ").replace(FRAME_WORDS[locale], " ");
	if (expects === "duration" && locale === "en") framed = framed.replace(DURATION_VERBS, " ");
	let terms = [...new Set(analyze(framed, locale))];
	// "How much?" alone: better to match on the phrase than on nothing.
	if (terms.length === 0) terms = [...new Set(analyze(question, locale))];
	const written = nameTerms(question, locale);
	const names = written.names.filter(term => terms.includes(term));
	const acronyms = written.acronyms.filter(term => names.includes(term));
	const counted = expects === "count" ? countedTerms(lowerWords(question), locale) : [];
	// "How many dashes or asterisks…" counts either; it offers no alternatives to choose between.
	const choices = written.choices
		.map(group => group.filter(term => terms.includes(term)))
		.filter(group => group.length > 1 && !counted.includes(group[0]));
	// "Are prompts picked by the user or by the model?" opens as a yes/no question but asks which:
	// a "not" or a "must" says nothing of which one (a passage saying the protocol "does not mandate"
	// an interaction model outranked the one saying prompts are user-controlled).
	if (expects === "polar" && choices.length > 0) expects = undefined;
	const phrases = locale === "en" ? phrasalVerbs(question).filter(phrase => terms.includes(phrase.term)) : [];
	const priced = expects === "money" ? pricedTerms(lowerWords(question), locale, names) : [];
	const defined = expects === "definition" ? definedSubject(question, locale) : undefined;
	return {
		terms,
		names,
		acronyms,
		phrases,
		choices,
		numerals: written.numerals,
		condition: askedCondition(question, locale).filter(term => terms.includes(term)),
		...(expects ? { expects } : {}),
		...(counted.length > 0 ? { counted } : {}),
		...(priced.length > 0 ? { priced } : {}),
		...(defined ? { defined } : {})
	};
}
