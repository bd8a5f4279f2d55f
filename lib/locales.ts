/**
 * The languages the product speaks: the site's pages, a chatbot's answers and widget copy, and the
 * text analysis that indexes its sources. Every other list of locales derives from this one.
 */
export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
