/**
 * What a change of an account's plan does to its chatbots, as data the chatbots service writes:
 * every chatbot takes the plan's limits and message period, and when the account holds more
 * chatbots than the plan allows, the ones past the count stop answering (`paused`) until the owner
 * chooses which to keep. Nothing is deleted, and sources over a smaller character limit stay: they
 * block retraining (lib/chatbots/status.ts `overCharLimit`), not answering.
 */
import type { Transition } from "./lifecycle";
import { calendarMonth, MessagePeriod, periodAt } from "./message-period";
import type { Chatbot, ChatbotLimits } from "./model";

/** An account's plan as the chatbots service keeps and applies it. */
export interface AppliedPlan {
	limits: ChatbotLimits;
	/** Chatbots the account may hold (and have answering). */
	max_chatbots: number;
	/** The paid period; null counts messages per UTC calendar month. */
	period: MessagePeriod | null;
	/** Orders plan changes: an older revision never overwrites a newer one. */
	revision: number;
}

type Row = Pick<Chatbot, "_id" | "created_at" | "paused">;

/**
 * Which chatbots are paused under `max`: none while the account fits. Otherwise the chatbots that
 * answer now keep answering, oldest first, up to `max`; free places go to paused ones, oldest first.
 */
export function pausedUnder(rows: readonly Row[], max: number): Set<string> {
	if (rows.length <= max) return new Set();
	const byAge = [...rows].sort((a, b) => a.created_at - b.created_at || a._id.localeCompare(b._id));
	const keep = [...byAge.filter(r => !r.paused), ...byAge.filter(r => r.paused)].slice(0, max).map(r => r._id);
	return new Set(byAge.map(r => r._id).filter(id => !keep.includes(id)));
}

/** The period a chatbot of an account on `plan` counts in at `now` (a paid period that ended is followed by the next). */
export function accountPeriod(plan: Pick<AppliedPlan, "period"> | null | undefined, now: number): MessagePeriod {
	return plan?.period ? periodAt(plan.period, now) : calendarMonth(now);
}

/** Matches documents the plan of `revision` may still change (never one a newer plan reached). */
export function notNewerThan(revision: number): Record<string, unknown> {
	return { $or: [{ plan_revision: { $exists: false } }, { plan_revision: { $lte: revision } }] };
}

/**
 * Applies a plan to one chatbot as read (compare-and-set on its message count and period, which
 * `countMessage` also moves). The count starts again at zero when the new period begins after the
 * stored one (an upgrade starts a paid period; `invoice.paid` starts the next one); otherwise it is
 * kept, so a move within a period does not hand out a second allowance.
 */
export function planChange(chatbot: Chatbot, plan: AppliedPlan, paused: boolean, now: number): Transition {
	const period = accountPeriod(plan, now);
	const stored = chatbot.message_period ?? null;
	const fresh = stored === null || period.start > stored.start;
	const query: Record<string, unknown> = { _id: chatbot._id, "counts.messages": chatbot.counts.messages, ...notNewerThan(plan.revision) };
	if (stored) query["message_period.start"] = stored.start;
	return {
		query,
		update: {
			$set: {
				limits: plan.limits,
				message_period: period,
				"counts.messages": fresh ? 0 : chatbot.counts.messages,
				paused,
				plan_revision: plan.revision,
				updated_at: now
			}
		}
	};
}
