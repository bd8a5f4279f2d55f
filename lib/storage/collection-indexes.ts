/**
 * The indexed fields of each document collection, most selective first (see query-index.ts for why
 * the order matters to NeDB). Without them every lookup by anything but `_id` reads the whole
 * collection: on NeDB every document is matched in memory, on MongoDB the collection is scanned.
 * Each field is here for the lookups named beside it; `_id` is always indexed by both engines.
 *
 * Indexes are plain (not unique): adding one to a deployment whose data already holds duplicates
 * must not stop a service from starting. A collection not listed has only `_id`.
 */
export const COLLECTION_INDEXES: Readonly<Record<string, readonly string[]>> = {
	// findBySlug on every chat message; findByClaimHash; an account's chatbots; the lifecycle sweeps; the expiry purge.
	chatbots: ["slug", "claim_hash", "account_id", "train_pending", "crawl.status", "expires_at"],
	// A chatbot's sources (get, dashboard, training); pending files in the orphan sweep.
	sources: ["chatbot_id", "status"],
	// A channel conversation by its key; a chatbot's conversations when it is removed; the expiry purge.
	conversations: ["channel_key", "chatbot_id", "expires_at"],
	chat_exchanges: ["chatbot_id", "expires_at"],
	chat_usage: ["chatbot_id"],
	// Sessions per client network (the per-network cap on every create); the expiry purge.
	demo_sessions: ["network", "expires_at"],
	accounts: ["email"],
	// The key's hash on every POST /mcp that carries a key; an account's keys.
	api_keys: ["hash", "account_id"],
	web_sessions: ["account_id"],
	// Telegram's inbound updates by webhook id; a chatbot's connections.
	channel_connections: ["webhook_id", "chatbot_id"],
	channel_threads: ["connection_id", "updated_at"],
	subscriptions: ["customer_id", "past_due_since"],
	billing_events: ["received_at"],
	upload_grants: ["key", "owner", "expires_at"]
};

/** A collection's indexed fields besides `_id`, most selective first (none when it is not listed). */
export function indexedFields(collection: string): readonly string[] {
	return COLLECTION_INDEXES[collection] ?? [];
}
