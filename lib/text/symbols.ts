/**
 * Symbols as words. Documentation of a syntax, a format or a command line is about its symbols
 * ("a sequence of three or more matching -, _, or * characters"), and people ask about them by
 * name ("How many dashes or asterisks…?") or by writing them ("How far may the > be indented?").
 * A symbol standing alone in the text is an index term of its own, and the words naming it are
 * that same term, so either spelling meets the other.
 */
import type { Locale } from "./stop-words";

/**
 * The symbols that are terms when they stand alone (a run of one, "***" or "---", counts once per
 * run): those a syntax gives a meaning to. Sentence punctuation (. , ; : ! ?) and symbols that only
 * join words ("/", "@", "$") are not among them.
 */
export const TERM_SYMBOLS = "*-_#><`~\\|+=^";

/**
 * Stems of the words naming a symbol, per locale, and the symbol. Only names that mean nothing else
 * in documentation: "pipe" (a stream's pipe), "bar" (beside "foo"), "plus" and "pound" are left out;
 * Spanish "tilde" is the accent, not "~".
 */
const SYMBOL_NAMES: Record<Locale, ReadonlyMap<string, string>> = {
	en: new Map([
		["asterisk", "*"],
		["star", "*"],
		["dash", "-"],
		["hyphen", "-"],
		["underscor", "_"],
		["hash", "#"],
		["backtick", "`"],
		["backquot", "`"],
		["tild", "~"],
		["backslash", "\\"],
		["caret", "^"]
	]),
	es: new Map([
		["asterisc", "*"],
		["guion", "-"],
		["almohadill", "#"],
		["virgulill", "~"]
	])
};

/**
 * The stems of the words naming a symbol in the locale ("*" → "asterisk", "star"). A chunk indexed
 * before symbols were terms holds these rather than the symbol, so a query looks them up too.
 */
export function stemsNaming(symbol: string, locale: Locale): string[] {
	return [...SYMBOL_NAMES[locale]].filter(([, named]) => named === symbol).map(([stem]) => stem);
}

/** The symbol a stemmed word names in the locale ("asterisk" → "*"), or the stem itself. */
export function symbolNamed(stem: string, locale: Locale): string {
	return SYMBOL_NAMES[locale].get(stem) ?? stem;
}

/** Whether a term is a symbol standing alone. */
export function isSymbolTerm(term: string): boolean {
	return term.length === 1 && TERM_SYMBOLS.includes(term);
}

/**
 * The terms of a line of code, less its symbols. In code a symbol is used, not spoken of ("> quoted"
 * in an example of a block quote, "a = b"): counted, every example would match a question about the
 * symbol better than the sentence defining it.
 */
export function termsOfCode(terms: readonly string[]): string[] {
	return terms.filter(term => !isSymbolTerm(term));
}
