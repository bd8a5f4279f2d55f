/**
 * A plan's limits as the limits stored on each chatbot (lib/chatbots/model.ts), so the chatbots
 * service's atomic cap gates enforce them without knowing about plans.
 */
import type { ChatbotLimits } from "../chatbots/model";
import { PlanLimits, SANDBOX_LIMITS } from "./plans";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long an unclaimed tool-server sandbox lives (SPEC §8.3: deleted after 8 days). */
export const SANDBOX_TTL_MS = (SANDBOX_LIMITS.retentionDays ?? 8) * DAY_MS;

/**
 * `max_urls` equals `max_pages`: crawled pages and pages added later with add_knowledge_url share
 * one page budget (5 for a sandbox). `max_files` is the plan's files per chatbot, uploaded from the
 * dashboard (0 for a sandbox: the tool server has no file tool).
 */
export function chatbotLimitsFromPlan(limits: Readonly<PlanLimits>): ChatbotLimits {
	return {
		max_pages: limits.pages,
		max_urls: limits.pages,
		max_files: limits.files,
		max_chars: limits.chars,
		max_messages: limits.messages
	};
}

/** Limits of an anonymous sandbox chatbot: 5 pages, 10 messages, 50,000 characters, no files. */
export const SANDBOX_CHATBOT_LIMITS: Readonly<ChatbotLimits> = Object.freeze(chatbotLimitsFromPlan(SANDBOX_LIMITS));
