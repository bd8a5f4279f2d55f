/**
 * Public shapes built from stored documents: the DemoSession of SPEC §2.1–2.3, and the links a
 * chatbot is reached by.
 */
import type { Chatbot, Source } from "./model";
import { chatbotState, demoStatus } from "./status";

export function chatUrl(publicUrl: string, slug: string): string {
	return `${publicUrl}/c/${encodeURIComponent(slug)}`;
}

export function embedSnippet(publicUrl: string, slug: string): string {
	return `<script src="${publicUrl}/widget.js" data-chatbot="${slug}" async></script>`;
}

export interface DemoSessionView {
	session_id: string;
	slug: string;
	status: ReturnType<typeof demoStatus>;
	caps: { max_messages: number; max_urls: number; max_chars: number; max_files: number };
	sources: {
		urls: Array<{ id: string; url: string; status: string; domain: string | null; title: string | null; char_count: number | null; failure: Source["failure"] }>;
		files: Array<{ id: string; status: string; title: string | null; file_name: string | null; char_count: number | null; failure: Source["failure"] }>;
		texts: Array<{ id: string; status: string; char_count: number | null; failure: Source["failure"] }>;
	};
	messages_used: number;
	chars_used: number;
	needs_retrain: boolean;
	locale: Chatbot["locale"];
	expires_at: string | null;
	chat_url: string;
	embed_snippet: string;
}

export function demoSessionView(sessionId: string, chatbot: Chatbot, sources: Source[], publicUrl: string): DemoSessionView {
	const byAge = [...sources].sort((a, b) => a.created_at - b.created_at);
	const state = chatbotState(chatbot);
	return {
		session_id: sessionId,
		slug: chatbot.slug,
		status: demoStatus(state),
		caps: {
			max_messages: chatbot.limits.max_messages,
			max_urls: chatbot.limits.max_urls,
			max_chars: chatbot.limits.max_chars,
			max_files: chatbot.limits.max_files
		},
		sources: {
			urls: byAge
				.filter(s => s.kind === "url")
				.map(s => ({ id: s._id, url: s.url as string, status: s.status, domain: s.domain, title: s.title, char_count: s.char_count, failure: s.failure })),
			files: byAge
				.filter(s => s.kind === "file")
				.map(s => ({ id: s._id, status: s.status, title: s.title, file_name: s.file_name, char_count: s.char_count, failure: s.failure })),
			texts: byAge
				.filter(s => s.kind === "text" || s.kind === "qa")
				.map(s => ({ id: s._id, status: s.status, char_count: s.char_count, failure: s.failure }))
		},
		messages_used: chatbot.counts.messages,
		chars_used: chatbot.counts.chars,
		needs_retrain: state.needs_retrain,
		locale: chatbot.locale,
		expires_at: chatbot.expires_at === null ? null : new Date(chatbot.expires_at).toISOString(),
		chat_url: chatUrl(publicUrl, chatbot.slug),
		embed_snippet: embedSnippet(publicUrl, chatbot.slug)
	};
}
