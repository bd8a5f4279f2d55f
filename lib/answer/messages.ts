/**
 * What the chat says in its own voice (not taken from sources), per locale. The chatbot's locale
 * decides: `es` gives Spanish, anything else English (SPEC: "anything other than es is treated as
 * English").
 */
import type { Locale } from "../text/tokenize";

export interface AnswerMessages {
	/** Grounded refusal: nothing relevant was retrieved. */
	notFound: string;
	/** Shown instead of an answer once the chatbot's message cap is used up. */
	messageCap(maxMessages: number): string;
	/** Shown while the chatbot has no trained index yet. */
	notReady: string;
	/** Label before the list of citations. */
	sources: string;
}

const MESSAGES: Record<Locale, AnswerMessages> = {
	en: {
		notFound: "I couldn't find that in this chatbot's sources.",
		messageCap: max =>
			`This chatbot has reached its limit of ${max} ${max === 1 ? "message" : "messages"}, so it can't answer more questions.`,
		notReady: "This chatbot is still learning its sources. Please try again in a moment.",
		sources: "Sources"
	},
	es: {
		notFound: "No encontré eso en las fuentes de este chatbot.",
		messageCap: max =>
			`Este chatbot alcanzó su límite de ${max} ${max === 1 ? "mensaje" : "mensajes"} y no puede responder más preguntas.`,
		notReady: "Este chatbot todavía está aprendiendo sus fuentes. Vuelve a intentarlo en un momento.",
		sources: "Fuentes"
	}
};

export function answerMessages(locale: Locale): AnswerMessages {
	return MESSAGES[locale];
}
