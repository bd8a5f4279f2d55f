/**
 * The owner's side: the channels page of a chatbot and its forms, connect and disconnect for each
 * channel. Each action is a form a browser posts (answered with the page or a redirect) and a program
 * may post as JSON (answered with JSON): `reply: "form"`, a logged-in viewer (`auth`), the CSRF check
 * (`csrf`), and the chatbot must be the viewer's (`owns`: `not_found` otherwise, never saying whose it is).
 *
 * Telegram: the token is checked with `getMe`, a new webhook id and secret token are made, the
 * connection is stored (token sealed) and `setWebhook` points Telegram at
 * `PUBLIC_URL/webhooks/telegram/{webhook_id}`; if Telegram refuses, the previous state is put back.
 * Disconnecting forgets the connection first (the path answers 404 at once), then `deleteWebhook`.
 *
 * Crisp: the website id and plugin token are stored (key sealed), with a hook key kept across
 * reconnections so the hook URL pasted into Crisp keeps working; an optional hook secret lets signed
 * plugin hooks in. Nothing is called at Crisp until the first reply.
 */
import { createHash, randomUUID } from "node:crypto";
import type { AppConfig } from "../../config";
import { randomBase64Url } from "../../lib/accounts/secrets";
import { CRISP_WEBSITE_ID_PATTERN } from "../../lib/channels/crisp-api";
import { ChannelKind, connectionId, ConnectionDoc, CrispConnection, TelegramConnection } from "../../lib/channels/model";
import { channelsPath, renderChannelsPage } from "../../lib/channels/page";
import { ProviderFailure } from "../../lib/channels/provider-call";
import { TELEGRAM_TOKEN_PATTERN } from "../../lib/channels/telegram-api";
import { ChannelsView, crispHookUrl, crispView, telegramView } from "../../lib/channels/views";
import type { Chatbot } from "../../lib/chatbots/model";
import { chatbotState } from "../../lib/chatbots/status";
import { appError } from "../../lib/errors";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, ownedChatbotOf, viewerOf } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import type { ChannelsThis } from "./types";

type C<P> = HttpContext<P>;

const TELEGRAM_TOKEN = new RegExp(TELEGRAM_TOKEN_PATTERN);
const CRISP_WEBSITE_ID = new RegExp(CRISP_WEBSITE_ID_PATTERN);
const CRISP_IDENTIFIER = /^[A-Za-z0-9_-]{1,100}$/;
/** Printable ASCII without spaces: what goes into a Basic credential or an HMAC key unchanged. */
const PRINTABLE = /^[\x21-\x7e]{1,200}$/;

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");
const chatbotIdParam = "string|min:1|max:100";
const returnTo = "/account/chatbots/{id}/channels";
/** The action properties of every form of the page: the owner's session, the CSRF check, JSON or page. */
const ownerForm = { reply: "form" as const, auth: "session" as const, owns: "chatbot" as const, returnTo, csrf: true as const };

const invalid = (field: string, message: string, detail: string) => appError("validation_failed", message, { detail, fields: [{ field, message: detail }] });

const PROVIDER_NAMES: Record<ChannelKind, string> = { telegram: "Telegram", crisp: "Crisp" };

/** A provider's refusal at connect time: its words about the credential (400), or "try again" (503). */
function providerRefusal(provider: string, err: unknown, credential: string): Error {
	if (!(err instanceof ProviderFailure)) return err as Error;
	if (err.status !== null && err.status >= 400 && err.status < 500 && err.status !== 429) {
		return invalid(credential, `${provider} did not accept the ${credential}.`, `${provider} did not accept the ${credential} (${err.message}). Check it and try again.`);
	}
	return appError("unavailable", `${err.message}. Nothing was changed; try again in a minute.`);
}

/**
 * Telegram refused the webhook address itself (the token passed getMe): the service's PUBLIC_URL is
 * not one Telegram accepts, which only the operator can change.
 */
function webhookRefusal(err: unknown): Error {
	if (!(err instanceof ProviderFailure) || err.status === null || err.status >= 500 || err.status === 429) return providerRefusal("Telegram", err, "token");
	return appError("unavailable", `Telegram refused this service's webhook address (${err.message}). Nothing was changed.`, {
		hint: "The service's PUBLIC_URL must be a public https address Telegram can reach; ask its operator."
	});
}

interface ConnectTelegramParams {
	id: string;
	token: string;
}

interface ConnectCrispParams {
	id: string;
	website_id: string;
	plugin_identifier: string;
	plugin_key: string;
	hook_secret?: string;
}

export function ownerActions(config: Readonly<AppConfig>) {
	const publicUrl = config.publicUrl;

	/** The chatbot's channels as its owner sees them. */
	async function viewOf(service: ChannelsThis, chatbot: Chatbot): Promise<ChannelsView> {
		const [telegram, crisp] = await Promise.all([
			service.connections.findOne({ _id: connectionId("telegram", chatbot._id) }) as Promise<TelegramConnection | null>,
			service.connections.findOne({ _id: connectionId("crisp", chatbot._id) }) as Promise<CrispConnection | null>
		]);
		const hookUrl = crisp ? crispHookUrl(publicUrl, chatbot._id, service.box.open(crisp.hook_key_sealed, `${crisp._id}:hook_key`)) : "";
		return {
			chatbot_id: chatbot._id,
			chatbot_name: chatbot.name,
			can_answer: chatbotState(chatbot).can_answer,
			telegram: telegram ? telegramView(telegram) : null,
			crisp: crisp ? crispView(crisp, hookUrl) : null
		};
	}

	/** The page, possibly with a refusal shown under one channel. */
	async function channelsPage(service: ChannelsThis, ctx: C<unknown>, chatbot: Chatbot, status = 200, error?: { channel: ChannelKind; message: string }, crispForm?: { website_id?: string; plugin_identifier?: string }) {
		const view = await viewOf(service, chatbot);
		return pageReply(renderChannelsPage({ baseUrl: publicUrl, csrfToken: viewerOf(ctx).csrfToken, view, error, crispForm }), { status });
	}

	/** The form's work; a browser whose request is refused (4xx, or the provider unreachable) sees the page again with the reason. */
	function formWork(ctx: C<unknown>, work: () => Promise<HttpReply>, again: (status: number, reason: string) => Promise<HttpReply>): Promise<HttpReply> {
		return showFormAgainOnRefusal(
			ctx,
			async () => {
				try {
					return await work();
				} catch (err) {
					if (!answersJson(ctx) && (err as { type?: string }).type === "unavailable") return again(503, (err as Error).message);
					throw err;
				}
			},
			again
		);
	}

	/** The viewer's chatbot's connection of this kind, to disconnect; `not_found` when there is none. */
	async function connectionToDrop(service: ChannelsThis, ctx: C<{ id: string }>, kind: ChannelKind): Promise<ConnectionDoc> {
		const chatbot = ownedChatbotOf(ctx);
		const connection = await service.connections.findOne({ _id: connectionId(kind, chatbot._id) });
		if (connection) return connection;
		const message = `${PROVIDER_NAMES[kind]} is not connected to this chatbot.`;
		throw appError("not_found", message, { page: { title: "Not connected", message, link: { href: channelsPath(chatbot._id), label: "Channels" } } });
	}

	/** After a change: JSON for programs, back to the page for browsers. */
	const done = (ctx: C<{ id: string }>, body: Record<string, unknown>, status = 200) => (answersJson(ctx) ? jsonReply({ ok: true, ...body }, { status }) : redirectReply(channelsPath(ctx.params.id)));

	return {
		/** The channels page (browsers) or the channels' state as JSON (programs). */
		channelsPage: {
			reply: "form" as const,
			auth: "session" as const,
			owns: "chatbot" as const,
			returnTo,
			params: { id: chatbotIdParam },
			async handler(this: ChannelsThis, ctx: C<{ id: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				if (answersJson(ctx)) return jsonReply({ ok: true, channels: await viewOf(this, chatbot) });
				return channelsPage(this, ctx, chatbot);
			}
		},

		/** Connects a Telegram bot by its token (checked with getMe; the webhook set with a secret token). */
		connectTelegram: {
			...ownerForm,
			params: { ...CSRF_PARAMS, id: chatbotIdParam, token: "string|max:300" },
			async handler(this: ChannelsThis, ctx: C<ConnectTelegramParams>) {
				const chatbot = ownedChatbotOf(ctx);
				return formWork(
					ctx,
					async () => {
						const token = ctx.params.token.trim();
						if (!TELEGRAM_TOKEN.test(token)) {
							throw invalid("token", "This is not a Telegram bot token.", "A bot token looks like 123456789:AAE… : the bot's number, a colon, then at least 20 letters, digits, - or _. @BotFather gives it.");
						}
						const api = this.telegramApi(token, this.settings.connectRetry);
						const bot = await api.getMe().catch(err => {
							throw providerRefusal("Telegram", err, "token");
						});
						const id = connectionId("telegram", chatbot._id);
						const previous = await this.connections.findOne({ _id: id });
						const now = Date.now();
						const secretToken = randomBase64Url(32);
						const connection: TelegramConnection = {
							_id: id,
							kind: "telegram",
							chatbot_id: chatbot._id,
							account_id: viewerOf(ctx).account.id,
							created_at: now,
							updated_at: now,
							last_reply_at: null,
							last_failure: null,
							webhook_id: randomUUID(),
							bot_id: bot.id,
							bot_username: bot.username,
							token_sealed: this.box.seal(token, `${id}:token`),
							secret_token_hash: sha256(secretToken)
						};
						// Stored before Telegram is told, so the first update finds its connection.
						await this.putConnection(connection);
						try {
							await api.setWebhook({ url: `${publicUrl}/webhooks/telegram/${connection.webhook_id}`, secret_token: secretToken });
						} catch (err) {
							if (previous) await this.putConnection(previous);
							else await this.connections.remove({ _id: id });
							throw webhookRefusal(err);
						}
						if (previous?.kind === "telegram" && previous.bot_id !== bot.id) {
							// The chatbot moved to another bot: the old one stops sending here.
							await this.telegramOf(previous)
								.deleteWebhook()
								.catch(err => this.logger.warn(`deleteWebhook for the previous bot of ${chatbot._id} failed:`, (err as Error).message));
						}
						return done(ctx, { channel: telegramView(connection) }, 201);
					},
					(status, reason) => channelsPage(this, ctx, chatbot, status, { channel: "telegram", message: reason })
				);
			}
		},

		/** Disconnects Telegram: the webhook path answers 404 at once, and Telegram is told to stop (deleteWebhook). */
		disconnectTelegram: {
			...ownerForm,
			params: { ...CSRF_PARAMS, id: chatbotIdParam },
			async handler(this: ChannelsThis, ctx: C<{ id: string }>) {
				const connection = (await connectionToDrop(this, ctx, "telegram")) as TelegramConnection;
				await this.forgetConnection(connection);
				let webhookDeleted = true;
				try {
					await this.telegramApi(this.box.open(connection.token_sealed, `${connection._id}:token`), this.settings.connectRetry).deleteWebhook();
				} catch (err) {
					if (!(err instanceof ProviderFailure)) throw err;
					// Disconnected all the same: Telegram's further calls meet a 404.
					webhookDeleted = false;
					this.logger.warn(`deleteWebhook for ${connection.chatbot_id} failed:`, err.message);
				}
				return done(ctx, { channel: "telegram", disconnected: true, webhook_deleted: webhookDeleted });
			}
		},

		/** Connects a Crisp website: the plugin token replies, the hook URL (shown) lets its events in. */
		connectCrisp: {
			...ownerForm,
			params: {
				...CSRF_PARAMS,
				id: chatbotIdParam,
				website_id: "string|max:300",
				plugin_identifier: "string|max:300",
				plugin_key: "string|max:300",
				hook_secret: { type: "string", optional: true, max: 300 }
			},
			async handler(this: ChannelsThis, ctx: C<ConnectCrispParams>) {
				const chatbot = ownedChatbotOf(ctx);
				const websiteId = ctx.params.website_id.trim();
				const identifier = ctx.params.plugin_identifier.trim();
				const typed = { website_id: websiteId, plugin_identifier: identifier };
				return formWork(
					ctx,
					async () => {
						const key = ctx.params.plugin_key.trim();
						const hookSecret = ctx.params.hook_secret?.trim() || null;
						if (!CRISP_WEBSITE_ID.test(websiteId)) throw invalid("website_id", "This is not a Crisp website id.", "The website id is a UUID such as 8c842203-7ed8-4e29-a608-7cf78a7d2fcc (Crisp: Settings → Website → Setup instructions).");
						if (!CRISP_IDENTIFIER.test(identifier)) throw invalid("plugin_identifier", "This is not a Crisp plugin identifier.", "The plugin identifier is the token identifier of your Crisp plugin (letters, digits and -).");
						if (!PRINTABLE.test(key)) throw invalid("plugin_key", "This is not a Crisp plugin key.", "The plugin key is the token key of your Crisp plugin (no spaces).");
						if (hookSecret !== null && !PRINTABLE.test(hookSecret)) throw invalid("hook_secret", "This is not a hook secret.", "The hook secret has no spaces and at most 200 characters.");
						const id = connectionId("crisp", chatbot._id);
						const previous = (await this.connections.findOne({ _id: id })) as CrispConnection | null;
						// The hook URL already pasted into Crisp keeps working across reconnections.
						const hookKey = previous ? this.box.open(previous.hook_key_sealed, `${id}:hook_key`) : randomBase64Url(24);
						const now = Date.now();
						const connection: CrispConnection = {
							_id: id,
							kind: "crisp",
							chatbot_id: chatbot._id,
							account_id: viewerOf(ctx).account.id,
							created_at: previous?.created_at ?? now,
							updated_at: now,
							last_reply_at: previous?.last_reply_at ?? null,
							last_failure: null,
							website_id: websiteId.toLowerCase(),
							plugin_identifier: identifier,
							plugin_key_sealed: this.box.seal(key, `${id}:plugin_key`),
							plugin_key_last4: key.slice(-4),
							hook_key_sealed: this.box.seal(hookKey, `${id}:hook_key`),
							hook_key_hash: sha256(hookKey),
							hook_secret_sealed: hookSecret === null ? null : this.box.seal(hookSecret, `${id}:hook_secret`)
						};
						await this.putConnection(connection);
						return done(ctx, { channel: crispView(connection, crispHookUrl(publicUrl, chatbot._id, hookKey)) }, 201);
					},
					(status, reason) => channelsPage(this, ctx, chatbot, status, { channel: "crisp", message: reason }, typed)
				);
			}
		},

		/** Disconnects Crisp: its hook URL answers 404 from now on. */
		disconnectCrisp: {
			...ownerForm,
			params: { ...CSRF_PARAMS, id: chatbotIdParam },
			async handler(this: ChannelsThis, ctx: C<{ id: string }>) {
				await this.forgetConnection(await connectionToDrop(this, ctx, "crisp"));
				return done(ctx, { channel: "crisp", disconnected: true });
			}
		}
	};
}
