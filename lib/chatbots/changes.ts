/**
 * Which chatbots a write to the `chatbots` or `sources` collection changed, for the
 * `chatbot.changed` event that lets readers drop what they remember of them (the gateway's read
 * cache, lib/cache/read-cache.ts).
 *
 * The ids come from the write itself: the `_id` a `chatbots` query names, the `chatbot_id` a
 * `sources` query names, or the document inserted. A write that names neither (a plan change that
 * updates an account's chatbots by `account_id`) is reported as changing every chatbot: `null`.
 * Reporting too much costs a re-read; reporting too little would show a stale chatbot.
 */

import type { CollectionWrite } from "../storage/collection-write";

/** Broadcast by the chatbots service after each write that changed something: `{ ids: string[] | null }`. */
export const CHATBOT_CHANGED_EVENT = "chatbot.changed";

export interface ChatbotChanged {
	/** The chatbots changed; `null` when the write could have changed any of them. */
	ids: string[] | null;
}

/** The collections whose documents make up what a reader shows of a chatbot, and the field naming the chatbot in each. */
const CHATBOT_FIELD = { chatbots: "_id", sources: "chatbot_id" } as const;

export type ChatbotCollection = keyof typeof CHATBOT_FIELD;

/** The ids an equality (`"x"`) or `$in` (`{ $in: ["x", "y"] }`) condition names; null for any other condition. */
function namedIds(condition: unknown): string[] | null {
	if (typeof condition === "string") return [condition];
	if (typeof condition !== "object" || condition === null) return null;
	const keys = Object.keys(condition);
	const list = (condition as { $in?: unknown }).$in;
	if (keys.length !== 1 || !Array.isArray(list) || !list.every(id => typeof id === "string")) return null;
	return list as string[];
}

export function changedChatbotIds(collection: ChatbotCollection, write: CollectionWrite): string[] | null {
	const field = CHATBOT_FIELD[collection];
	const source = "inserted" in write ? write.inserted : write.query;
	return namedIds((source as Record<string, unknown>)[field]);
}

/**
 * What a reply that shows one chatbot's state read: the chatbot, and until when the reply may be
 * kept unless the chatbot changes (a sandbox's expiry; null for none). Set on replies the gateway
 * may answer again from its read cache: the reply must depend on nothing but the request it answers
 * and this chatbot's documents.
 */
export interface ChatbotRead {
	chatbot_id: string;
	until: number | null;
}
