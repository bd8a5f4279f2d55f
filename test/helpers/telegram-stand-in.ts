/**
 * A loopback stand-in for the Telegram Bot API (api.telegram.org cannot be reached from these
 * machines): the methods the service calls — `getMe`, `setWebhook`, `deleteWebhook`, `sendMessage` —
 * under `/bot<token>/<method>`, with Telegram's envelope (`{ok, result}` / `{ok: false, error_code,
 * description, parameters}`) and its checks: an unknown token is 401; a webhook secret token must be
 * 1-256 of `A-Z a-z 0-9 _ -`; a message must be 1-4,096 characters, and with a `parse_mode` its
 * markup must parse (the service never sends one, and the tests check that it never does).
 *
 * Like Telegram, it also sends updates to a bot's webhook with the bot's secret token (`deliver`).
 * Faults (429 with `retry_after`, 5xx, hangs) come from provider-stand-in.ts.
 */
import { Fault, RecordedCall, startJsonServer } from "./provider-stand-in";

export interface StandInBot {
	id: number;
	username: string;
	token: string;
	webhook: { url: string; secret_token: string; allowed_updates: unknown } | null;
}

export interface SentMessage {
	token: string;
	chat_id: string;
	text: string;
	at: number;
}

export interface TelegramStandIn {
	/** TELEGRAM_API_URL */
	base: string;
	calls: RecordedCall[];
	/** Messages accepted by `sendMessage`, in order. */
	sent: SentMessage[];
	/** Registers a bot: its token works from now on. */
	addBot(username: string): StandInBot;
	bot(token: string): StandInBot;
	/** Calls of `method` (of the bot with `token`, when given). */
	callsOf(method: string, token?: string): RecordedCall[];
	/** Makes the bot's next calls of `method` misbehave, in order. */
	failNext(token: string, method: string, faults: Fault[]): void;
	/** POSTs an update to the bot's webhook as Telegram does (with its secret token, unless `secret` overrides it). */
	deliver(token: string, update: unknown, options?: { secret?: string | null; raw?: string }): Promise<{ status: number; body: Record<string, unknown> }>;
	stop(): Promise<void>;
}

const SECRET_TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
const refuse = (status: number, description: string) => ({ status, body: { ok: false, error_code: status, description } });

export async function startTelegramStandIn(): Promise<TelegramStandIn> {
	const bots = new Map<string, StandInBot>();
	const sent: SentMessage[] = [];
	let nextBotId = 7_000_000_000;
	let nextMessageId = 1;

	const server = await startJsonServer(call => {
		const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(call.path);
		if (!match || call.method !== "POST") return refuse(404, "Not Found");
		const bot = bots.get(decodeURIComponent(match[1]));
		if (!bot) return refuse(401, "Unauthorized");
		const params = (call.body ?? {}) as Record<string, unknown>;
		switch (match[2]) {
			case "getMe":
				return ok({ id: bot.id, is_bot: true, first_name: bot.username, username: bot.username });
			case "setWebhook": {
				if (typeof params.url !== "string" || !/^https?:\/\//.test(params.url)) return refuse(400, "Bad Request: bad webhook: invalid URL");
				if (typeof params.secret_token !== "string" || !SECRET_TOKEN.test(params.secret_token)) return refuse(400, "Bad Request: secret token contains unallowed characters");
				bot.webhook = { url: params.url, secret_token: params.secret_token, allowed_updates: params.allowed_updates };
				return ok(true);
			}
			case "deleteWebhook":
				bot.webhook = null;
				return ok(true);
			case "sendMessage": {
				const text = params.text;
				if (typeof text !== "string" || text.trim() === "") return refuse(400, "Bad Request: message text is empty");
				if (text.length > 4096) return refuse(400, "Bad Request: message is too long");
				if (params.parse_mode !== undefined) return refuse(400, "Bad Request: can't parse entities (the service must not send markup)");
				sent.push({ token: bot.token, chat_id: String(params.chat_id), text, at: Date.now() });
				return ok({ message_id: nextMessageId++, chat: { id: Number(params.chat_id), type: "private" }, date: Math.floor(Date.now() / 1000), text });
			}
			default:
				return refuse(404, "Not Found: method not found");
		}
	});

	const tokenOf = (call: RecordedCall) => decodeURIComponent(/^\/bot([^/]+)\//.exec(call.path)?.[1] ?? "");
	const methodOf = (call: RecordedCall) => /\/([A-Za-z]+)$/.exec(call.path)?.[1];

	return {
		base: server.base,
		calls: server.calls,
		sent,
		addBot(username) {
			const id = nextBotId++;
			const token = `${id}:AAH${Buffer.from(username).toString("hex").padEnd(32, "x").slice(0, 32)}`;
			const bot: StandInBot = { id, username, token, webhook: null };
			bots.set(token, bot);
			return bot;
		},
		bot(token) {
			const bot = bots.get(token);
			if (!bot) throw new Error("no such stand-in bot");
			return bot;
		},
		callsOf(method, token) {
			return server.calls.filter(call => methodOf(call) === method && (token === undefined || tokenOf(call) === token));
		},
		failNext(token, method, faults) {
			server.failNext(call => tokenOf(call) === token && methodOf(call) === method, faults);
		},
		async deliver(token, update, options = {}) {
			const bot = bots.get(token);
			if (!bot?.webhook) throw new Error("the bot has no webhook");
			const secret = options.secret === undefined ? bot.webhook.secret_token : options.secret;
			const res = await fetch(bot.webhook.url, {
				method: "POST",
				headers: { "Content-Type": "application/json", ...(secret !== null ? { "X-Telegram-Bot-Api-Secret-Token": secret } : {}) },
				body: options.raw ?? JSON.stringify(update)
			});
			const text = await res.text();
			return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
		},
		stop: server.stop
	};
}

let nextUpdateId = 500_000;

/** A text message from a person in a private chat, as Telegram sends it. */
export function textUpdate(chatId: number, text: string, updateId = nextUpdateId++): Record<string, unknown> {
	return {
		update_id: updateId,
		message: { message_id: updateId, from: { id: chatId, is_bot: false, first_name: "Ana" }, chat: { id: chatId, type: "private", first_name: "Ana" }, date: Math.floor(Date.now() / 1000), text }
	};
}

/** Any other update: `fields` go into the message (or replace it with `{message: undefined, ...}`). */
export function update(fields: Record<string, unknown>, updateId = nextUpdateId++): Record<string, unknown> {
	return { update_id: updateId, ...fields };
}

export function newUpdateId(): number {
	return nextUpdateId++;
}
