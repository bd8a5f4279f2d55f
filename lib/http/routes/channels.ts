/**
 * Messaging channels: the owner's channels page and its forms (session cookie; JSON twins for
 * programs), and the two inbound webhooks (SPEC §6), which are served but never listed: they are
 * called by Telegram and Crisp only, and stay out of /api and the OpenAPI document.
 */
import type { ParamDef, ResponseDef, RouteDef } from "./types";
import { error, needsLogin, refused } from "./responses";

const seeOther: ResponseDef = { description: "HTML forms: 303 See Other back to the channels page.", headers: ["Location"] };
const notYours = error("`not_found`: no chatbot of this account has this id (or, to disconnect, the channel is not connected).");

const chatbotId: ParamDef = { name: "id", in: "path", required: true, description: "The chatbot's `chatbot_id`.", schema: { type: "string", minLength: 1, maxLength: 100 } };
const csrfToken = { type: "string", maxLength: 200, description: "HTML forms only: the CSRF token of the page. Not needed with a JSON body." };

const failure = {
	type: ["object", "null"],
	required: ["at", "message"],
	properties: { at: { type: "string", format: "date-time" }, message: { type: "string" } },
	description: "The last reply that could not be delivered after every retry."
};
const status = {
	connected_at: { type: "string", format: "date-time" },
	last_reply_at: { type: ["string", "null"], format: "date-time", description: "When the provider last accepted a reply." },
	last_failure: failure
};
const telegramView = {
	type: "object",
	required: ["bot_username", "bot_url", "connected_at", "last_reply_at", "last_failure"],
	properties: { bot_username: { type: "string" }, bot_url: { type: "string", format: "uri" }, ...status }
};
const crispView = {
	type: "object",
	required: ["website_id", "plugin_identifier", "plugin_key_hint", "hook_url", "signed_hooks", "connected_at", "last_reply_at", "last_failure"],
	properties: {
		website_id: { type: "string" },
		plugin_identifier: { type: "string" },
		plugin_key_hint: { type: "string", description: "`…` and the key's last four characters; the key is never shown again." },
		hook_url: { type: "string", format: "uri", description: "The Web Hook URL to paste into Crisp, with its secret `key`." },
		signed_hooks: { type: "boolean", description: "A hook secret was given: signed plugin hooks are accepted too." },
		...status
	}
};
const channelsView = {
	type: "object",
	required: ["chatbot_id", "chatbot_name", "can_answer", "telegram", "crisp"],
	properties: {
		chatbot_id: { type: "string" },
		chatbot_name: { type: "string" },
		can_answer: { type: "boolean" },
		telegram: { oneOf: [telegramView, { type: "null" }] },
		crisp: { oneOf: [crispView, { type: "null" }] }
	}
};
const okWith = (properties: Record<string, unknown>, required: string[]) => ({
	"application/json": { type: "object", required: ["ok", ...required], properties: { ok: { const: true }, ...properties } }
});

const base = { tags: ["Channels"], params: [chatbotId] };
const path = "/account/chatbots/{id}/channels";

export const channelRoutes: RouteDef[] = [
	{
		...base,
		operationId: "getChatbotChannels",
		method: "GET",
		path,
		summary: "A chatbot's messaging channels",
		description: "The channels page for browsers; with `Accept: application/json`, the state of Telegram and Crisp for the chatbot. Needs the session cookie of the chatbot's account.",
		action: "channels.channelsPage",
		responses: {
			"200": { description: "The channels (HTML forms get the page).", content: { ...okWith({ channels: channelsView }, ["channels"]), "text/html": { type: "string" } } },
			"401": needsLogin,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "connectTelegram",
		method: "POST",
		path: `${path}/telegram`,
		summary: "Connect a Telegram bot",
		description:
			"Checks the bot token with Telegram (`getMe`), stores it encrypted and sets the bot's webhook to this service with a secret token. Connecting again replaces the bot. Needs the session cookie.",
		action: "channels.connectTelegram",
		body: {
			kind: "form",
			description: "A JSON body answers JSON; a form answers with a redirect to the channels page.",
			schema: {
				type: "object",
				required: ["token"],
				additionalProperties: false,
				properties: { token: { type: "string", maxLength: 300, description: "The bot token from @BotFather." }, csrf_token: csrfToken }
			}
		},
		responses: {
			"201": { description: "Connected.", content: okWith({ channel: telegramView }, ["channel"]) },
			"303": seeOther,
			"400": error("`validation_failed`: not a bot token, or Telegram did not accept it."),
			"401": needsLogin,
			"403": refused,
			"404": notYours,
			"503": error("`unavailable`: Telegram could not be reached; nothing was changed.")
		},
		documented: true
	},
	{
		...base,
		operationId: "disconnectTelegram",
		method: "POST",
		path: `${path}/telegram/disconnect`,
		summary: "Disconnect Telegram",
		description: "Forgets the bot (its webhook address answers 404 at once) and deletes its webhook at Telegram. Needs the session cookie.",
		action: "channels.disconnectTelegram",
		body: { kind: "form", schema: { type: "object", additionalProperties: false, properties: { csrf_token: csrfToken } } },
		responses: {
			"200": {
				description: "Disconnected; `webhook_deleted` is false when Telegram could not be told (its calls then meet a 404).",
				content: okWith({ channel: { const: "telegram" }, disconnected: { const: true }, webhook_deleted: { type: "boolean" } }, ["channel", "disconnected", "webhook_deleted"])
			},
			"303": seeOther,
			"401": needsLogin,
			"403": refused,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "connectCrisp",
		method: "POST",
		path: `${path}/crisp`,
		summary: "Connect a Crisp website",
		description:
			"Stores the website id and the plugin token the bot replies with (the key encrypted) and returns the hook URL to paste into Crisp. An optional hook secret lets signed plugin hooks in. Connecting again keeps the hook URL. Needs the session cookie.",
		action: "channels.connectCrisp",
		body: {
			kind: "form",
			description: "A JSON body answers JSON; a form answers with a redirect to the channels page.",
			schema: {
				type: "object",
				required: ["website_id", "plugin_identifier", "plugin_key"],
				additionalProperties: false,
				properties: {
					website_id: { type: "string", maxLength: 300, description: "The Crisp website id (a UUID)." },
					plugin_identifier: { type: "string", maxLength: 300, description: "The plugin token's identifier." },
					plugin_key: { type: "string", maxLength: 300, description: "The plugin token's key; never shown again." },
					hook_secret: { type: "string", maxLength: 300, description: "Optional: the secret Crisp signs plugin hooks with." },
					csrf_token: csrfToken
				}
			}
		},
		responses: {
			"201": { description: "Connected; `channel.hook_url` goes into Crisp.", content: okWith({ channel: crispView }, ["channel"]) },
			"303": seeOther,
			"400": error("`validation_failed`: a field does not look like what Crisp issues (`errors.fields`)."),
			"401": needsLogin,
			"403": refused,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "disconnectCrisp",
		method: "POST",
		path: `${path}/crisp/disconnect`,
		summary: "Disconnect Crisp",
		description: "Forgets the website and plugin token; the hook URL answers 404 from now on. Needs the session cookie.",
		action: "channels.disconnectCrisp",
		body: { kind: "form", schema: { type: "object", additionalProperties: false, properties: { csrf_token: csrfToken } } },
		responses: {
			"200": { description: "Disconnected.", content: okWith({ channel: { const: "crisp" }, disconnected: { const: true } }, ["channel", "disconnected"]) },
			"303": seeOther,
			"401": needsLogin,
			"403": refused,
			"404": notYours
		},
		documented: true
	},
	{
		operationId: "receiveTelegramWebhook",
		method: "POST",
		path: "/webhooks/telegram/{uuid}",
		summary: "Inbound Telegram updates (called by Telegram only)",
		tags: ["Webhooks"],
		handler: "telegramWebhook",
		params: [{ name: "uuid", in: "path", required: true, description: "The connection's unguessable webhook id.", schema: { type: "string" } }],
		body: { kind: "raw", contentTypes: ["application/json"], description: "A Telegram Update." },
		responses: { "200": { description: "Accepted." } },
		documented: false
	},
	{
		operationId: "receiveCrispWebhook",
		method: "POST",
		path: "/webhooks/crisp/{chatbot_id}",
		summary: "Inbound Crisp web hooks (called by Crisp only)",
		tags: ["Webhooks"],
		handler: "crispWebhook",
		params: [{ name: "chatbot_id", in: "path", required: true, description: "The chatbot the Crisp website is connected to.", schema: { type: "string" } }],
		body: { kind: "raw", contentTypes: ["application/json"], description: "A Crisp hook event." },
		responses: { "200": { description: "Accepted." } },
		documented: false
	}
];
