/**
 * The channels service's side of the inbound webhooks (the gateway's handlers in
 * services/gateway/webhooks.ts read the raw request and call these). In order, each one:
 *
 *   1. finds the connection the path names → 404 `not_found`;
 *   2. checks the sender's proof (Telegram's secret token; Crisp's signature or hook key) →
 *      401 `unauthorized` when none is given, 403 `forbidden` when it is wrong; nothing is written;
 *   3. parses the body → 400 `invalid_json`;
 *   4. acts at once (a few writes at most): a message becomes a durable reply job keyed by the
 *      provider's own id, so a delivery Telegram or Crisp repeats is the same job; everything the
 *      bot does not use is acknowledged and ignored (200), so the provider does not send it again.
 *
 * Nothing here waits for an answer: the reply is sent from the job (reply-job.ts).
 */
import { createHash } from "node:crypto";
import { constantTimeEqual } from "../../lib/accounts/secrets";
import { crispSignatureValid, readCrispEvent } from "../../lib/channels/crisp-event";
import { connectionId, ConnectionDoc, CrispConnection, FINGERPRINTS_KEPT, InboundWhat, TelegramConnection } from "../../lib/channels/model";
import { readTelegramUpdate } from "../../lib/channels/telegram-update";
import { appError } from "../../lib/errors";
import { call } from "../call";
import type { ChannelsThis, P } from "./types";

/** What a webhook answers when the request is accepted. */
export interface InboundResult {
	ok: true;
	/** A reply job was queued for this delivery (false: a repeat, or nothing to answer). */
	queued: boolean;
	/** Why the delivery needs nothing from the bot. */
	ignored?: string;
}

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

const unknownPath = () => appError("not_found", "No connected channel has this webhook address.", { hint: "Connect the channel again from the chatbot's channels page; this address is not in use." });
const missingProof = (what: string) => appError("unauthorized", `The request carries no ${what}.`, { hint: "Only the messaging provider calls this address." });
const wrongProof = (what: string) => appError("forbidden", `The ${what} does not match this channel.`, { hint: "Only the messaging provider calls this address." });

/** The body as JSON; a body that is not UTF-8 JSON is the sender's mistake (400). */
function parseBody(body: Buffer): unknown {
	try {
		return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
	} catch {
		throw appError("invalid_json", "The body is not valid JSON.");
	}
}

/** Queues the reply job of an inbound message, keyed by the provider's own id (`jobId`): a repeat finds it. */
async function queueReply(
	service: ChannelsThis,
	connection: ConnectionDoc,
	jobId: string,
	chatKey: string,
	message: { what: InboundWhat; text?: string }
): Promise<InboundResult> {
	const queued = await service.enqueueOnce({
		_id: jobId,
		connection_id: connection._id,
		kind: connection.kind,
		chatbot_id: connection.chatbot_id,
		chat_key: chatKey,
		what: message.what,
		text: message.what === "text" ? (message.text ?? null) : null
	});
	return { ok: true, queued };
}

const bodyParam = { type: "string", max: 2_000_000 } as const;
/** Anything a path, header or query may carry: what does not match a connection is a 404 or a 403, not a 400. */
const loose = { type: "string", optional: true, max: 2000 } as const;

export const inboundActions = {
	/** An update from Telegram for the bot connected under `webhook_id`. */
	receiveTelegram: {
		params: { webhook_id: "string|min:1|max:2000", secret_token: loose, body: bodyParam },
		async handler(this: ChannelsThis, ctx: P<{ webhook_id: string; secret_token?: string; body: string }>): Promise<InboundResult> {
			const connection = (await this.connections.findOne({ kind: "telegram", webhook_id: ctx.params.webhook_id })) as TelegramConnection | null;
			if (!connection) throw unknownPath();
			const secret = ctx.params.secret_token;
			if (!secret) throw missingProof("X-Telegram-Bot-Api-Secret-Token header");
			if (!constantTimeEqual(sha256(secret), connection.secret_token_hash)) throw wrongProof("secret token");
			const update = readTelegramUpdate(parseBody(Buffer.from(ctx.params.body, "base64")));
			if (update.kind === "ignore") return { ok: true, queued: false, ignored: update.reason };
			return queueReply(this, connection, `telegram:${connection.bot_id}:${update.update_id}`, update.chat_id, update);
		}
	},

	/** A web hook from Crisp for the chatbot `chatbot_id`: signed (`signature` + `timestamp`) or keyed (`key`). */
	receiveCrisp: {
		params: {
			chatbot_id: "string|min:1|max:2000",
			key: loose,
			signature: loose,
			timestamp: loose,
			body: bodyParam
		},
		async handler(this: ChannelsThis, ctx: P<{ chatbot_id: string; key?: string; signature?: string; timestamp?: string; body: string }>): Promise<InboundResult> {
			const connection = (await this.connections.findOne({ _id: connectionId("crisp", ctx.params.chatbot_id) })) as CrispConnection | null;
			if (!connection) throw unknownPath();
			const { key, signature, timestamp } = ctx.params;
			const raw = Buffer.from(ctx.params.body, "base64");
			const hookSecret = connection.hook_secret_sealed === null ? null : this.box.open(connection.hook_secret_sealed, `${connection._id}:hook_secret`);
			const signed = Boolean(signature && timestamp !== undefined && hookSecret && crispSignatureValid(hookSecret, timestamp, raw, signature));
			const keyed = Boolean(key && constantTimeEqual(sha256(key), connection.hook_key_hash));
			if (!signed && !keyed) {
				if (!signature && !key) throw missingProof("signature (X-Crisp-Signature) or hook key (?key=)");
				throw wrongProof(signature ? "signature" : "hook key");
			}
			const event = readCrispEvent(parseBody(raw));
			if (event.kind === "ignore") return { ok: true, queued: false, ignored: event.reason };
			if (event.website_id.toLowerCase() !== connection.website_id) return { ok: true, queued: false, ignored: "another website" };
			const now = Date.now();
			switch (event.kind) {
				case "visitor_message":
					return queueReply(this, connection, `crisp:${event.website_id}:${event.session_id}:${event.fingerprint}`, event.session_id, event);
				case "operator_message": {
					const thread = await this.thread(connection._id, event.session_id);
					if (thread?.own_fingerprints.includes(event.fingerprint)) {
						// The bot's own reply coming back: it was delivered (reply-job.ts skips it on a retry).
						await this.updateThread(connection._id, event.session_id, { $push: { echoed_fingerprints: { $each: [event.fingerprint], $slice: -FINGERPRINTS_KEPT } }, $set: { updated_at: now } });
						return { ok: true, queued: false, ignored: "the bot's own message" };
					}
					const quietSeconds = this.settings.handoffQuietSeconds as number;
					await this.updateThread(connection._id, event.session_id, { $set: { quiet_until: now + quietSeconds * 1000, updated_at: now } });
					return { ok: true, queued: false, ignored: "a human operator took over" };
				}
				case "session_removed": {
					await call(ctx, "chat.endConversation", { chatbot_id: connection.chatbot_id, channel: "crisp", conversation_key: event.session_id });
					await this.threads.remove({ connection_id: connection._id, chat_key: event.session_id });
					return { ok: true, queued: false, ignored: "the conversation ended" };
				}
			}
		}
	}
};
