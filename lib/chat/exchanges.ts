/**
 * The conversation log: one record per chat exchange (a question and what the chatbot said), from
 * every surface that answers — the widget, the chat link, the chat API and the messaging channels.
 * It is what the owner reads on the Conversations, Improve and Analytics pages.
 *
 * It lives beside the short turn log of conversations.ts, which keeps only the last turns of a
 * conversation for a day so a follow-up can be read with the questions before it; the two have
 * different jobs and different lifetimes, and this one is never read to answer.
 *
 * Retention follows the plan (lib/accounts/plans.ts `conversationDays`): a sandbox keeps its log as
 * long as the sandbox itself lives (8 days), an account's chatbots keep 90 days, a demo-API session
 * keeps one day (its chatbot is gone by then). Deleting a chatbot deletes its log at once.
 */
import { ACCOUNT_PLANS, PLANS } from "../accounts/plans";
import type { ChatbotKind } from "../chatbots/model";
import type { WireCitation } from "./wire";

const DAY_MS = 24 * 3600_000;

/** Where a message came from. The HTTP chat API lets a caller say only `widget` or `link`. */
export const EXCHANGE_CHANNELS = ["widget", "link", "api", "telegram", "crisp"] as const;
export type ExchangeChannel = (typeof EXCHANGE_CHANNELS)[number];
/** What the chat API's callers may name themselves as (the channels are named by the channels service). */
export const WEB_CHANNELS = ["widget", "link"] as const;

export const CHANNEL_LABELS: Readonly<Record<ExchangeChannel, string>> = {
	widget: "Website widget",
	link: "Chat link",
	api: "Chat API",
	telegram: "Telegram",
	crisp: "Crisp"
};

/** Characters of an answer kept in the log. */
const MAX_LOGGED_ANSWER = 4000;
/** Citations kept per exchange. */
const MAX_LOGGED_CITATIONS = 8;

export interface ExchangeDoc {
	_id: string;
	chatbot_id: string;
	conversation_id: string;
	channel: ExchangeChannel;
	question: string;
	answer: string;
	citations: WireCitation[];
	/** False when the chatbot declined: it found nothing in its sources to answer with. */
	answered: boolean;
	at: number;
	expires_at: number;
	/** When the owner added an answer for it on the Improve page (it leaves that page then). */
	improved_at?: number;
}

/** Days an exchange of a chatbot of this kind is kept. */
export function exchangeRetentionDays(kind: ChatbotKind): number {
	if (kind === "demo") return 1;
	if (kind === "sandbox") return PLANS.sandbox.limits.conversationDays;
	// An account's plan can change at any time; keep what the most generous account plan keeps, so
	// a move between plans never deletes a log early.
	return Math.max(...ACCOUNT_PLANS.map(plan => PLANS[plan].limits.conversationDays));
}

export interface ExchangeInput {
	id: string;
	chatbotId: string;
	kind: ChatbotKind;
	conversationId: string;
	channel: ExchangeChannel;
	question: string;
	answer: string;
	citations: readonly WireCitation[];
	answered: boolean;
	now: number;
}

export function newExchange(input: ExchangeInput): ExchangeDoc {
	const answer = input.answer.length > MAX_LOGGED_ANSWER ? `${input.answer.slice(0, MAX_LOGGED_ANSWER)}…` : input.answer;
	return {
		_id: input.id,
		chatbot_id: input.chatbotId,
		conversation_id: input.conversationId,
		channel: input.channel,
		question: input.question,
		answer,
		citations: input.citations.slice(0, MAX_LOGGED_CITATIONS).map(c => ({ ...c })),
		answered: input.answered,
		at: input.now,
		expires_at: input.now + exchangeRetentionDays(input.kind) * DAY_MS
	};
}

/**
 * Whether the owner should look at this exchange on the Improve page: the chatbot declined, or it
 * answered without being able to cite any source (an answer nothing backs).
 */
export function needsImprovement(exchange: Pick<ExchangeDoc, "answered" | "citations">): boolean {
	return !exchange.answered || exchange.citations.length === 0;
}

/** One conversation of the log: its exchanges, oldest first. */
export interface ConversationLog {
	conversation_id: string;
	channel: ExchangeChannel;
	started_at: number;
	last_at: number;
	exchanges: ExchangeDoc[];
	/** How many of its exchanges the chatbot declined. */
	declined: number;
}

/**
 * Groups exchanges into conversations, newest conversation first, in one pass plus a sort of the
 * conversations. `exchanges` may come in any order.
 */
export function conversationsOf(exchanges: readonly ExchangeDoc[]): ConversationLog[] {
	const byId = new Map<string, ConversationLog>();
	for (const exchange of exchanges) {
		let log = byId.get(exchange.conversation_id);
		if (!log) {
			log = { conversation_id: exchange.conversation_id, channel: exchange.channel, started_at: exchange.at, last_at: exchange.at, exchanges: [], declined: 0 };
			byId.set(exchange.conversation_id, log);
		}
		log.exchanges.push(exchange);
		log.started_at = Math.min(log.started_at, exchange.at);
		log.last_at = Math.max(log.last_at, exchange.at);
		if (!exchange.answered) log.declined++;
	}
	const logs = [...byId.values()];
	for (const log of logs) log.exchanges.sort((a, b) => a.at - b.at || a._id.localeCompare(b._id));
	return logs.sort((a, b) => b.last_at - a.last_at || a.conversation_id.localeCompare(b.conversation_id));
}
