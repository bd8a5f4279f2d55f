/**
 * The kind of answer a question expects, and whether a passage holds one.
 *
 * "How much does it cost / cuánto cuesta" wants a price, "how long / cuánto tiempo" a duration,
 * "how often / cada cuánto" a frequency, "what time / a qué hora" a time of day, "how many /
 * cuántos" and "what is the maximum…" a number. A passage without anything of that kind does not
 * answer the question, however many words it shares with it: this is what declines a near miss such
 * as "How much does the Pro plan cost per month?" over a page listing the plans without prices.
 *
 * Every pattern here is a plain alternation of words or a bounded character class (no nested
 * quantifiers), so no text makes it backtrack.
 */
import type { Locale } from "../text/tokenize";

export type AnswerType = "money" | "duration" | "frequency" | "clock" | "number" | "identifier";

/** Things a program names: "which function / header / option…" asks for a name written as code. */
const CODE_NOUNS: Record<Locale, string> = {
	en: "functions?|methods?|options?|attributes?|headers?|fields?|parameters?|params?|properties|property|variables?|flags?|endpoints?|events?|commands?|settings?|prefix(?:es)?",
	es: "funci[oó]n|funciones|m[eé]todos?|opci[oó]n|opciones|atributos?|cabeceras?|campos?|par[aá]metros?|propiedad|propiedades|variables?|eventos?|comandos?|endpoints?|prefijos?"
};

/** "which header", "which request header", "¿qué cabecera…", "¿qué método HTTP…": a code noun right after the question word or one word later. */
function asksIdentifier(locale: Locale): RegExp {
	const nouns = CODE_NOUNS[locale];
	const which = locale === "en" ? "(?:which|what)" : "(?:qu[eé]|cu[aá]l(?:es)?)";
	// Two alternatives rather than an optional word group: no quantified group, nothing to backtrack into.
	return new RegExp(`(?<!\\p{L})${which}\\s(?:${nouns})(?!\\p{L})|(?<!\\p{L})${which}\\s\\p{L}{1,20}\\s(?:${nouns})(?!\\p{L})`, "iu");
}

/** Tried in order: the first kind whose question pattern matches is the one expected. */
const ASKS: Record<Locale, Array<[AnswerType, RegExp]>> = {
	en: [
		["money", /\bhow much\b[^?]{0,80}\b(?:cost|costs|pay|charge|charged|price|priced)\b|\b(?:price|prices|pricing|fee|fees)\b|\bwhat does\b[^?]{0,80}\bcost\b/iu],
		["frequency", /\bhow often\b|\bhow frequently\b|\bat what interval\b/iu],
		["clock", /\bwhat time\b|\bwhat hours\b|\bopening hours\b|\bat what hour\b/iu],
		["duration", /\bhow long\b|\bhow much time\b|\bhow soon\b|\bfor how many (?:seconds|minutes|hours|days|weeks|months|years)\b/iu],
		["number", /\bhow many\b|\bhow much\b|\bwhat number\b|\bwhich number\b|\bwhat (?:is|'s) the (?:maximum|minimum|max|min|limit|largest|biggest|smallest|longest|shortest|most)\b|\b(?:status code|error code)\b/iu],
		["identifier", asksIdentifier("en")]
	],
	es: [
		["money", /\bcu[aá]nto (?:cuesta|cuestan|vale|valen|cobra|cobran|pago|se paga)\b|\b(?:precio|precios|tarifa|tarifas|coste|costo)\b/iu],
		["frequency", /\bcada cu[aá]nto\b|\bcon qu[eé] frecuencia\b|\bcu[aá]ntas veces al\b/iu],
		["clock", /\ba qu[eé] hora\b|\bqu[eé] horario\b|\bhorario\b/iu],
		["duration", /\bcu[aá]nto tiempo\b|\bcu[aá]nto (?:dura|duran|tarda|tardan|se conserva|se conservan|se guarda|se guardan)\b|\ben cu[aá]nto\b|\bdurante cu[aá]nto\b/iu],
		["number", /\bcu[aá]nt[oa]s\b|\bcu[aá]nto\b|\bqu[eé] n[uú]mero\b|\bcu[aá]l es el (?:m[aá]ximo|m[ií]nimo|l[ií]mite|tama[nñ]o m[aá]ximo)\b|\bqu[eé] c[oó]digo\b/iu],
		["identifier", asksIdentifier("es")]
	]
};

const NUMBER_WORDS: Record<Locale, string> = {
	en: "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|hundred|thousand|million|once|twice|dozen|half|infinity|unlimited|none|no limit",
	es: "uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|quince|veinte|treinta|cien|ciento|mil|mill[oó]n|media|medio|ilimitad[oa]s?|ninguno|ninguna|sin l[ií]mite"
};

const TIME_UNITS: Record<Locale, string> = {
	en: "ms|milliseconds?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?",
	es: "ms|milisegundos?|segundos?|s|minutos?|min|horas?|h|d[ií]as?|semanas?|mes|meses|a[nñ]os?"
};

/**
 * A name written as code: camelCase ("getCookies"), snake_case or a prefix ("cbk_live_"), a call
 * ("enable()"), a hyphenated or slashed name ("Retry-After", "data-chatbot", "tools/list"), a path
 * ("/mcp") or a flag ("--verbose"). Each alternative is a fixed run of classes, no quantifier at all.
 */
const IDENTIFIER = /\p{Ll}\p{Lu}|[\p{L}\p{N}]_|_[\p{L}\p{N}]|\p{L}\(|\p{L}[-/]\p{L}|(?:^|\s)\/\p{L}|--\p{L}/u;

function build(locale: Locale): Record<AnswerType, RegExp> {
	const units = TIME_UNITS[locale];
	const quantity = `(?:\\p{N}[\\p{N}.,]{0,20}|${NUMBER_WORDS[locale]}|${locale === "en" ? "an?" : "un|una"})`;
	return {
		money: /[$€£¥]\s?\p{N}|\p{N}\s?[$€£¥]|\b\p{N}[\p{N}.,]{0,20}\s?(?:euros?|dollars?|usd|eur|gbp|cents?|pounds?|d[oó]lares|c[eé]ntimos)\b|\b(?:free of charge|gratis|gratuito|gratuita|no cost|sin coste|sin costo)\b/iu,
		duration: new RegExp(`\\b${quantity}[\\s-]?(?:${units})\\b|\\b(?:forever|indefinitely|para siempre|indefinidamente)\\b`, "iu"),
		frequency: new RegExp(
			locale === "en"
				? `\\b(?:every|each|per|a|an)\\s(?:\\p{N}[\\p{N}.,]{0,20}\\s)?(?:${units})\\b|\\b(?:hourly|daily|weekly|monthly|yearly|annually|once|twice|\\p{N}+ times)\\b`
				: `\\b(?:cada|por|al|a la)\\s(?:\\p{N}[\\p{N}.,]{0,20}\\s)?(?:${units})\\b|\\b(?:diario|diaria|semanal|mensual|anual|una vez|dos veces|\\p{N}+ veces)\\b`,
			"iu"
		),
		clock: /\b\p{N}{1,2}[:.h]\p{N}{2}\b|\b\p{N}{1,2}\s?(?:am|pm|a\.m\.|p\.m\.)/iu,
		number: new RegExp(`\\p{N}|\\b(?:${NUMBER_WORDS[locale]})\\b`, "iu"),
		identifier: IDENTIFIER
	};
}

const HOLDS: Record<Locale, Record<AnswerType, RegExp>> = { en: build("en"), es: build("es") };

/** The kind of answer the question asks for, if it asks for a quantity. */
export function expectedAnswerType(question: string, locale: Locale): AnswerType | undefined {
	for (const [type, pattern] of ASKS[locale]) if (pattern.test(question)) return type;
	return undefined;
}

/** Whether the text holds an answer of the kind (a duration also answers a frequency, a number a duration). */
export function holdsAnswerType(text: string, type: AnswerType, locale: Locale): boolean {
	return HOLDS[locale][type].test(text);
}
