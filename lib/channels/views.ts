/**
 * A chatbot's channels as their owner sees them (the channels page and its JSON twin): never a
 * token, a key or a secret in full; the Crisp hook URL is shown because the owner must paste it.
 */
import type { ConnectionDoc, CrispConnection, DeliveryFailure, TelegramConnection } from "./model";

export interface ChannelStatus {
	connected_at: string;
	/** When the provider last accepted a reply. */
	last_reply_at: string | null;
	/** The last reply that could not be delivered after every retry. */
	last_failure: { at: string; message: string } | null;
}

export interface TelegramView extends ChannelStatus {
	bot_username: string;
	bot_url: string;
}

export interface CrispView extends ChannelStatus {
	website_id: string;
	plugin_identifier: string;
	/** `…` and the plugin key's last four characters. */
	plugin_key_hint: string;
	/** The Web Hook URL to paste into Crisp, with its secret `key`. */
	hook_url: string;
	/** A hook secret was given: signed plugin hooks are accepted too. */
	signed_hooks: boolean;
}

export interface ChannelsView {
	chatbot_id: string;
	chatbot_name: string;
	/** The chatbot has an index to answer from; until then every question gets "still learning". */
	can_answer: boolean;
	telegram: TelegramView | null;
	crisp: CrispView | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const failureView = (failure: DeliveryFailure | null) => (failure ? { at: new Date(failure.at).toISOString(), message: failure.message } : null);

function status(connection: ConnectionDoc): ChannelStatus {
	return { connected_at: new Date(connection.created_at).toISOString(), last_reply_at: iso(connection.last_reply_at), last_failure: failureView(connection.last_failure) };
}

export function crispHookUrl(publicUrl: string, chatbotId: string, hookKey: string): string {
	return `${publicUrl}/webhooks/crisp/${encodeURIComponent(chatbotId)}?key=${encodeURIComponent(hookKey)}`;
}

export function telegramView(connection: TelegramConnection): TelegramView {
	return { ...status(connection), bot_username: connection.bot_username, bot_url: `https://t.me/${encodeURIComponent(connection.bot_username)}` };
}

export function crispView(connection: CrispConnection, hookUrl: string): CrispView {
	return {
		...status(connection),
		website_id: connection.website_id,
		plugin_identifier: connection.plugin_identifier,
		plugin_key_hint: `…${connection.plugin_key_last4}`,
		hook_url: hookUrl,
		signed_hooks: connection.hook_secret_sealed !== null
	};
}
