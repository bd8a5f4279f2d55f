/**
 * What the bot says on a channel besides answers, in the chatbot's language, and how an answer and
 * its citations become one plain-text message (links as bare URLs, which both Telegram and Crisp
 * make clickable without any markup).
 */
import { answerMessages } from "../answer/messages";
import { greeting } from "../chat/copy";
import type { WireCitation } from "../chat/wire";
import type { Locale } from "../locales";

const NOT_TEXT: Record<Locale, string> = {
	en: "I can only read text messages. Please type your question.",
	es: "Solo puedo leer mensajes de texto. Escribe tu pregunta, por favor."
};

/** The reply to `/start` and `/help`: the chatbot's welcome message, as the widget shows it. */
export function welcomeText(locale: Locale): string {
	return greeting(locale);
}

/** The reply to a photo, voice note, sticker or file. */
export function notTextReply(locale: Locale): string {
	return NOT_TEXT[locale];
}

function citationLine(citation: WireCitation): string {
	const label = citation.title || citation.file_name || citation.url || "";
	if (citation.url && /^https?:\/\//i.test(citation.url)) return label && label !== citation.url ? `• ${label}: ${citation.url}` : `• ${citation.url}`;
	return citation.file_name && citation.file_name !== label ? `• ${label} (${citation.file_name})` : `• ${label}`;
}

/** The answer, then its sources (each once) under the chatbot's word for "Sources". */
export function answerText(answer: string, citations: readonly WireCitation[], locale: Locale): string {
	const lines = [...new Set(citations.map(citationLine).filter(line => line.length > 2))];
	const text = answer.trim();
	return lines.length === 0 ? text : `${text}\n\n${answerMessages(locale).sources}:\n${lines.join("\n")}`;
}
