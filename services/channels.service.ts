/**
 * channels: the messaging channels of account chatbots, Telegram and Crisp (issue 14, DESIGN).
 *
 * Owns the connections (provider credentials sealed with CHANNELS_KEY, lib/channels/secret-box.ts),
 * the inbound message jobs and the per-conversation threads. The pieces live beside this file:
 *
 * - owner-actions.ts: the channels page and its forms (connect, disconnect), for the chatbot's owner;
 * - inbound.ts: what the gateway's webhook handlers hand over: verified, parsed, queued at once;
 * - reply-job.ts: the durable reply job (answer through `chat.answer`, send through the provider's
 *   API, retried with back-off, exactly once but for the window it describes).
 *
 * Emits nothing; listens to `chatbot.removed` (its connections go with it).
 */
import type { ServiceSchema } from "moleculer";
import type { AppConfig } from "../config";
import { CrispApi } from "../lib/channels/crisp-api";
import { ConnectionDoc, ReplyJob, TelegramConnection, threadId, ThreadDoc } from "../lib/channels/model";
import { DEFAULT_RETRY, RetryPolicy } from "../lib/channels/provider-call";
import { createSecretBox, resolveChannelsKey } from "../lib/channels/secret-box";
import { TelegramApi } from "../lib/channels/telegram-api";
import { openCollection } from "../mixins/db.mixin";
import { DurableJobMixin } from "../mixins/durable-job.mixin";
import { inboundActions } from "./channels/inbound";
import { ownerActions } from "./channels/owner-actions";
import { replyJobMethods } from "./channels/reply-job";
import type { ChannelsMethods, ChannelsOwnMethods, ChannelsSettings, ChannelsThis, ChannelsVars } from "./channels/types";

export const REPLY_CHANNEL = "channels.replies";
/** Threads untouched this long are forgotten (handoffs and limit notices long over). */
const THREAD_TTL_MS = 30 * 24 * 3600_000;
const PURGE_EVERY_MS = 3600_000;

export interface ChannelsServiceOptions {
	/** Outbound replies (default: 5 tries, back-off from 1 s, waits asked for up to 2 minutes). */
	retry?: RetryPolicy;
	/** Calls a person waits for (connect, disconnect). */
	connectRetry?: RetryPolicy;
	/** The reply job's lease (and JetStream's ack wait): how soon a dead worker's job is taken over. */
	leaseMs?: number;
}

const CONNECT_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 500, maxDelayMs: 1_000, maxRetryAfterMs: 3_000, timeoutMs: 10_000 };

export default function createChannelsService(config: Readonly<AppConfig>, opts: ChannelsServiceOptions = {}): ServiceSchema<ChannelsSettings, ChannelsMethods, ChannelsVars> {
	const retry = opts.retry ?? DEFAULT_RETRY;
	const leaseMs = opts.leaseMs ?? 10_000;

	const methods: ChannelsOwnMethods & ThisType<ChannelsThis> = {
		...replyJobMethods(retry),

		telegramApi(token, policy) {
			return new TelegramApi({ baseUrl: config.channels.telegramApiUrl, token, policy });
		},

		telegramOf(connection: TelegramConnection) {
			return this.telegramApi(this.box.open(connection.token_sealed, `${connection._id}:token`), retry);
		},

		crispApi(connection, policy) {
			const key = this.box.open(connection.plugin_key_sealed, `${connection._id}:plugin_key`);
			return new CrispApi({ baseUrl: config.channels.crispApiUrl, identifier: connection.plugin_identifier, key, policy });
		},

		async putConnection(connection) {
			const { _id, ...fields } = connection;
			if ((await this.connections.update({ _id }, { $set: fields })) === 1) return;
			try {
				await this.connections.insert(connection);
			} catch {
				await this.connections.update({ _id }, { $set: fields }); // inserted meanwhile by a simultaneous connect
			}
		},

		async forgetConnection(connection) {
			await this.connections.remove({ _id: connection._id });
			await this.threads.remove({ connection_id: connection._id });
		},

		async enqueueOnce(fields) {
			// A job with this key, running or finished (kept two days), means the provider sent it again.
			if (await this.jobs().findOne({ _id: fields._id })) return false;
			// Two copies arriving at once: one stores the job (`created`), the other finds it.
			const { job, created } = await this.storeJob({ ...fields, reply: null, sent: 0 });
			if (created) await this.sendJob(job._id);
			return created;
		},

		thread(connectionId, chatKey) {
			return this.threads.findOne({ _id: threadId(connectionId, chatKey) });
		},

		async updateThread(connectionId, chatKey, update) {
			const _id = threadId(connectionId, chatKey);
			if ((await this.threads.update({ _id }, update)) === 1) return;
			const fresh: ThreadDoc = { _id, connection_id: connectionId, chat_key: chatKey, quiet_until: 0, cap_told: false, own_fingerprints: [], echoed_fingerprints: [], updated_at: Date.now() };
			await this.threads.insert(fresh).catch(() => undefined); // a simultaneous first write made it
			await this.threads.update({ _id }, update);
		}
	};

	return {
		name: "channels",
		mixins: [
			DurableJobMixin<ReplyJob>(config, {
				collection: "channel_reply_jobs",
				channel: REPLY_CHANNEL,
				group: "channels",
				maxInFlight: 8,
				leaseMs,
				staleMs: 60_000,
				maxAttempts: 4,
				// Answering (an LLM may take two minutes) plus sending with every retry and wait.
				maxRunMs: 6 * 60_000,
				// Finished jobs are kept so a delivery the provider repeats within two days is known.
				keepFinishedMs: 2 * 24 * 3600_000
			}) as ServiceSchema
		],

		settings: {
			handoffQuietSeconds: config.channels.handoffQuietSeconds,
			connectRetry: opts.connectRetry ?? CONNECT_RETRY
		},

		actions: {
			...ownerActions(config),
			...inboundActions,

			/** One reply job as stored (for operators in the REPL, and tests across processes); null when unknown. */
			job: {
				params: { job_id: "string|min:1|max:300" },
				async handler(this: ChannelsThis, ctx: { params: { job_id: string } }) {
					return (await this.jobs().findOne({ _id: ctx.params.job_id })) ?? null;
				}
			}
		},

		events: {
			/** A removed chatbot's channels go with it; Telegram is told to stop sending. */
			async "chatbot.removed"(this: ChannelsThis, ctx: { params: { id: string } }) {
				const connections = await this.connections.find({ chatbot_id: ctx.params.id });
				for (const connection of connections) {
					await this.forgetConnection(connection);
					if (connection.kind === "telegram") {
						await this.telegramOf(connection)
							.deleteWebhook()
							.catch(err => this.logger.warn(`deleteWebhook for removed chatbot ${ctx.params.id} failed:`, (err as Error).message));
					}
				}
			}
		},

		methods: methods as ChannelsMethods,

		created(this: ChannelsThis) {
			// Fails the start when no key can be had (MONGO_URI without CHANNELS_KEY): better than storing what no replica can open.
			this.box = createSecretBox(resolveChannelsKey({ configured: config.channels.key, dataDir: config.dataDir, sharedDocuments: config.mongoUri !== undefined }));
		},

		async started(this: ChannelsThis) {
			const connections = await openCollection<ConnectionDoc>(config, "channel_connections", this);
			const threads = await openCollection<ThreadDoc>(config, "channel_threads", this);
			this.connections = connections.collection;
			this.threads = threads.collection;
			this.closers = [connections.close, threads.close];
			this.purgeTimer = setInterval(() => {
				this.threads.remove({ updated_at: { $lte: Date.now() - THREAD_TTL_MS } }).catch(err => this.logger.warn("Purging old threads failed:", (err as Error).message));
			}, PURGE_EVERY_MS);
			this.purgeTimer.unref();
		},

		async stopped(this: ChannelsThis) {
			clearInterval(this.purgeTimer);
			for (const close of this.closers ?? []) await close();
		}
	};
}
