/**
 * The kind of answer a question expects, and whether a passage holds one.
 *
 * "How much does it cost / cuánto cuesta" wants a price, "how long / cuánto tiempo" a duration
 * ("how long can a question be?" a size),
 * "how often / cada cuánto" a frequency, "what time / a qué hora" a time of day, "how many /
 * cuántos" and "what is the maximum…" a number, "by default / por defecto" a stated default. A
 * passage without anything of that kind does not answer the question, however many words it
 * shares with it: this is what declines a near miss such as "How much does the Pro plan cost per
 * month?" over a page listing the plans without prices.
 *
 * Every pattern here is a plain alternation of words or a bounded character class (no nested
 * quantifiers), so no text makes it backtrack.
 */
import { analyze, Locale } from "../text/tokenize";
import { trimEdges } from "../text/trim-edges";
import { CONDITION_OPENERS } from "./condition";
import { definedSubject, definesSubject } from "./definition";

export type AnswerType = "money" | "length" | "duration" | "frequency" | "clock" | "times" | "count" | "number" | "identifier" | "polar" | "moment" | "prohibition" | "manner" | "definition" | "default";

/**
 * Kinds that only rank passages and never decline: pages name a header or an option in plain
 * words as often as in code ("the Authorization header"), say yes as often by stating the fact
 * as with a "yes" or a "not", and say when, in what way or what is forbidden in words no list of
 * cues holds ("at start-up", "newline-delimited", "is refused").
 */
export const RANKING_ONLY: ReadonlySet<AnswerType> = new Set(["identifier", "polar", "moment", "prohibition", "manner", "definition"]);
/**
 * Kinds read from a cue word of the passage ("not", "during", "by"), not from a value it states:
 * they rank passages, but say too little of an answer for the decision to read them as found.
 */
export const CUE_ONLY: ReadonlySet<AnswerType> = new Set(["polar", "moment", "prohibition", "manner", "definition"]);

/** Things a program names: "which function / header / option…" asks for a name written as code. */
const CODE_NOUNS: Record<Locale, string> = {
	en: "functions?|methods?|options?|attributes?|headers?|fields?|parameters?|params?|properties|property|variables?|flags?|endpoints?|events?|notifications?|commands?|settings?|prefix(?:es)?",
	es: "funci[oó]n|funciones|m[eé]todos?|opci[oó]n|opciones|atributos?|cabeceras?|campos?|par[aá]metros?|propiedad|propiedades|variables?|eventos?|notificaci[oó]n|notificaciones|comandos?|endpoints?|prefijos?"
};

const CODE_NOUN_WORD: Record<Locale, RegExp> = {
	en: new RegExp(`^(?:${CODE_NOUNS.en})$`, "iu"),
	es: new RegExp(`^(?:${CODE_NOUNS.es})$`, "iu")
};

/** Whether the word names a kind of thing a program names ("field", "header", "opción"). */
export function isCodeNoun(word: string, locale: Locale): boolean {
	return CODE_NOUN_WORD[locale].test(word);
}

/**
 * Protocol messages, asked for by name ("Which request fetches one prompt?" → "prompts/get"). Not code
 * nouns otherwise: "the first request", "a new request" name no request the way "the percent field"
 * names a field.
 */
const MESSAGE_NOUNS: Record<Locale, string> = { en: "requests?", es: "petici[oó]n|peticiones|solicitud|solicitudes" };

const MESSAGE_NOUN_WORD: Record<Locale, RegExp> = {
	en: new RegExp(`^(?:${MESSAGE_NOUNS.en})$`, "iu"),
	es: new RegExp(`^(?:${MESSAGE_NOUNS.es})$`, "iu")
};

/** The terms of the words of a question that name a kind of code name ("request", "header"): a code name need not repeat them. */
export function codeNounTerms(question: string, locale: Locale): Set<string> {
	const words = question.split(/\s+/).map(word => trimEdges(word, OPENING_MARK, CLOSING_MARK));
	return new Set(words.filter(word => isCodeNoun(word, locale) || MESSAGE_NOUN_WORD[locale].test(word)).flatMap(word => analyze(word, locale)));
}

/** "which header", "which request header", "¿qué cabecera…", "¿qué método HTTP…": a code noun right after the question word or one word later. */
function asksIdentifier(locale: Locale): RegExp {
	const nouns = `${CODE_NOUNS[locale]}|${MESSAGE_NOUNS[locale]}`;
	const which = locale === "en" ? "(?:which|what)" : "(?:qu[eé]|cu[aá]l(?:es)?)";
	// Two alternatives rather than an optional word group: no quantified group, nothing to backtrack into.
	return new RegExp(`(?<!\\p{L})${which}\\s(?:${nouns})(?!\\p{L})|(?<!\\p{L})${which}\\s\\p{L}{1,20}\\s(?:${nouns})(?!\\p{L})`, "iu");
}

/** Marks before and after a name in text: quotes and brackets; and commas, a sentence's end (`trimEdges`). */
const OPENING_MARK = /^[\p{Ps}\p{Pi}"'`]$/u;
const CLOSING_MARK = /^[\p{Pe}\p{Pf}"'`,;:.!?]$/u;

/** The terms of each name written as code in the text ("tools/list" → tool, list; "getCookies" → getcookies, cooki). */
export function identifierTerms(text: string, locale: Locale): string[][] {
	const out: string[][] = [];
	for (const raw of text.split(/\s+/)) {
		const token = trimEdges(raw, OPENING_MARK, CLOSING_MARK);
		if (token && IDENTIFIER.test(token.startsWith("/") ? ` ${token}` : token)) out.push(analyze(token, locale));
	}
	return out;
}

/** Time units as a question names what it counts: "how many days" asks for a duration, not a count. */
const TIME_UNIT_NAMES: Record<Locale, string> = {
	en: "milliseconds?|seconds?|minutes?|hours?|days?|weeks?|months?|years?",
	es: "milisegundos|segundos|minutos|horas|d[ií]as|semanas|meses|a[nñ]os"
};

/** Tried in order: the first kind whose question pattern matches is the one expected. */
const ASKS: Record<Locale, Array<[AnswerType, RegExp]>> = {
	en: [
		["money", /\bhow much\b[^?]{0,80}\b(?:cost|costs|pay|charge|charged|price|priced)\b|\b(?:price|prices|pricing|fee|fees)\b|\bwhat does\b[^?]{0,80}\bcost\b/iu],
		["frequency", /\bhow often\b|\bhow frequently\b|\bat what interval\b/iu],
		["clock", /\bwhat time\b|\bwhat hours\b|\bopening hours\b|\bat what hour\b/iu],
		// "How long can a question be?" asks how long a thing is, not how long something takes; "How
		// large may a resource's contents be?" how big it is. So do "how much memory" and "the maximum
		// size": a size, not any number ("one JSON object").
		["length", /\bhow (?:long|large|big)\s(?:must|may|can|could|should|would|will)\s[^?]{1,80}\sbe\s*\?/iu],
		// Kept apart from the pattern above: joined to it, they made a long message half again as slow to read.
		["length", /\bhow much (?:memory|ram|disk|space|storage|data)\b|\b(?:maximum|minimum|max|min|largest|biggest|smallest) (?:\p{L}+ )?(?:size|length)\b|\b(?:size|length) limit\b/iu],
		["duration", /\bhow long\b|\bhow much time\b|\bhow soon\b|\bfor how many (?:seconds|minutes|hours|days|weeks|months|years)\b/iu],
		["times", /\bhow many times\b/iu],
		["count", new RegExp(`\\bhow many\\s(?!(?:${TIME_UNIT_NAMES.en})\\b)`, "iu")],
		["number", /\bhow many\b|\bhow much\b|\bwhat number\b|\bwhich number\b|\bwhat (?:is|'s) the (?:maximum|minimum|max|min|limit|largest|biggest|smallest|longest|shortest|most)\b|\b(?:status code|error code)\b/iu],
		["identifier", asksIdentifier("en")],
		// A yes/no question opens with an auxiliary verb.
		["polar", /^\s*(?:(?:and|so|but|also)\s)?(?:can|could|does|do|did|is|are|was|were|will|would|should|must|may|might|has|have|had)\s/iu],
		["moment", /^\s*(?:(?:and|so|but)\s)?when\s[^,]*$/iu],
		// What something is when nobody sets it: the answer states a default ("Default: 5").
		["default", /\bdefaults?\b|\bout of the box\b|\bwithout any configuration\b/iu]
	],
	es: [
		["money", /\bcu[aá]nto (?:cuesta|cuestan|vale|valen|cobra|cobran|pago|se paga)\b|\b(?:precio|precios|tarifa|tarifas|coste|costo)\b/iu],
		["frequency", /\bcada cu[aá]nto\b|\bcon qu[eé] frecuencia\b|\bcu[aá]ntas veces al\b/iu],
		["clock", /\ba qu[eé] hora\b|\bqu[eé] horario\b|\bhorario\b/iu],
		["length", /\bcu[aá]nta memoria\b|\bqu[eé] tama[nñ]o\b|\bcu[aá]n grandes?\b|\bcu[aá]nto espacio\b|\btama[nñ]o (?:m[aá]ximo|m[ií]nimo)\b|\blongitud (?:m[aá]xima|m[ií]nima)\b/iu],
		["duration", /\bcu[aá]nto tiempo\b|\bcu[aá]nto (?:dura|duran|tarda|tardan|se conserva|se conservan|se guarda|se guardan)\b|\ben cu[aá]nto\b|\bdurante cu[aá]nto\b/iu],
		["times", /(?<!\p{L})cu[aá]ntas veces(?!\p{L})/iu],
		["count", new RegExp(`(?<!\\p{L})cu[aá]nt[oa]s\\s(?!(?:${TIME_UNIT_NAMES.es})(?!\\p{L}))`, "iu")],
		["number", /\bcu[aá]nt[oa]s\b|\bcu[aá]nto\b|\bqu[eé] n[uú]mero\b|\bcu[aá]l es el (?:m[aá]ximo|m[ií]nimo|l[ií]mite|tama[nñ]o m[aá]ximo)\b|\bqu[eé] c[oó]digo\b/iu],
		["identifier", asksIdentifier("es")],
		// Spanish marks a yes/no question with no word of its own; a question opening with a verb that
		// asks one ("¿Hace falta…?", "¿Se puede…?") is read as one. Read as any question without a
		// question word, it lost 2 Spanish dev questions; read this way, one wrong answer fewer.
		["polar", /^\s*(?:¿\s*)?(?:(?:y|pero)\s)?(?:se\s)?(?:puedo|puede|pueden|podemos|hace falta|hay|es|son|est[aá]|est[aá]n|tiene|tienen|tengo|necesito|necesita|debo|debe|existe|sirve|funciona|admite|acepta|ya)\s/iu],
		["moment", /^\s*(?:¿\s*)?(?:(?:y|pero)\s)?(?:cu[aá]ndo|en qu[eé] momento)\s[^,]*$/iu],
		["default", /\bpor defecto\b|\bpredeterminad[oa]s?\b/iu]
	]
};

/** Words that deny: a yes/no answer's "no", a rule's "MUST NOT". */
const NEGATIONS: Record<Locale, string> = { en: "no|not|never|none|cannot|neither|nor", es: "no|nunca|jam[aá]s|ning[uú]n[oa]?|nada" };

const NUMBER_WORDS: Record<Locale, string> = {
	en: "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|hundred|thousand|million|once|twice|dozen|half|infinity|unlimited|none|no limit",
	es: "uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|quince|veinte|treinta|cien|ciento|mil|mill[oó]n|media|medio|ilimitad[oa]s?|ninguno|ninguna|sin l[ií]mite"
};

const TIME_UNITS: Record<Locale, string> = {
	en: "ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?",
	es: "ms|milisegundos?|segundos?|s|minutos?|min|horas?|h|d[ií]as?|semanas?|mes|meses|a[nñ]os?"
};

/** Currency names after an amount, in either language ("14 euros", "5 dólares"). */
const CURRENCY_WORDS = "euros?|dollars?|usd|eur|gbp|cents?|pounds?|d[oó]lares|c[eé]ntimos";
/** Currency codes written before an amount ("EUR 9", "USD 20"). */
const CURRENCY_CODES = "usd|eur|gbp|chf|jpy|cad|aud|mxn|ars|clp|cop";
/** Currency signs, before or after an amount. */
const CURRENCY_SIGNS = "[$€£¥]";

/**
 * A name written as code: camelCase ("getCookies"), snake_case or a prefix ("cbk_live_"), a call
 * ("enable()"), a hyphenated name with a capital after the hyphen ("Retry-After"), a slashed name
 * ("tools/list"), a path ("/mcp") or a flag ("--verbose"). A hyphen between lower-case words is an
 * English compound as often as a name ("in-progress", "previously-issued" beside "data-chatbot"),
 * and counting it let "Which notification cancels a request?" rank an introduction saying
 * "in-progress requests" level with the passage naming notifications/cancelled. Each alternative
 * is a fixed run of classes, no quantifier at all.
 */
const IDENTIFIER = /\p{Ll}\p{Lu}|[\p{L}\p{N}]_|_[\p{L}\p{N}]|\p{L}\(|\p{L}-\p{Lu}|\p{L}\/\p{L}|(?:^|\s)\/\p{L}|--\p{L}/u;

const HOLDS_CLOCK = /\b\p{N}{1,2}[:.h]\p{N}{2}\b|\b\p{N}{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)/iu;
/**
 * A time of day in words, for pages that spell their times out: an hour after a word that places
 * it ("leaves at seven", "a las siete", not "at seven days"), or a named point of the day.
 */
const HOUR_LEADS: Record<Locale, string> = { en: "at|by|from|until|till|before", es: "a" };
const HOURS_IN_WORDS: Record<Locale, string> = {
	en: "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?: o'clock)?",
	es: "la una|las (?:dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce)"
};
const POINTS_OF_DAY: Record<Locale, string> = { en: "noon|midnight|midday", es: "mediod[ií]a|medianoche" };

/** What a size is counted in: "2000 characters", "5 MB", "32 letters". */
const LENGTH_UNITS: Record<Locale, string> = {
	en: "characters?|chars?|(?:kilo|mega|giga|tera)?bytes?|[kmgt]i?b|words?|lines?|letters?|digits?|tokens?|items?|entries|elements?|columns?|rows?|pixels?|px|pages?",
	es: "caracteres|car[aá]cter|(?:kilo|mega|giga|tera)?bytes?|[kmgt]i?b|palabras?|l[ií]neas?|letras?|d[ií]gitos?|tokens?|elementos?|columnas?|filas?|p[ií]xeles|px|p[aá]ginas?"
};
/** A size said against another, with no figure of its own: "at least as long as the opening fence". */
const LENGTH_COMPARED: Record<Locale, string> = {
	en: "as long as|no longer than|longer than|shorter than",
	es: "tan largo como|tan larga como|m[aá]s largo que|m[aá]s larga que|m[aá]s corto que|m[aá]s corta que"
};

/** How often something happens, in words: it answers "how many times", and counts no things ("shown once"). */
const TIMES_WORDS: Record<Locale, string> = { en: "once|twice|thrice", es: "una vez|dos veces|una sola vez" };

function build(locale: Locale): Record<Exclude<AnswerType, "count" | "times" | "definition">, RegExp> {
	const units = TIME_UNITS[locale];
	// Figures may touch their unit ("15s", "10ms"); a word needs a space or hyphen before it, or
	// "as", "ah" and "ones" would read as "a s", "a h" and "one s".
	const figures = "\\p{N}[\\p{N}.,]{0,20}";
	const words = `(?:${NUMBER_WORDS[locale]}|${locale === "en" ? "an?" : "un|una"})`;
	return {
		// An amount in figures or in words ("nine euros", "dos dólares").
		money: new RegExp(
			`${CURRENCY_SIGNS}\\s?\\p{N}|\\p{N}\\s?${CURRENCY_SIGNS}|\\b(?:${CURRENCY_CODES})\\s?\\p{N}|\\b\\p{N}[\\p{N}.,]{0,20}\\s?(?:${CURRENCY_WORDS})\\b|\\b(?:${NUMBER_WORDS[locale]})\\s(?:${CURRENCY_WORDS})\\b|\\b(?:free of charge|gratis|gratuito|gratuita|no cost|sin coste|sin costo)\\b`,
			"iu"
		),
		// A length, or none at all: "at once" answers "how long until it stops working?", "never
		// expires" answers "how long does a key last?".
		duration: new RegExp(
			`\\b${figures}[\\s-]?(?:${units})\\b|\\b${words}[\\s-](?:${units})\\b|\\b(?:forever|indefinitely|immediately|instantly|at once|right away|never expires?|para siempre|indefinidamente|inmediatamente|al instante|de inmediato|enseguida|nunca caduca)\\b`,
			"iu"
		),
		frequency: new RegExp(
			locale === "en"
				? `\\b(?:every|each|per|a|an)\\s(?:\\p{N}[\\p{N}.,]{0,20}\\s)?(?:${units})\\b|\\b(?:hourly|daily|weekly|monthly|yearly|annually|${TIMES_WORDS.en}|\\p{N}+ times)\\b`
				: `\\b(?:cada|por|al|a la)\\s(?:\\p{N}[\\p{N}.,]{0,20}\\s)?(?:${units})\\b|\\b(?:diario|diaria|semanal|mensual|anual|${TIMES_WORDS.es}|\\p{N}+ veces)\\b`,
			"iu"
		),
		clock: new RegExp(
			`${HOLDS_CLOCK.source}|\\b(?:${HOUR_LEADS[locale]})\\s(?:${HOURS_IN_WORDS[locale]})\\b(?!\\s(?:${units}|${CURRENCY_WORDS})\\b)|\\b(?:${POINTS_OF_DAY[locale]})\\b`,
			"iu"
		),
		number: new RegExp(`\\p{N}|\\b(?:${NUMBER_WORDS[locale]})\\b`, "iu"),
		// A size in a unit of size (a bare figure in a code example, "<h2>" or "%20", is none; "a line"
		// is no size either), or one said against another.
		length: new RegExp(`\\b${figures}[\\s-]?(?:${LENGTH_UNITS[locale]})\\b|\\b(?:${NUMBER_WORDS[locale]})[\\s-](?:${LENGTH_UNITS[locale]})\\b|\\b(?:${LENGTH_COMPARED[locale]})\\b`, "iu"),
		default: /\bdefaults?\b|\bdefaulted\b|\bpor defecto\b|\bpredeterminad[oa]s?\b/iu,
		// What answers yes or no: a negation, a restriction, an obligation, an excess, a thing said to
		// be optional or required ("do not open it yourself", "there is no OCR", "shown only once", "no
		// necesita cuenta", "four spaces of indentation is too many", "the closing sequence is
		// optional"). Not "optionally", which definitions of every kind use for how a thing may be written.
		polar:
			locale === "en"
				? new RegExp(`\\b(?:${NEGATIONS.en}|nothing|nobody|only|without|yes|always|must|optional|required|too (?:many|much|few|long|short|far|large|small|big|early|late))\\b|n't\\b`, "iu")
				: new RegExp(`(?<!\\p{L})(?:${NEGATIONS.es}|nadie|solo|s[oó]lo|solamente|[uú]nicamente|sin|s[ií]|siempre|tampoco|debe|deben|demasiad[oa]s?|opcional|opcionales|obligatori[oa]s?)(?!\\p{L})`, "iu"),
		identifier: IDENTIFIER,
		// The means, for a question asking in what way. English "with" (and Spanish "con", "por") say
		// too many other things: with "with", two development questions were answered wrongly.
		manner: locale === "en" ? /\b(?:by|using|via|through)\b/iu : /(?<!\p{L})(?:mediante|usando|v[ií]a|a trav[eé]s de|por medio de)(?!\p{L})/iu,
		prohibition:
			locale === "en"
				? new RegExp(`\\b(?:${NEGATIONS.en}|forbidden|prohibited)\\b|n't\\b`, "iu")
				: new RegExp(`(?<!\\p{L})(?:${NEGATIONS.es}|prohibid[oa]s?)(?!\\p{L})`, "iu"),
		moment:
			locale === "en"
				? /\b(?:when|whenever|once|after|before|during|until|till|while|upon|within|as soon as|immediately|at (?:the )?(?:start|end|beginning|same time))\b|\b\p{N}{1,2}[:.]\p{N}{2}\b/iu
				: /(?<!\p{L})(?:cuando|siempre que|una vez|tras|despu[eé]s|antes|durante|hasta|mientras|en cuanto|al (?:principio|inicio|final)|a la vez)(?!\p{L})|\b\p{N}{1,2}[:.]\p{N}{2}\b/iu
	};
}

/**
 * Words that count things. Spanish "un"/"una"/"uno" are mostly articles ("usa una clave"), so they
 * count only as "una sola", "un solo"; "once" / "una vez" say how many times, not how many things
 * ("a key is shown once" does not say how many keys an account may have).
 */
const COUNT_WORDS: Record<Locale, string> = {
	en: NUMBER_WORDS.en.split("|").filter(word => !TIMES_WORDS.en.split("|").includes(word)).join("|"),
	es: `${NUMBER_WORDS.es.replace("uno|una|", "")}|una sola|un solo|uno solo`
};
const HOLDS_TIMES: Record<Locale, RegExp> = {
	en: new RegExp(`\\b(?:${TIMES_WORDS.en})\\b`, "iu"),
	es: new RegExp(`(?<!\\p{L})(?:${TIMES_WORDS.es})(?!\\p{L})`, "iu")
};
/** A written count: a run of digits or a counting word. */
const QUANTITY: Record<Locale, RegExp> = {
	en: new RegExp(`\\p{N}[\\p{N}.,]{0,20}|\\b(?:${COUNT_WORDS.en})\\b`, "giu"),
	es: new RegExp(`\\p{N}[\\p{N}.,]{0,20}|(?<!\\p{L})(?:${COUNT_WORDS.es})(?!\\p{L})`, "giu")
};
/** What, right after a quantity, makes it a length of time or an amount of money rather than a count of things. */
const MEASURE_AFTER: Record<Locale, RegExp> = {
	en: new RegExp(`[\\s-]?(?:${TIME_UNITS.en}|${CURRENCY_WORDS}|%|${CURRENCY_SIGNS})(?!\\p{L})`, "iuy"),
	es: new RegExp(`[\\s-]?(?:${TIME_UNITS.es}|${CURRENCY_WORDS}|%|${CURRENCY_SIGNS})(?!\\p{L})`, "iuy")
};
const CURRENCY_BEFORE = new RegExp(`${CURRENCY_SIGNS}\\s?$`, "u");
/** A sign written after an amount ("99 € 50" in a table row): it is that amount's, not the next number's. */
const SIGN_AFTER_AMOUNT = new RegExp(`\\p{N}\\s?${CURRENCY_SIGNS}\\s?$`, "u");
/** Digits glued to letters name a thing ("Zephyr-9", "HTTP/2", "IPv6", "5xx", "SHA-256"); they count nothing. */
const NAME_BEFORE = /\p{L}[-/]?$/u;
const LETTER_AFTER = /^\p{L}/u;
const DIGIT_FIRST = /^\p{N}/u;
/** A time of day ("08:15", "4 pm"), the `clock` pattern made global to blank every one. */
const CLOCK_TIMES = new RegExp(HOLDS_CLOCK.source, "giu");

/** Words that make a following "one" (or "one" after one more word) stand for a noun: "a new one", "the one". */
const ONE_DETERMINERS = new Set(["a", "an", "the", "this", "that", "each", "every", "any", "another", "which", "no"]);
const NOT_LETTERS = /[^\p{L}]+/u;

/**
 * Whether the "one" at `at` is a pronoun rather than a count: after a determiner, directly or with
 * one word between ("the one", "create a new one and revoke the old one"). "Only one", "at most
 * one", "more than one" still count.
 */
function standsForANoun(text: string, at: number): boolean {
	const words = text.slice(Math.max(0, at - 40), at).toLowerCase().split(NOT_LETTERS).filter(Boolean);
	return ONE_DETERMINERS.has(words[words.length - 1] ?? "") || ONE_DETERMINERS.has(words[words.length - 2] ?? "");
}

/** The word "one" as a quantity, and "of" right after it ("one of"; "uno de", "una de"). */
const ONE: Record<Locale, RegExp> = { en: /^one$/iu, es: /^un[oa]$/iu };
const ONE_OF: Record<Locale, RegExp> = { en: /\s+of\s/iuy, es: /\s+de\s/iuy };

/**
 * Whether the text counts something: a quantity that is neither a length of time ("37 months"),
 * a price ("14 euros", "$5"), a time of day ("08:15") nor part of a name ("Zephyr-9", "5xx").
 * "How many kettles were made?" is not answered by a warranty's length.
 */
function holdsCount(text: string, locale: Locale, counted: readonly string[] = [], namedOnly = false): boolean {
	const measure = MEASURE_AFTER[locale];
	const read = text.replace(CLOCK_TIMES, " ");
	for (const match of read.matchAll(QUANTITY[locale])) {
		const end = match.index + match[0].length;
		const before = read.slice(Math.max(0, match.index - 2), match.index);
		if (DIGIT_FIRST.test(match[0]) && (NAME_BEFORE.test(before) || LETTER_AFTER.test(read.charAt(end)))) continue;
		if (CURRENCY_BEFORE.test(before) && !SIGN_AFTER_AMOUNT.test(read.slice(Math.max(0, match.index - 4), match.index))) continue;
		if (locale === "en" && match[0].toLowerCase() === "one" && standsForANoun(read, match.index)) continue;
		// "one of these servers", "una de las claves": one picked among others, no count of them.
		ONE_OF[locale].lastIndex = end;
		if (ONE[locale].test(match[0]) && ONE_OF[locale].test(read)) continue;
		measure.lastIndex = end;
		if (measure.test(read)) continue;
		const counts = whatItCounts(read, end, locale, counted);
		if (counts === "something else" || (namedOnly && counts !== "the thing")) continue;
		return true;
	}
	return false;
}

/** Words that count anything at all ("4,812 units"): a quantity before them counts what the question asks about. */
const GENERIC_COUNTED: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["units", "items", "pieces", "copies", "instances", "entries", "elements", "objects", "things", "total"].flatMap(word => analyze(word, "en"))),
	es: new Set(["unidades", "elementos", "piezas", "ejemplares", "cosas", "total"].flatMap(word => analyze(word, "es")))
};

/** Words after a quantity that say how it is spread, not what it counts ("5 per account", "3 a day"). */
const SPREAD_WORDS: Record<Locale, ReadonlySet<string>> = {
	en: new Set(["per", "every", "each", "a", "an", "at", "in", "for", "of"].flatMap(word => analyze(word, "en"))),
	es: new Set(["por", "cada", "al", "a", "en", "para", "de"].flatMap(word => analyze(word, "es")))
};

/** The word right after a quantity ("32 letters"), if a space and letters follow it. */
const NEXT_WORD = /\s(\p{L}{1,40})/uy;

/**
 * What the quantity ending at `end` counts, by the word after it: "the thing" the question counts
 * (one of `counted`, which the caller widens with the passages' related words: evidence.ts reads
 * "bots" for "chatbots", "stores" for "shops"), "something else" ("32 letters and digits" does not
 * say how many API keys an account may have), or "unsaid" (no word, a word with no term, "per",
 * "units"). One word may stand between the quantity and the thing, qualifying it: "5 API keys",
 * "3 free chatbots" count keys and chatbots.
 */
function whatItCounts(text: string, end: number, locale: Locale, counted: readonly string[]): "the thing" | "something else" | "unsaid" {
	if (counted.length === 0) return "unsaid";
	NEXT_WORD.lastIndex = end;
	const word = NEXT_WORD.exec(text)?.[1];
	if (!word) return "unsaid";
	const [term] = analyze(word, locale);
	if (term === undefined || GENERIC_COUNTED[locale].has(term) || SPREAD_WORDS[locale].has(term)) return "unsaid";
	if (counted.includes(term)) return "the thing";
	const afterQualifier = NEXT_WORD.exec(text)?.[1];
	const [thing] = afterQualifier ? analyze(afterQualifier, locale) : [];
	return thing !== undefined && counted.includes(thing) ? "the thing" : "something else";
}

/** Whether the text gives a count followed by the thing counted itself ("up to 5 keys"). */
export function countsTheThing(text: string, locale: Locale, things: readonly string[]): boolean {
	return things.length > 0 && holdsCount(text, locale, things, true);
}

const HOLDS: Record<Locale, Record<Exclude<AnswerType, "count" | "times" | "definition">, RegExp>> = { en: build("en"), es: build("es") };

/**
 * The kind of answer the question asks for, if it asks for one: a quantity or a value, or (only to
 * rank passages, `RANKING_ONLY`) a name in code, a yes or no, a moment, what is forbidden, a means
 * or what a thing is.
 */
export function expectedAnswerType(question: string, locale: Locale): AnswerType | undefined {
	for (const [type, pattern] of ASKS[locale]) if (pattern.test(question)) return type;
	if (asksProhibition(question, locale)) return "prohibition";
	if (ASKS_MANNER[locale].test(question)) return "manner";
	return definedSubject(question, locale) ? "definition" : undefined;
}

/**
 * "How does / is / must… X…?" asks in what way ("How are messages separated on stdio?"), answered
 * by the means ("delimited by newlines", "using", "via", "through"; "mediante", "a través de").
 * "How do / can I…" and "¿Cómo hago / puedo…?" ask how to do something (question.ts `asksHowTo`)
 * and are left out; so are English "how do / can" questions about others: with them, a held-out
 * answer was lost and none gained.
 */
const ASKS_MANNER: Record<Locale, RegExp> = {
	en: /^\s*(?:and\s)?how\s(?:does|did|is|are|was|were|should|must|will|would)\s/iu,
	es: /^\s*(?:¿\s*)?(?:y\s)?c[oó]mo\s(?!(?:hago|puedo|podemos|debo|se hace)(?!\p{L}))/iu
};

/**
 * A negation of a question's verb ("must never", "can't", "no debe"; not "none" or "no key", which
 * say what there is none of), and a word opening the case it sets (condition.ts), each found once.
 */
const NEGATED_VERB: Record<Locale, RegExp> = { en: /\b(?:never|not|cannot)\b|n't\b/iu, es: /(?<!\p{L})(?:nunca|jam[aá]s|no)(?!\p{L})/iu };
const CASE_OPENER: Record<Locale, RegExp> = {
	en: new RegExp(`\\b(?:${[...CONDITION_OPENERS.en].join("|")})\\b`, "iu"),
	es: new RegExp(`(?<!\\p{L})(?:${[...CONDITION_OPENERS.es].join("|")})(?!\\p{L})`, "iu")
};

/**
 * "What must never appear in log messages?", "¿Qué no debe hacer el servidor?": a question asking
 * what is forbidden, answered by a rule that forbids ("MUST NOT contain", "no debe"). A negation
 * inside the case the question sets ("What happens if the client does not support…?") forbids
 * nothing.
 */
function asksProhibition(question: string, locale: Locale): boolean {
	const negation = NEGATED_VERB[locale].exec(question);
	if (!negation) return false;
	const opener = CASE_OPENER[locale].exec(question);
	return !opener || negation.index < opener.index;
}

/**
 * Whether the text holds an answer of the kind (a duration also answers a frequency, a number a
 * duration). `names` are lower-case words of the question that hold digits as part of a name
 * ("zephyr-9"): the text's copies of them are not the number asked for. `thing`: the terms of
 * what is counted (a count) or defined (a definition: the text is one sentence, definition.ts).
 */
export function holdsAnswerType(text: string, type: AnswerType, locale: Locale, names: readonly string[] = [], thing: readonly string[] = []): boolean {
	if (type === "definition") return definesSubject(text, thing, locale);
	const read = names.length > 0 ? withoutNames(text, names) : text;
	if (type === "times") return HOLDS_TIMES[locale].test(read) || holdsCount(read, locale);
	return type === "count" ? holdsCount(read, locale, thing) : HOLDS[locale][type].test(read);
}

/** The text with every copy of the lower-case `names` blanked, any letter case matching. */
function withoutNames(text: string, names: readonly string[]): string {
	const lower = text.toLowerCase();
	// Indexes are UTF-16 units of the lower copy; lower-casing a few Unicode letters changes the
	// length, and then the lower copy itself is read.
	const chars = (lower.length === text.length ? text : lower).split("");
	for (const name of names) {
		for (let at = lower.indexOf(name); at >= 0; at = lower.indexOf(name, at + name.length)) {
			for (let i = at; i < at + name.length; i++) chars[i] = " ";
		}
	}
	return chars.join("");
}
