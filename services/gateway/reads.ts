/**
 * The gateway's read cache (lib/cache/read-cache.ts): replies that show one chatbot, answered again
 * without crossing the bus while that chatbot is unchanged. Two kinds are kept:
 *
 *   - `get_chatbot` results on POST /mcp, per protocol revision, caller (anonymous or the key's
 *     account) and chatbot id;
 *   - GET replies of actions that mark themselves as one chatbot's read (`$chatbotRead` on their
 *     meta, see direct-actions.ts): getDemoSession, per path.
 *
 * Entries go when the chatbots service reports the chatbot changed (`chatbot.changed`, on every
 * write to its chatbot or sources documents), when a write made through this gateway names the
 * chatbot (so a client reads its own write even before the event crosses the bus), at the
 * chatbot's expiry, and after `READ_TTL_MS` in any case.
 */
import { ReadCache } from "../../lib/cache/read-cache";
import type { ChatbotChanged } from "../../lib/chatbots/changes";
import { processMetrics } from "../../lib/ops/metrics";
import type { ReplyMeta } from "./direct-actions";

const lookups = processMetrics.counter("gateway_read_cache_lookups_total", "Replies looked up in the gateway's read cache, by kind (tool, action) and outcome (hit, miss).");
const countsOf = (kind: string) => ({ hit: lookups.labelled({ kind, outcome: "hit" }), miss: lookups.labelled({ kind, outcome: "miss" }) });

/** Longest a reply is kept, in case a change event was lost (a bus reconnect). */
export const READ_TTL_MS = 30_000;
/** Replies kept of each kind: a `get_chatbot` result is about 2 KB, kept as text and bytes. */
export const READ_CAPACITY = 2_000;

/** An action's reply as it is sent: its reply meta and its JSON body's bytes. */
export interface CachedActionReply {
	meta: ReplyMeta;
	body: Buffer;
}

export class GatewayReads {
	readonly toolResults: ReadCache<Record<string, unknown>>;
	readonly actionReplies: ReadCache<CachedActionReply>;

	constructor(options: { capacity?: number; ttlMs?: number; now?: () => number } = {}) {
		const settings = { capacity: options.capacity ?? READ_CAPACITY, ttlMs: options.ttlMs ?? READ_TTL_MS, now: options.now };
		this.toolResults = new ReadCache({ ...settings, counts: countsOf("tool") });
		this.actionReplies = new ReadCache({ ...settings, counts: countsOf("action") });
	}

	/** Forgets every reply about `ids` (every chatbot when null). */
	invalidate(ids: readonly string[] | null): void {
		this.toolResults.invalidate(ids);
		this.actionReplies.invalidate(ids);
	}

	/** A `chatbot.changed` payload as `invalidate` takes it; anything malformed forgets everything. */
	static changedIds(payload: unknown): readonly string[] | null {
		const ids = (payload as Partial<ChatbotChanged> | null)?.ids;
		return Array.isArray(ids) && ids.every(id => typeof id === "string") ? ids : null;
	}
}
