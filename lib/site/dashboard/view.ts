/**
 * What the owner's dashboard shows of one chatbot, as data: the JSON twin of the overview page and
 * the body its live-progress script polls. Built from the stored chatbot and its sources only, with
 * the words of the one public status (lib/chatbots/status.ts).
 */
import type { Chatbot, Source, SourceKind } from "../../chatbots/model";
import { messagesInPeriod } from "../../chatbots/message-period";
import { chatbotState, ChatbotPhase } from "../../chatbots/status";
import { chatUrl } from "../../chatbots/views";
import { statusLabel } from "./shell";

export interface SourceTally {
	total: number;
	ready: number;
	/** Waiting for or under extraction. */
	in_progress: number;
	failed: number;
}

export interface DashboardView {
	chatbot_id: string;
	name: string;
	status: ChatbotPhase;
	status_label: string;
	can_answer: boolean;
	needs_retrain: boolean;
	failure_reason: string | null;
	chat_url: string;
	crawl: { status: Chatbot["crawl"]["status"]; start_url: string | null; found: number; crawled: number; failed: number; max_pages: number };
	training: { running: boolean; started_at: string | null; last_error: string | null };
	sources: Record<SourceKind, SourceTally>;
	usage: { messages_used: number; messages_limit: number; chars_used: number; chars_limit: number; period_end: string | null };
}

const emptyTally = (): SourceTally => ({ total: 0, ready: 0, in_progress: 0, failed: 0 });

export function tallySources(sources: readonly Source[]): Record<SourceKind, SourceTally> {
	const tally: Record<SourceKind, SourceTally> = { url: emptyTally(), file: emptyTally(), text: emptyTally(), qa: emptyTally() };
	for (const source of sources) {
		const t = tally[source.kind];
		t.total++;
		if (source.status === "ready") t.ready++;
		else if (source.status === "failed") t.failed++;
		else t.in_progress++;
	}
	return tally;
}

const iso = (ms: number | null | undefined) => (typeof ms === "number" ? new Date(ms).toISOString() : null);

export function dashboardView(chatbot: Chatbot, sources: readonly Source[], publicUrl: string, now: number): DashboardView {
	const state = chatbotState(chatbot);
	return {
		chatbot_id: chatbot._id,
		name: chatbot.name,
		status: state.phase,
		status_label: statusLabel(state),
		can_answer: state.can_answer,
		needs_retrain: state.needs_retrain,
		failure_reason: state.failure_reason ?? null,
		chat_url: chatUrl(publicUrl, chatbot.slug),
		crawl: {
			status: chatbot.crawl.status,
			start_url: chatbot.crawl.start_url,
			found: chatbot.crawl.found,
			crawled: chatbot.crawl.crawled,
			failed: chatbot.crawl.failed,
			max_pages: chatbot.crawl.max_pages
		},
		training: { running: chatbot.training !== null, started_at: iso(chatbot.training?.started_at), last_error: chatbot.training_error },
		sources: tallySources(sources),
		usage: {
			messages_used: messagesInPeriod(chatbot, now),
			messages_limit: chatbot.limits.max_messages,
			chars_used: chatbot.counts.chars,
			chars_limit: chatbot.limits.max_chars,
			period_end: iso(chatbot.message_period?.end)
		}
	};
}

/** True while something is under way that the page should follow live (a crawl, a run, a file being read). */
export function underway(view: DashboardView): boolean {
	const reading = Object.values(view.sources).some(t => t.in_progress > 0);
	return view.status === "crawling" || view.status === "training" || reading;
}
