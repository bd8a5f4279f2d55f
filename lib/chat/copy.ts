/** What the chat API says in the chatbot's own voice beyond answers (lib/answer/messages.ts has those). */
import type { Locale } from "../text/tokenize";

const GREETINGS: Record<Locale, string> = {
	en: "Hi! Ask me anything about this content.",
	es: "¡Hola! Pregúntame lo que quieras sobre este contenido."
};

export function greeting(locale: Locale): string {
	return GREETINGS[locale];
}

/** Widget usage events the beacon accepts. */
export const BEACON_EVENTS = ["widget_opened", "message_sent"] as const;
export type BeaconEvent = (typeof BEACON_EVENTS)[number];

/** The UTC day of a time, `YYYY-MM-DD`: usage is counted per chatbot and day. */
export function utcDay(now: number): string {
	return new Date(now).toISOString().slice(0, 10);
}
