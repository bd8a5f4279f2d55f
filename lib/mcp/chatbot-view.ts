/**
 * Stored chatbots and sources as the tool results of lib/mcp/tool-results.ts.
 *
 * The stored model tracks training (`queued` / `training` / `ready`) and the site crawl separately;
 * an agent wants one answer to "can I hand out the chat link yet?", so `chatbotProgress` folds both
 * into `crawling` → `training` → `ready`, or `failed` with a reason it can act on.
 */
import type { Chatbot, Source } from "../chatbots/model";
import { chatUrl, embedSnippet } from "../chatbots/views";
import type { ChatbotResult, ChatbotStatus, ChatbotSummary, KnowledgeSource } from "./tool-results";

export interface ChatbotProgress {
	status: ChatbotStatus;
	failure_reason?: string;
}

export function chatbotProgress(chatbot: Chatbot): ChatbotProgress {
	const { crawl } = chatbot;
	// A chatbot that has been trained answers; a retraining run shows as `training` so an agent that
	// added knowledge waits until the new knowledge is in.
	if (chatbot.status === "training") return { status: "training" };
	if (chatbot.status === "ready") return { status: "ready" };
	if (crawl.status === "crawling" || (crawl.status === "idle" && crawl.start_url !== null)) return { status: "crawling" };
	if (crawl.status === "failed" && chatbot.counts.chars === 0) {
		return {
			status: "failed",
			failure_reason:
				`The website ${crawl.start_url ?? ""} could not be crawled (${crawl.crawled} pages read, ${crawl.failed} failed). ` +
				"Check that the address is public and serves readable HTML, or add knowledge with add_knowledge_url or add_knowledge_text."
		};
	}
	// Crawl over with text collected: the crawl hands the chatbot to the trainer next.
	if (chatbot.counts.chars > 0) return { status: "training" };
	return {
		status: "failed",
		failure_reason:
			`No readable text was found (${crawl.crawled} pages read, ${crawl.failed} failed). ` +
			"Add a page with add_knowledge_url or text with add_knowledge_text; training starts by itself."
	};
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

/** A new knowledge source (`pending` is reported as `queued`, the word agents see elsewhere). */
export function knowledgeSource(source: Source): KnowledgeSource {
	if (source.kind === "file") throw new TypeError("The tool server has no file sources");
	const result: KnowledgeSource = {
		source_id: source._id,
		type: source.kind,
		status: source.status === "pending" ? "queued" : source.status,
		chars: source.char_count ?? 0
	};
	const title = source.title ?? (source.kind === "qa" ? source.question : null);
	if (title) result.title = title;
	if (source.url) result.url = source.url;
	return result;
}
