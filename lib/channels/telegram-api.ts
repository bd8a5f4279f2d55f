/**
 * The few Telegram Bot API methods the service uses: `getMe` (check a token, learn the bot's
 * @username), `setWebhook` / `deleteWebhook` (connect, disconnect) and `sendMessage` (replies, as
 * plain text with no parse mode, so no markup can make Telegram refuse one).
 *
 * The token is part of every method's URL, so neither URLs nor tokens appear in any error this
 * module throws: failures carry Telegram's status and its own `description` only.
 */
import { callProvider, CallOptions, RetryPolicy } from "./provider-call";

/** What a bot token looks like: the bot's numeric id, a colon, and its secret. Checked before it goes into a URL. */
export const TELEGRAM_TOKEN_PATTERN = "^[0-9]{1,20}:[A-Za-z0-9_-]{20,200}$";
/** The updates the webhook asks for: new messages only. */
export const TELEGRAM_ALLOWED_UPDATES = ["message"];

export interface TelegramBot {
	id: number;
	username: string;
	first_name: string;
}

export interface TelegramApiOptions {
	baseUrl: string;
	token: string;
	policy: RetryPolicy;
}

const describe = (body: unknown): string | undefined => {
	const description = (body as { description?: unknown } | undefined)?.description;
	return typeof description === "string" ? description.slice(0, 300) : undefined;
};

export class TelegramApi {
	constructor(private readonly options: TelegramApiOptions) {}

	private async call<T>(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
		const callOptions: CallOptions = { policy: this.options.policy, signal, provider: "Telegram", describe };
		const response = await callProvider({ method: "POST", url: `${this.options.baseUrl}/bot${this.options.token}/${method}`, body: params }, callOptions);
		return (response.body as { result: T }).result;
	}

	getMe(signal?: AbortSignal): Promise<TelegramBot> {
		return this.call("getMe", {}, signal);
	}

	setWebhook(params: { url: string; secret_token: string }, signal?: AbortSignal): Promise<boolean> {
		return this.call("setWebhook", { ...params, allowed_updates: TELEGRAM_ALLOWED_UPDATES }, signal);
	}

	deleteWebhook(signal?: AbortSignal): Promise<boolean> {
		return this.call("deleteWebhook", {}, signal);
	}

	/** Sends one part of a reply (at most 4,096 characters, already split). */
	sendMessage(chatId: string, text: string, signal?: AbortSignal): Promise<{ message_id: number }> {
		return this.call("sendMessage", { chat_id: chatId, text, link_preview_options: { is_disabled: true } }, signal);
	}
}
