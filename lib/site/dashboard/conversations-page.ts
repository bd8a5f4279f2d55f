/**
 * The Conversations page of a chatbot: every conversation of its log (widget, chat link, chat API,
 * Telegram, Crisp), newest first, each a disclosure with its transcript and the sources each
 * answer cited. "Unanswered" shows only the conversations with a question the chatbot declined.
 * Every visitor's text is escaped; a citation is a link only when its URL is http or https.
 */
import { CHANNEL_LABELS, type ConversationLog, type ExchangeDoc } from "../../chat/exchanges";
import type { WireCitation } from "../../chat/wire";
import type { PageBase } from "../account-pages";
import { escapeHtml } from "../render-markdown";
import { chatbotPagePath, insightPage, InsightPageOptions, when } from "./insights-frame";

export type ConversationFilter = "all" | "unanswered";

export interface ConversationsPageOptions extends PageBase {
	chatbot: InsightPageOptions["chatbot"];
	filter: ConversationFilter;
	conversations: readonly ConversationLog[];
	/** Days the log keeps an exchange (said on the page). */
	retentionDays: number;
}

/** http(s) URLs only: anything else is shown as text. */
function safeHref(url: string | undefined): string | null {
	if (!url) return null;
	try {
		const parsed = new URL(url);
		return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
	} catch {
		return null;
	}
}

export function citationList(citations: readonly WireCitation[]): string {
	if (citations.length === 0) return "";
	const items = citations.map(c => {
		const label = escapeHtml(c.title || c.file_name || c.url || "Source");
		const href = safeHref(c.url);
		return `<li>${href ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${label}</a>` : label}</li>`;
	});
	return `<div class="cites"><span class="muted">Sources:</span><ul>${items.join("")}</ul></div>`;
}

function exchangeHtml(exchange: ExchangeDoc): string {
	const status = exchange.answered ? "" : ' <span class="pill declined">Declined</span>';
	return `<li class="exchange" data-answered="${exchange.answered}">
<p class="q"><strong>Visitor</strong> <span class="muted">${when(exchange.at)}</span><br>${escapeHtml(exchange.question)}</p>
<p class="a"><strong>Chatbot</strong>${status}<br>${escapeHtml(exchange.answer)}</p>
${citationList(exchange.citations)}</li>`;
}

function conversationHtml(log: ConversationLog): string {
	const first = log.exchanges[0];
	const declined = log.declined > 0 ? ` <span class="pill declined">${log.declined} unanswered</span>` : "";
	const count = `${log.exchanges.length} ${log.exchanges.length === 1 ? "message" : "messages"}`;
	return `<details class="conversation card" data-conversation="${escapeHtml(log.conversation_id)}">
<summary><span class="pill">${CHANNEL_LABELS[log.channel]}</span> ${escapeHtml(when(log.last_at))} · ${count}${declined}<br><span class="first">${escapeHtml(first?.question ?? "")}</span></summary>
<ol class="transcript">${log.exchanges.map(exchangeHtml).join("")}</ol>
</details>`;
}

const CSS =
	"<style>" +
	".conversation summary{cursor:pointer;padding:10px 0;line-height:1.5}" +
	".conversation summary:focus-visible{outline:2px solid var(--accent);outline-offset:2px}" +
	".conversation .first{font-weight:600;overflow-wrap:anywhere}" +
	".transcript{list-style:none;padding:0;margin:0}" +
	".exchange{border-top:1px solid var(--line);padding:8px 0}" +
	".exchange p{margin:.2em 0 .5em;white-space:pre-wrap;overflow-wrap:anywhere}" +
	".cites ul{margin:0;padding-left:1.2em;font-size:.92rem}" +
	"</style>";

export function renderConversationsPage(opts: ConversationsPageOptions): string {
	const base = opts.baseUrl + chatbotPagePath(opts.chatbot._id, "conversations");
	const filter = (value: ConversationFilter, label: string) =>
		`<a href="${escapeHtml(value === "all" ? base : `${base}?filter=${value}`)}"${opts.filter === value ? ' aria-current="page"' : ""}>${label}</a>`;
	const list =
		opts.conversations.length === 0
			? `<p class="muted" data-empty>${opts.filter === "unanswered" ? "No unanswered questions. " : ""}No conversations yet. Conversations from the widget, the chat link and the messaging channels appear here.</p>`
			: opts.conversations.map(conversationHtml).join("\n");
	const body = `${CSS}<p class="muted">Every question asked on the widget, the chat link, the chat API, Telegram and Crisp, with the chatbot's answer and the sources it cited. Kept ${opts.retentionDays} days.</p>
<nav class="filters" aria-label="Filter conversations">${filter("all", "All")}${filter("unanswered", "Unanswered")}</nav>
<section aria-label="Conversations">${list}</section>`;
	return insightPage({ baseUrl: opts.baseUrl, chatbot: opts.chatbot, active: "conversations", title: "Conversations", body });
}
