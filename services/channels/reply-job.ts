/**
 * The reply job: one per inbound message, run by the durable-job mixin (claimed once, leased,
 * heartbeated, taken over by another worker when this one dies, given up after a few attempts).
 *
 * A job works in two recorded steps, so that a job taken over after a crash neither answers twice
 * (counting the message twice) nor sends twice:
 *
 *   1. decide: the reply's parts are computed (the chat service answers; or the welcome, the
 *      "only text" note, the limit notice once, or nothing during a human handoff) and stored on
 *      the job before anything is sent;
 *   2. deliver: each part is sent and `sent` is recorded as soon as the provider accepts it. A job
 *      taken over resumes after the last recorded part.
 *
 * What is left is a narrow window: a worker that dies after the provider accepted a part and before
 * `sent` was written makes its successor send that part again. For Crisp it is narrower still: each
 * part carries a fingerprint chosen in step 1, and Crisp echoes every delivered message back as
 * `message:received`, which inbound.ts records; a part whose echo has arrived is not sent again,
 * neither by a successor nor by a retry after a request whose answer was lost.
 * Telegram has no such echo and no idempotency key, so there the window stays (a few milliseconds
 * between its answer and one database write). A send that times out is also retried, and Telegram
 * may have delivered it: the same duplicate, in the rarer case of an answer lost on the way back.
 *
 * Outbound calls retry 429 and 5xx with back-off, honouring `retry_after` / `Retry-After`
 * (lib/channels/provider-call.ts). When they give up, the failure is recorded on the connection
 * (shown on the channels page) and the job ends.
 */
import { randomInt } from "node:crypto";
import { clipText, splitMessage } from "../../lib/channels/message-text";
import { answerText, notTextReply, welcomeText } from "../../lib/channels/copy";
import { ConnectionDoc, CrispConnection, DecidedReply, FINGERPRINTS_KEPT, ReplyJob, TelegramConnection } from "../../lib/channels/model";
import { ProviderFailure, RetryPolicy } from "../../lib/channels/provider-call";
import type { ChatReply } from "../../lib/chat/wire";
import { MAX_CHAT_MESSAGE_CHARS } from "../../lib/chat/wire";
import type { Chatbot } from "../../lib/chatbots/model";
import type { JobRun } from "../../mixins/durable-job.mixin";
import type { ChannelsThis } from "./types";

/** Long enough for the chat service to answer with an LLM. */
const ANSWER_TIMEOUT_MS = 130_000;
const NOTHING: DecidedReply = { parts: [], fingerprints: [] };

const errorType = (err: unknown) => (err as { type?: string } | null)?.type;

/** The connection still stands for the job's address (not disconnected, not moved to another bot or website). */
function stillConnected(connection: ConnectionDoc | null, job: ReplyJob): connection is ConnectionDoc {
	if (!connection) return false;
	const address = connection.kind === "telegram" ? `telegram:${connection.bot_id}:` : `crisp:${connection.website_id}:`;
	return job._id.startsWith(address);
}

/** A message fingerprint of our own choosing, in the range Crisp's own fingerprints use. */
const newFingerprint = () => String(randomInt(1, 2 ** 47));

export function replyJobMethods(retry: RetryPolicy) {
	return {
		async runJob(this: ChannelsThis, job: ReplyJob, run: JobRun): Promise<void> {
			const connection = await this.connections.findOne({ _id: job.connection_id });
			if (!stillConnected(connection, job)) return; // disconnected meanwhile: nobody to answer
			let reply = job.reply;
			if (!reply) {
				reply = await this.decideReply(job);
				run.checkpoint();
				await this.jobs().update({ _id: job._id, reply: null }, { $set: { reply, updated_at: Date.now() } });
			}
			await this.deliver(job, connection, reply, run);
		},

		async giveUpJob(this: ChannelsThis, job: ReplyJob, reason: string): Promise<void> {
			await this.recordFailure(job.connection_id, `A reply could not be sent: ${reason}.`);
		},

		async decideReply(this: ChannelsThis, job: ReplyJob): Promise<DecidedReply> {
			let chatbot: Chatbot;
			try {
				chatbot = (await this.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: job.chatbot_id, with_sources: false })).chatbot;
			} catch (err) {
				if (errorType(err) === "expired") return NOTHING; // the chatbot is gone; its connections go with it
				throw err;
			}
			const thread = await this.thread(job.connection_id, job.chat_key);
			if (job.kind === "crisp" && thread && thread.quiet_until > Date.now()) return NOTHING; // a human operator has the conversation
			let text: string;
			if (job.what === "welcome") text = welcomeText(chatbot.locale);
			else if (job.what === "not_text") text = notTextReply(chatbot.locale);
			else {
				try {
					const answer = await this.broker.call<ChatReply, object>(
						"chat.answer",
						{ chatbot_id: chatbot._id, channel: job.kind, conversation_key: job.chat_key, message: clipText(job.text ?? "", MAX_CHAT_MESSAGE_CHARS) },
						{ timeout: ANSWER_TIMEOUT_MS }
					);
					text = answerText(answer.answer, answer.citations, chatbot.locale);
					if (thread?.cap_told) await this.updateThread(job.connection_id, job.chat_key, { $set: { cap_told: false, updated_at: Date.now() } });
				} catch (err) {
					const type = errorType(err);
					if (type === "message_cap" || type === "chatbot_paused") {
						// Told once per conversation (the limit is reached, or a smaller plan paused the chatbot);
						// later messages get no reply until it answers again.
						await this.updateThread(job.connection_id, job.chat_key, { $set: { updated_at: Date.now() } });
						const told = await this.threads.update({ connection_id: job.connection_id, chat_key: job.chat_key, cap_told: false }, { $set: { cap_told: true } });
						if (told === 0) return NOTHING;
						text = (err as Error).message;
					} else if (type === "conflict") {
						text = (err as Error).message; // not trained yet: "still learning", in its language
					} else if (type === "expired") {
						return NOTHING;
					} else {
						throw err;
					}
				}
			}
			const parts = splitMessage(text);
			if (job.kind !== "crisp") return { parts, fingerprints: [] };
			const fingerprints = parts.map(newFingerprint);
			// Remembered before anything is sent, so Crisp's echo of each part is known as the bot's own.
			await this.updateThread(job.connection_id, job.chat_key, { $push: { own_fingerprints: { $each: fingerprints, $slice: -FINGERPRINTS_KEPT } }, $set: { updated_at: Date.now() } });
			return { parts, fingerprints };
		},

		async deliver(this: ChannelsThis, job: ReplyJob, connection: ConnectionDoc, reply: DecidedReply, run: JobRun): Promise<void> {
			if (job.sent >= reply.parts.length) return;
			const crisp = connection.kind === "crisp" ? this.crispApi(connection as CrispConnection, retry) : null;
			const telegram = connection.kind === "telegram" ? this.telegramOf(connection as TelegramConnection) : null;
			for (let i = job.sent; i < reply.parts.length; i++) {
				run.checkpoint();
				try {
					if (crisp) {
						const fingerprint = reply.fingerprints[i];
						// Crisp's echo of the part has arrived: it went through (sent by a predecessor that died
						// before recording it, or by a request whose answer was lost). Asked again before each retry.
						const echoed = async () => Boolean((await this.thread(job.connection_id, job.chat_key))?.echoed_fingerprints.includes(fingerprint));
						if (!(await echoed())) {
							await crisp.sendText((connection as CrispConnection).website_id, job.chat_key, reply.parts[i], Number(fingerprint), { signal: run.signal, delivered: echoed });
						}
					} else {
						await (telegram as NonNullable<typeof telegram>).sendMessage(job.chat_key, reply.parts[i], run.signal);
					}
				} catch (err) {
					if (!(err instanceof ProviderFailure)) throw err; // stopped (deadline, node stopping): the mixin decides
					await this.recordFailure(connection._id, err.message);
					await this.finishJob(job, "failed");
					return;
				}
				await this.jobs().update({ _id: job._id }, { $set: { sent: i + 1, updated_at: Date.now() } });
			}
			await this.connections.update({ _id: connection._id }, { $set: { last_reply_at: Date.now() } });
		},

		async recordFailure(this: ChannelsThis, connectionId: string, message: string): Promise<void> {
			this.logger.warn(`Channel ${connectionId}: ${message}`);
			await this.connections.update({ _id: connectionId }, { $set: { last_failure: { at: Date.now(), message }, updated_at: Date.now() } });
		}
	};
}
