/**
 * The one public status of a chatbot, computed from its stored state (training runs, the index it
 * answers from, its site crawl, pending training requests). The demo view, the tool server's view
 * and every page take their words from `chatbotState`, so no surface guesses on its own.
 */
import type { Chatbot } from "./model";

/**
 * - `crawling`: its website is being read (or waits for a crawler);
 * - `training`: a training run is in progress, or asked for and about to start;
 * - `ready`: it answers from an index that covers what was asked to be trained;
 * - `failed`: it cannot answer and nothing is under way (see `failure_reason`);
 * - `idle`: it cannot answer yet and nobody asked for training (a demo before its train call).
 */
export const CHATBOT_PHASES = ["crawling", "training", "ready", "failed", "idle"] as const;
export type ChatbotPhase = (typeof CHATBOT_PHASES)[number];

export interface ChatbotState {
	phase: ChatbotPhase;
	/** An index answers questions (possibly an older one while retraining). */
	can_answer: boolean;
	/** Sources changed since the index was built. */
	needs_retrain: boolean;
	/** With phase `failed` or `idle`: why it does not answer, and what to do. */
	failure_reason?: string;
}

/** True when sources changed since the last training run. */
export function needsRetrain(chatbot: Pick<Chatbot, "sources_version" | "trained_version">): boolean {
	return chatbot.sources_version !== chatbot.trained_version;
}

/** A training request is waiting for a run. */
export function trainingWanted(chatbot: Pick<Chatbot, "train_pending" | "train_target" | "trained_version">): boolean {
	return chatbot.train_pending && chatbot.train_target > chatbot.trained_version;
}

/**
 * The sources hold more characters than the limits allow (after a move to a smaller plan): the
 * chatbot keeps answering from its index, but no training run starts until sources are removed.
 */
export function overCharLimit(chatbot: Pick<Chatbot, "counts" | "limits">): boolean {
	return chatbot.counts.chars > chatbot.limits.max_chars;
}

export function crawlUnderway(chatbot: Pick<Chatbot, "crawl">): boolean {
	return chatbot.crawl.status === "queued" || chatbot.crawl.status === "crawling";
}

/** Why a chatbot that cannot answer is not getting there by itself, and what to do. */
function whyNotAnswering(chatbot: Chatbot): string {
	const { crawl } = chatbot;
	if (overCharLimit(chatbot)) return retrainBlockedReason(chatbot);
	if (chatbot.training_error !== null && chatbot.counts.chars > 0) {
		return `Training did not finish: ${chatbot.training_error} Add knowledge to try again.`;
	}
	if (crawl.status === "failed") {
		return (
			`The website ${crawl.start_url ?? ""} could not be crawled (${crawl.crawled} pages read, ${crawl.failed} failed). ` +
			"Check that the address is public and serves readable HTML, or add knowledge with add_knowledge_url or add_knowledge_text."
		);
	}
	if (chatbot.counts.chars === 0) {
		return (
			`No readable text was found (${crawl.crawled} pages read, ${crawl.failed} failed). ` +
			"Add a page with add_knowledge_url or text with add_knowledge_text; training starts by itself."
		);
	}
	return "It has knowledge but has not been trained yet. Add knowledge with a tool, or train it, to build its index.";
}

/** Why training cannot start on a chatbot over its character limit, and what to do. */
export function retrainBlockedReason(chatbot: Pick<Chatbot, "counts" | "limits">): string {
	return (
		`Its sources hold ${chatbot.counts.chars} training characters and its plan allows ${chatbot.limits.max_chars}. ` +
		"It keeps answering from its last training; remove sources to train it again, or move to a larger plan."
	);
}

export function chatbotState(chatbot: Chatbot): ChatbotState {
	const can_answer = chatbot.generation > 0;
	const base = { can_answer, needs_retrain: needsRetrain(chatbot) };
	// A retraining chatbot shows `training`, so whoever added knowledge waits until it is in.
	const trainingSoon = trainingWanted(chatbot) && chatbot.counts.chars > 0 && !crawlUnderway(chatbot) && !overCharLimit(chatbot);
	if (chatbot.training !== null || trainingSoon) return { phase: "training", ...base };
	if (can_answer) return { phase: "ready", ...base };
	if (crawlUnderway(chatbot)) return { phase: "crawling", ...base };
	const failed = chatbot.crawl.status === "failed" || chatbot.training_error !== null || (chatbot.crawl.status === "done" && chatbot.counts.chars === 0);
	return { phase: failed ? "failed" : "idle", ...base, failure_reason: whyNotAnswering(chatbot) };
}

/** The words the demo API and the chat API use (SPEC §2.1). */
export const DEMO_STATUSES = ["queued", "training", "ready"] as const;
export type DemoStatus = (typeof DEMO_STATUSES)[number];

/** `queued` until the first training, then `training` while a run is under way or due, else `ready`. */
export function demoStatus(state: ChatbotState): DemoStatus {
	if (state.phase === "training") return "training";
	return state.can_answer ? "ready" : "queued";
}
