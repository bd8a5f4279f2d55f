/**
 * The channels service's instance, as its action and method files see it (`this`).
 */
import type { Context, Service, ServiceSettingSchema } from "moleculer";
import type { CrispApi } from "../../lib/channels/crisp-api";
import type { ConnectionDoc, CrispConnection, DecidedReply, ReplyJob, TelegramConnection, ThreadDoc } from "../../lib/channels/model";
import type { RetryPolicy } from "../../lib/channels/provider-call";
import type { SecretBox } from "../../lib/channels/secret-box";
import type { TelegramApi } from "../../lib/channels/telegram-api";
import type { JobDoc } from "../../lib/jobs/durable-job";
import type { DocumentCollection } from "../../mixins/db.mixin";
import type { DurableJobMethods, DurableJobWorker, JobRun } from "../../mixins/durable-job.mixin";

export interface ChannelsSettings extends ServiceSettingSchema {
	/** Seconds the bot stays quiet in a Crisp conversation a human operator wrote in. */
	handoffQuietSeconds: number;
	/** Retries of the calls a person waits for (connect, disconnect). */
	connectRetry: RetryPolicy;
}

export interface ChannelsVars {
	box: SecretBox;
	connections: DocumentCollection<ConnectionDoc>;
	threads: DocumentCollection<ThreadDoc>;
	closers: Array<() => Promise<void>>;
	purgeTimer?: NodeJS.Timeout;
}

/** The service's own methods (the durable-job mixin adds `DurableJobMethods`). */
export type ChannelsOwnMethods = DurableJobWorker<ReplyJob> & {
		/** The Bot API client for a token (in the clear only in memory, for the call). */
		telegramApi(token: string, policy: RetryPolicy): TelegramApi;
		/** The REST client of a Crisp connection. */
		crispApi(connection: CrispConnection, policy: RetryPolicy): CrispApi;
		/** Stores a new connection in place of the old one (or adds it). */
		putConnection(connection: ConnectionDoc): Promise<void>;
		/** Removes a connection and its threads. */
		forgetConnection(connection: ConnectionDoc): Promise<void>;
		/** Queues a reply job unless one with its key exists (a provider's retry). True when queued. */
		enqueueOnce(job: Omit<ReplyJob, keyof JobDoc | "reply" | "sent"> & { _id: string }): Promise<boolean>;
		thread(connectionId: string, chatKey: string): Promise<ThreadDoc | null>;
		/** Applies `update` to the thread, creating it first when it does not exist. */
		updateThread(connectionId: string, chatKey: string, update: Record<string, unknown>): Promise<void>;
		/** What to send for a message (decided once per job). */
		decideReply(job: ReplyJob): Promise<DecidedReply>;
		/** Sends the parts not yet accepted; records the outcome on the connection. */
		deliver(job: ReplyJob, connection: ConnectionDoc, reply: DecidedReply, run: JobRun): Promise<void>;
		recordFailure(connectionId: string, message: string): Promise<void>;
		telegramOf(connection: TelegramConnection): TelegramApi;
	};

export type ChannelsMethods = ChannelsOwnMethods & DurableJobMethods<ReplyJob>;
export type ChannelsThis = Service<ChannelsSettings> & ChannelsVars & ChannelsMethods;
export type P<T> = Context<T, Record<string, unknown>>;
