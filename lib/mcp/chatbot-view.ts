/**
 * Stored chatbots and sources as the tool results of lib/mcp/tool-results.ts.
 *
 * An agent wants one answer to "can I hand out the chat link yet?": the chatbot's one public state
 * (lib/chatbots/status.ts) in the tool server's words — `crawling` → `training` → `ready`, or
 * `failed` with a reason it can act on (a chatbot nobody asked to train yet is reported the same
 * way, with what to do).
 */
import type { Chatbot, Source } from "../chatbots/model";
import { chatbotState } from "../chatbots/status";
import { chatUrl, embedSnippet } from "../chatbots/views";
import type { ChatbotResult, ChatbotStatus, ChatbotSummary, KnowledgeSource } from "./tool-results";

export interface ChatbotProgress {
	status: ChatbotStatus;
	failure_reason?: string;
}

export function chatbotProgress(chatbot: Chatbot): ChatbotProgress {
	const state = chatbotState(chatbot);
	if (state.phase === "failed" || state.phase === "idle") return { status: "failed", failure_reason: state.failure_reason };
	return { status: state.phase };
}

export interface ChatbotViewOptions {
	/** Public base URL without a trailing slash. */
	publicUrl: string;
	/** The claim link, for an unclaimed sandbox. */
	claimUrl?: string;
}

function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** The address the chatbot was built from; a chatbot without a crawl falls back to its chat link. */
function websiteUrl(chatbot: Chatbot, publicUrl: string): string {
	return chatbot.crawl.start_url ?? chatUrl(publicUrl, chatbot.slug);
}

export function chatbotResult(chatbot: Chatbot, options: ChatbotViewOptions): ChatbotResult {
	const progress = chatbotProgress(chatbot);
	const sandbox = chatbot.kind === "sandbox";
	const result: ChatbotResult = {
		chatbot_id: chatbot._id,
		name: chatbot.name,
		website_url: websiteUrl(chatbot, options.publicUrl),
		language: chatbot.locale,
		status: progress.status,
		ready: progress.status === "ready",
		chat_url: chatUrl(options.publicUrl, chatbot.slug),
		embed_snippet: embedSnippet(options.publicUrl, chatbot.slug),
		sandbox,
		created_at: iso(chatbot.created_at),
		pages: { found: chatbot.crawl.found, crawled: chatbot.crawl.crawled, failed: chatbot.crawl.failed, limit: chatbot.limits.max_pages },
		limits: { pages: chatbot.limits.max_pages, messages: chatbot.limits.max_messages, chars: chatbot.limits.max_chars },
		usage: { chars_used: chatbot.counts.chars, messages_used: chatbot.counts.messages }
	};
	if (progress.failure_reason !== undefined) result.failure_reason = progress.failure_reason;
	if (sandbox && options.claimUrl !== undefined) result.claim_url = options.claimUrl;
	if (sandbox && chatbot.expires_at !== null) result.expires_at = iso(chatbot.expires_at);
	return result;
}

export function chatbotSummary(chatbot: Chatbot, publicUrl: string): ChatbotSummary {
	const progress = chatbotProgress(chatbot);
	return {
		chatbot_id: chatbot._id,
		name: chatbot.name,
		website_url: websiteUrl(chatbot, publicUrl),
		language: chatbot.locale,
		status: progress.status,
		ready: progress.status === "ready",
		chat_url: chatUrl(publicUrl, chatbot.slug),
		created_at: iso(chatbot.created_at)
	};
}

/** A new knowledge source. */
export function knowledgeSource(source: Source): KnowledgeSource {
	if (source.kind === "file") throw new TypeError("The tool server has no file sources");
	const result: KnowledgeSource = {
		source_id: source._id,
		type: source.kind,
		status: source.status,
		chars: source.char_count ?? 0
	};
	const title = source.title ?? (source.kind === "qa" ? source.question : null);
	if (title) result.title = title;
	if (source.url) result.url = source.url;
	return result;
}
