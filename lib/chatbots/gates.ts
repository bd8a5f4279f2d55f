/**
 * Atomic cap gates, written once as Mongo-style query documents that both NeDB and MongoDB run.
 *
 * A gate is `updateMany(query, update)`: the query only matches while the cap still has room, and
 * the update consumes the room in the same operation, so concurrent requests can never overshoot
 * (12 simultaneous 6,000-character texts against 50,000 give exactly 8 successes). A gate that
 * matches nothing wrote nothing; `explainRefusal` then says which cap (or expiry) refused it.
 */
import { appError } from "../errors";
import { calendarMonth, MessagePeriod, periodAt } from "./message-period";
import type { Chatbot, ChatbotLimits, SourceKind } from "./model";

export interface Gate {
	query: Record<string, unknown>;
	update: Record<string, unknown>;
}

/** What adding one source of a kind consumes. Files are counted at attach time, characters later. */
export interface Consumption {
	urls: number;
	files: number;
	chars: number;
}

export function consumptionFor(kind: SourceKind, chars: number): Consumption {
	return { urls: kind === "url" ? 1 : 0, files: kind === "file" ? 1 : 0, chars };
}

/** Query clauses that hold only while `c` still fits under `limits` (limits pinned too). */
function roomFor(limits: ChatbotLimits, c: Consumption): Record<string, unknown> {
	const q: Record<string, unknown> = {};
	if (c.urls) Object.assign(q, { "counts.urls": { $lte: limits.max_urls - c.urls }, "limits.max_urls": limits.max_urls });
	if (c.files) Object.assign(q, { "counts.files": { $lte: limits.max_files - c.files }, "limits.max_files": limits.max_files });
	if (c.chars) Object.assign(q, { "counts.chars": { $lte: limits.max_chars - c.chars }, "limits.max_chars": limits.max_chars });
	return q;
}

export function consumeGate(chatbot: Pick<Chatbot, "_id" | "limits">, c: Consumption, now: number, liveAfter: number): Gate {
	const inc: Record<string, number> = { sources_version: 1 };
	if (c.urls) inc["counts.urls"] = c.urls;
	if (c.files) inc["counts.files"] = c.files;
	if (c.chars) inc["counts.chars"] = c.chars;
	return {
		query: { _id: chatbot._id, ...notExpired(liveAfter), ...roomFor(chatbot.limits, c) },
		update: { $inc: inc, $set: { updated_at: now } }
	};
}

/** Gives back what a gate consumed (a source that failed after its gate, or was removed). */
export function releaseUpdate(c: Consumption, now: number): Record<string, unknown> {
	const inc: Record<string, number> = { sources_version: 1 };
	if (c.urls) inc["counts.urls"] = -c.urls;
	if (c.files) inc["counts.files"] = -c.files;
	if (c.chars) inc["counts.chars"] = -c.chars;
	return { $inc: inc, $set: { updated_at: now } };
}

export type MessageDecision =
	| { ok: true; gate: Gate; messagesUsed: number; period: MessagePeriod | null }
	| { ok: false; refusal: Error };

/**
 * Counting one answered message, as a compare-and-set on the chatbot as read: the query pins the
 * count and the period that were read, so of simultaneous callers exactly one wins each round and
 * the others read again. When the stored period has ended, the same write starts the next one with
 * a count of one (the reset happens at the moment of use, atomically with the count). Refused when
 * the chatbot is paused, expired, or has used its messages for the period.
 */
export function messageGate(chatbot: Chatbot, now: number): MessageDecision {
	if (chatbot.expires_at !== null && chatbot.expires_at <= now) return { ok: false, refusal: appError("expired", "No live chatbot has this id.") };
	if (chatbot.paused) return { ok: false, refusal: pausedError() };
	const stored = chatbot.message_period ?? null;
	// An account's chatbot stored before messages were counted per period starts its first one now.
	const period = stored ? periodAt(stored, now) : chatbot.kind === "account" ? calendarMonth(now) : null;
	const fresh = period !== null && period.start !== stored?.start;
	const used = fresh ? 0 : chatbot.counts.messages;
	const max = chatbot.limits.max_messages;
	if (used >= max) {
		const per = period ? " this period" : "";
		return { ok: false, refusal: appError("message_cap", `This chatbot has answered all ${max} messages it may answer${per}.`) };
	}
	const query: Record<string, unknown> = {
		_id: chatbot._id,
		...notExpired(now),
		paused: { $ne: true },
		"counts.messages": chatbot.counts.messages,
		"limits.max_messages": max
	};
	query["message_period.start"] = stored ? stored.start : { $exists: false };
	const set: Record<string, unknown> = { "counts.messages": used + 1, updated_at: now };
	if (fresh) set.message_period = period;
	return { ok: true, gate: { query, update: { $set: set } }, messagesUsed: used + 1, period };
}

export function pausedError(): Error {
	return appError("chatbot_paused", "This chatbot is paused: its account has more chatbots than its plan allows.");
}

/** Matches chatbots with no expiry, or one after `now`. */
export function notExpired(now: number): Record<string, unknown> {
	return { $or: [{ expires_at: null }, { expires_at: { $gt: now } }] };
}

/** The refusal a consumption meets on the current document, or undefined when it fits. */
export function capRefusal(current: Chatbot | null, c: Consumption, now: number): Error | undefined {
	if (!current || (current.expires_at !== null && current.expires_at <= now)) return appError("expired", "No live chatbot has this id.");
	const { counts, limits } = current;
	if (c.urls && counts.urls + c.urls > limits.max_urls) {
		return appError("url_cap", `This chatbot already has the maximum of ${limits.max_urls} URLs.`);
	}
	if (c.files && counts.files + c.files > limits.max_files) {
		return appError("file_cap", `This chatbot already has the maximum of ${limits.max_files} files.`);
	}
	if (c.chars && counts.chars + c.chars > limits.max_chars) {
		return appError(
			"char_cap",
			`Adding ${c.chars} characters would pass the training budget: ${counts.chars} of ${limits.max_chars} are used.`
		);
	}
	return undefined;
}

/**
 * Why a gate matched nothing, from a fresh read: the chatbot is gone or expired, or the first cap
 * (in URL, file, character order) without room. If every cap has room, the limits changed under
 * us (a claim moved the chatbot to a plan) and the caller may retry.
 */
export function explainRefusal(current: Chatbot | null, c: Consumption, now: number): Error {
	return capRefusal(current, c, now) ?? appError("conflict", "The chatbot changed while the source was being added; retry.");
}
