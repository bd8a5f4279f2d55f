/**
 * What the channels service stores: connections (one per chatbot and channel, credentials sealed),
 * reply jobs (one per inbound message, keyed by the provider's own id so a retried delivery is the
 * same job), and threads (per Telegram chat or Crisp session: human handoff, the limit notice, the
 * fingerprints of the bot's own Crisp messages).
 */
import type { JobDoc } from "../jobs/durable-job";

export const CHANNEL_KINDS = ["telegram", "crisp"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

export interface DeliveryFailure {
	at: number;
	message: string;
}

interface ConnectionBase {
	/** `<kind>:<chatbot_id>`: one connection per chatbot and channel. */
	_id: string;
	kind: ChannelKind;
	chatbot_id: string;
	account_id: string;
	created_at: number;
	updated_at: number;
	/** When the provider last accepted a reply. */
	last_reply_at: number | null;
	/** The last reply that could not be delivered after every retry, shown on the channel status. */
	last_failure: DeliveryFailure | null;
}

export interface TelegramConnection extends ConnectionBase {
	kind: "telegram";
	/** The unguessable id in the webhook path, `/webhooks/telegram/{webhook_id}`; new on every connect. */
	webhook_id: string;
	bot_id: number;
	bot_username: string;
	token_sealed: string;
	/** SHA-256 of the secret token Telegram sends back in `X-Telegram-Bot-Api-Secret-Token`. */
	secret_token_hash: string;
}

export interface CrispConnection extends ConnectionBase {
	kind: "crisp";
	website_id: string;
	plugin_identifier: string;
	plugin_key_sealed: string;
	/** The plugin key's last four characters, to tell keys apart on the status page. */
	plugin_key_last4: string;
	/** The `key` of the hook URL (shown to the owner to paste into Crisp), and its hash for checking. */
	hook_key_sealed: string;
	hook_key_hash: string;
	/** The secret of signed plugin hooks, when the owner gave one. */
	hook_secret_sealed: string | null;
}

export type ConnectionDoc = TelegramConnection | CrispConnection;

export const connectionId = (kind: ChannelKind, chatbotId: string): string => `${kind}:${chatbotId}`;

/** What an inbound message asks for. */
export type InboundWhat = "text" | "welcome" | "not_text";

/** The reply decided for a message, stored before anything is sent so a retry sends the same words. */
export interface DecidedReply {
	parts: string[];
	/** Crisp only: the fingerprint each part is sent with. */
	fingerprints: string[];
}

export interface ReplyJob extends JobDoc {
	/** `telegram:<bot_id>:<update_id>` or `crisp:<website_id>:<session_id>:<fingerprint>`. */
	_id: string;
	connection_id: string;
	kind: ChannelKind;
	chatbot_id: string;
	/** The Telegram chat id or the Crisp session id: where the reply goes, and whose conversation it is. */
	chat_key: string;
	what: InboundWhat;
	text: string | null;
	/** Null until the reply is decided; `{parts: []}` when nothing is to be sent (handoff, limit told). */
	reply: DecidedReply | null;
	/** Parts the provider has accepted. */
	sent: number;
}

export interface ThreadDoc {
	/** `<connection_id>|<chat_key>` */
	_id: string;
	connection_id: string;
	chat_key: string;
	/** A human operator wrote: the bot stays quiet until then. */
	quiet_until: number;
	/** The person was told the chatbot's message limit is reached (told once). */
	cap_told: boolean;
	/** Fingerprints of the bot's own Crisp messages (recent ones). */
	own_fingerprints: string[];
	/** Of those, the ones Crisp has echoed back as `message:received`: delivered for certain. */
	echoed_fingerprints: string[];
	updated_at: number;
}

export const threadId = (connectionId: string, chatKey: string): string => `${connectionId}|${chatKey}`;

/** Fingerprints remembered per thread: far more than one reply's parts. */
export const FINGERPRINTS_KEPT = 50;
