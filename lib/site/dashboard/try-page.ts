/**
 * The Try it tab: chat with the chatbot as a visitor would, through the public chat API. Answers
 * count against the chatbot's messages like any other.
 */
import type { Chatbot } from "../../chatbots/model";
import { chatbotState } from "../../chatbots/status";
import { escapeHtml } from "../render-markdown";
import { CHAT_BOX_CSS, chatBox } from "./chat-box";
import { dashboardPage, dashboardPath } from "./shell";

export function renderTryPage(opts: { baseUrl: string; chatbot: Chatbot }): string {
	const { chatbot, baseUrl } = opts;
	const state = chatbotState(chatbot);
	const api = `${baseUrl}/api/chat/${encodeURIComponent(chatbot.slug)}/messages`;
	const body = state.can_answer
		? `${CHAT_BOX_CSS}<p class="lead">Ask what your visitors would ask. Answers come from the last training${state.needs_retrain ? " — sources changed since then, so <a href=\"" + escapeHtml(baseUrl + dashboardPath(chatbot._id)) + "\">retrain</a> to include them" : ""}. Each answer counts as a message.</p>
${chatBox(api, undefined, "No messages yet.")}`
		: `<p class="notice" role="status">This chatbot has not finished its first training, so it cannot answer yet. <a href="${escapeHtml(baseUrl + dashboardPath(chatbot._id, "sources"))}">Add sources</a> and train it from the <a href="${escapeHtml(baseUrl + dashboardPath(chatbot._id))}">Overview</a>.</p>`;
	return dashboardPage({ baseUrl, chatbot, active: "try", title: "Try it", description: "Chat with the chatbot.", body });
}
