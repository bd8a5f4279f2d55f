/** What the chat API says in the chatbot's own voice beyond answers (lib/answer/messages.ts has those). */
import type { Locale } from "../text/tokenize";

const GREETINGS: Record<Locale, string> = {
	en: "Hi! Ask me anything about this content.",
	es: "¡Hola! Pregúntame lo que quieras sobre este contenido."
};

export function greeting(locale: Locale): string {
	return GREETINGS[locale];
}

/** What a paused chatbot says instead of answering (its account holds more chatbots than its plan allows). */
const PAUSED: Record<Locale, string> = {
	en: "This chatbot is paused and cannot answer right now. Its owner's plan allows fewer chatbots than the account holds; the owner can choose it again, or move to a larger plan, on the Billing page.",
	es: "Este chatbot está en pausa y no puede responder ahora. El plan de su dueño permite menos chatbots de los que tiene la cuenta; el dueño puede volver a elegirlo, o pasar a un plan mayor, en la página de facturación."
};

export function pausedMessage(locale: Locale): string {
	return PAUSED[locale];
}

/** Widget usage events the beacon accepts. */
export const BEACON_EVENTS = ["widget_opened", "message_sent"] as const;
export type BeaconEvent = (typeof BEACON_EVENTS)[number];

/** The UTC day of a time, `YYYY-MM-DD`: usage is counted per chatbot and day. */
export function utcDay(now: number): string {
	return new Date(now).toISOString().slice(0, 10);
}
