/**
 * The chat API's public shapes (docs/en/api/chat.md): citations in snake_case, the JSON reply, the
 * events of a streamed reply, and their server-sent-event framing.
 */
import type { Citation } from "../answer/events";

/** Longest question the chat API accepts, in characters (the route schema and the chat service both say so). */
export const MAX_CHAT_MESSAGE_CHARS = 2000;

export interface WireCitation {
	source_id: string;
	title: string;
	url?: string;
	file_name?: string;
}

export interface ChatUsage {
	conversation_id: string;
	messages_used: number;
	max_messages: number;
}

export interface ChatReply extends ChatUsage {
	ok: true;
	answer: string;
	citations: WireCitation[];
	/** False when the chatbot said it found nothing relevant (the grounded refusal). */
	answered: boolean;
}

/** What `chat.askStream` yields, in order: tokens, one `citations`, one `done`. */
export type ChatStreamEvent =
	| { type: "token"; text: string }
	| { type: "citations"; citations: WireCitation[] }
	| ({ type: "done"; answered: boolean } & ChatUsage);

export function toWireCitation(citation: Citation): WireCitation {
	return {
		source_id: citation.sourceId,
		title: citation.title,
		...(citation.url !== undefined ? { url: citation.url } : {}),
		...(citation.fileName !== undefined ? { file_name: citation.fileName } : {})
	};
}

/** One server-sent event: `event: <name>` and the data as a single line of JSON. */
export function sseFrame(event: string, data: unknown): string {
	return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A stream event as its SSE frame (the `type` names the event; the rest is its data). */
export function streamEventFrame(event: ChatStreamEvent): string {
	const { type, ...data } = event;
	return sseFrame(type, data);
}
