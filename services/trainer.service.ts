/**
 * trainer: turns a chatbot's ready sources into a searchable index, in the background.
 *
 * `start` checks there is trainable text, stores a job with a new (larger) index generation, marks
 * the chatbot `training` and sends the job on a durable channel; it answers at once. A worker claims
 * the job (one conditional update, so a duplicate message runs nothing), re-reads the sources,
 * chunks and vectorises them, writes the chunks into the new generation through the vectors service,
 * switches searches to it (`activate`) and only then marks the chatbot `ready`. Until that switch
 * the chatbot keeps answering from its previous generation, so retraining is atomic.
 *
 * Runs are at least once and idempotent: chunk ids are deterministic, so a re-run overwrites what a
 * crashed run wrote; a run whose chatbot has since started a newer run is skipped (`superseded`);
 * a finished or failed run is never redone. While it works, a worker renews its job's lease and
 * tells JetStream it is still working; a worker that dies stops both, so JetStream redelivers the
 * message after ACK_WAIT (another trainer takes it over once the lease has run out), and the
 * janitor's `requeueStale` re-sends anything the channel lost.
 *
 * Emits `chatbot.trained` ({chatbot_id, job_id, generation, chunks}) when a run has made its chatbot `ready`.
 */
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { embedder } from "../lib/ai/openai-compatible";
import type { Chatbot, Source } from "../lib/chatbots/model";
import { newId } from "../lib/chatbots/ids";
import { appError } from "../lib/errors";
import { claimJob, markRequeued, newJobFields, renewLease, staleJobsQuery } from "../lib/jobs/durable-job";
import { chunkSources } from "../lib/retrieval/chunker";
import { vectorizeChunks } from "../lib/retrieval/vectorize";
import { batches, FINAL_STATUSES, nextGeneration, TrainingJob } from "../lib/training/jobs";
import { chunkSourcesOf } from "../lib/training/sources";
import { createDbMixin, DocumentCollection } from "../mixins/db.mixin";
import { call } from "./call";
import { ChannelSchema, sendToChannel } from "./channels";

export const TRAINING_CHANNEL = "trainer.jobs";

/** How long a claimed job is a worker's without a sign of life; also JetStream's ack wait. */
const LEASE_MS = 10_000;
/** How often a working worker renews its lease and tells JetStream it is alive. */
const HEARTBEAT_MS = 2_500;
/** A queued job nobody claimed for this long lost its message. */
const STALE_MS = 2 * 60_000;
/** A run that killed its worker this many times is failed instead of retried again. */
const MAX_ATTEMPTS = 3;
/** Chunks per `vectors.upsert` call: keeps each bus message well under a megabyte. */
const UPSERT_BATCH = 200;
/** Finished job records are kept this long (for inspection), then removed by `requeueStale`. */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;

interface TrainingInput {
	chatbot: Chatbot;
	sources: Source[];
}

interface JobMessage {
	job_id: string;
}

/** Channel options beyond the shared ChannelSchema: redelivery tuning for JetStream. */
type TrainerChannel<TThis> = ChannelSchema<JobMessage, TThis> & {
	maxRetries: number;
	nats: { consumerOptions: { config: { ack_wait: number } } };
};

interface Vars {
	documents?: DocumentCollection<TrainingJob>;
}

interface Methods {
	jobs(): DocumentCollection<TrainingJob>;
	runJob(jobId: string, raw: unknown): Promise<void>;
	claim(jobId: string, raw: unknown): Promise<TrainingJob | null>;
	train(job: TrainingJob): Promise<void>;
	currentInput(job: TrainingJob): Promise<TrainingInput | null>;
	index(job: TrainingJob, input: TrainingInput): Promise<number>;
	switchOver(job: TrainingJob, chunks: number): Promise<void>;
	finish(job: TrainingJob, status: "done" | "failed" | "superseded", fields?: Partial<TrainingJob>): Promise<void>;
	fail(job: TrainingJob, err: unknown): Promise<void>;
	isCurrent(job: TrainingJob, chatbot: Chatbot): boolean;
}

type Self = Service<ServiceSettingSchema> & Vars & Methods;
type C<P> = Context<P, Record<string, unknown>>;

/** Tells JetStream the message is still being worked on (other adapters have no such call). */
function stillWorking(raw: unknown): void {
	const message = raw as { working?: () => void } | null;
	if (typeof message?.working === "function") message.working();
}

const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

export default function createTrainerService(
	config: Readonly<AppConfig>
): ServiceSchema<ServiceSettingSchema, Methods, Vars> & { channels: Record<string, TrainerChannel<Self>> } {
	const embed = config.embeddings ? embedder(config.embeddings) : undefined;
	return {
		name: "trainer",
		mixins: [createDbMixin(config, "training_jobs") as ServiceSchema],

		actions: {
			/**
			 * Starts a training run and answers at once: `{ job_id, generation, status: "training" }`.
			 * Throws `empty` (422, nothing written) when no source has readable text, `expired` (404)
			 * for a chatbot that is gone.
			 */
			start: {
				params: { chatbot_id: "string|min:1" },
				async handler(ctx: C<{ chatbot_id: string }>) {
					const { chatbot, sources } = await call<TrainingInput>(ctx, "chatbots.trainingInput", { id: ctx.params.chatbot_id });
					if (chunkSourcesOf(sources, chatbot.locale).length === 0) {
						throw appError("empty", "No source has readable text to train on yet: add a page, a text or a file (a file must finish extracting first).");
					}
					const now = Date.now();
					const job: TrainingJob = {
						_id: newId(),
						chatbot_id: chatbot._id,
						generation: nextGeneration(now, chatbot.generation, chatbot.training?.generation),
						sources_version: chatbot.sources_version,
						chunks: 0,
						error: null,
						finished_at: null,
						...newJobFields(now)
					};
					await this.jobs().insert(job);
					try {
						await call(ctx, "chatbots.startTraining", { id: chatbot._id, job_id: job._id, generation: job.generation, sources_version: job.sources_version });
					} catch (err) {
						await this.finish(job, "failed", { error: (err as Error).message });
						throw err;
					}
					try {
						await sendToChannel(this.broker, TRAINING_CHANNEL, { job_id: job._id });
					} catch (err) {
						// The job is stored and queued: requeueStale sends it again once the channel is back.
						this.logger.warn(`Training job ${job._id} stored but not sent:`, (err as Error).message);
					}
					return { job_id: job._id, generation: job.generation, status: "training" as const };
				}
			},

			/** A job's record (for operators and tests), or null. */
			job: {
				params: { job_id: "string|min:1" },
				async handler(ctx: C<{ job_id: string }>) {
					return (await this.jobs().findOne({ _id: ctx.params.job_id })) ?? null;
				}
			},

			/**
			 * Re-sends jobs whose message was lost (queued too long) or whose worker died (lease run
			 * out), fails jobs that keep killing their worker, and forgets old finished jobs.
			 */
			requeueStale: {
				visibility: "public",
				params: { now: "number" },
				async handler(ctx: C<{ now: number }>) {
					const { now } = ctx.params;
					let requeued = 0;
					for (const job of await this.jobs().find(staleJobsQuery(now, STALE_MS))) {
						if (job.status === "running" && job.attempts >= MAX_ATTEMPTS) {
							await this.fail(job, new Error(`The run stopped ${job.attempts} times without finishing.`));
							continue;
						}
						const mark = markRequeued(job._id, Date.now());
						await this.jobs().update(mark.query, mark.update);
						await sendToChannel(this.broker, TRAINING_CHANNEL, { job_id: job._id });
						requeued++;
					}
					await this.jobs().remove({ status: { $in: [...FINAL_STATUSES] }, updated_at: { $lte: now - KEEP_FINISHED_MS } });
					return { requeued };
				}
			}
		},

		channels: {
			[TRAINING_CHANNEL]: {
				group: "trainer",
				maxInFlight: 2,
				maxRetries: 3,
				// JetStream redelivers a message not acknowledged within ack_wait (nanoseconds); the
				// worker's heartbeat keeps extending it, so only a dead worker's job comes back.
				nats: { consumerOptions: { config: { ack_wait: LEASE_MS * 1_000_000 } } },
				async handler(payload, raw) {
					try {
						await this.runJob(payload.job_id, raw);
					} catch (err) {
						// Recording the outcome failed (a service did not answer): the lease runs out and the job is re-sent.
						this.logger.warn(`Training job ${payload.job_id} interrupted:`, (err as Error).message);
					}
				}
			}
		},

		methods: {
			jobs() {
				return this.documents as DocumentCollection<TrainingJob>;
			},

			async runJob(jobId, raw) {
				const job = await this.claim(jobId, raw);
				if (!job) return;
				const heartbeat = setInterval(() => {
					stillWorking(raw);
					const renew = renewLease(job._id, Date.now(), LEASE_MS);
					this.jobs()
						.update(renew.query, renew.update)
						.catch(err => this.logger.warn(`Lease of training job ${job._id} not renewed:`, (err as Error).message));
				}, HEARTBEAT_MS);
				try {
					await this.train(job);
				} catch (err) {
					await this.fail(job, err);
				} finally {
					clearInterval(heartbeat);
				}
			},

			/**
			 * Takes the job for this worker. A job another worker holds is waited for while its lease
			 * lasts (a redelivery after a crash can arrive just before the dead worker's lease ends);
			 * a final or unknown job returns null.
			 */
			async claim(jobId, raw) {
				const giveUpAt = Date.now() + 2 * LEASE_MS;
				for (;;) {
					const claim = claimJob(jobId, Date.now(), LEASE_MS);
					if ((await this.jobs().update(claim.query, claim.update)) === 1) return this.jobs().findOne({ _id: jobId });
					const job = await this.jobs().findOne({ _id: jobId });
					if (!job || job.status !== "running" || Date.now() > giveUpAt) return null;
					stillWorking(raw);
					await delay(Math.min(500, Math.max(50, job.lease_until - Date.now() + 20)));
				}
			},

			isCurrent(job, chatbot) {
				return chatbot.training?.job_id === job._id;
			},

			/** The whole run: read, index into the job's generation, switch over. */
			async train(job) {
				if (job.attempts > MAX_ATTEMPTS) throw new Error(`The run stopped ${job.attempts - 1} times without finishing.`);
				const input = await this.currentInput(job);
				if (!input) return;
				const chunks = await this.index(job, input);
				await this.switchOver(job, chunks);
			},

			/** The sources to index, or null when the run has nothing left to do (chatbot gone, or a newer run started). */
			async currentInput(job) {
				let input: TrainingInput;
				try {
					input = await this.broker.call<TrainingInput, object>("chatbots.trainingInput", { id: job.chatbot_id });
				} catch (err) {
					if ((err as { type?: string }).type !== "expired") throw err;
					await this.finish(job, "failed", { error: "The chatbot no longer exists." });
					return null;
				}
				if (!this.isCurrent(job, input.chatbot)) {
					await this.finish(job, "superseded");
					return null;
				}
				return input;
			},

			/** Chunks and vectorises the sources and writes them into the job's generation (not searched yet); returns the chunk count. */
			async index(job, input) {
				const locale = input.chatbot.locale;
				const chunks = chunkSources(chunkSourcesOf(input.sources, locale));
				if (chunks.length === 0) throw appError("empty", "No source has readable text to train on.");
				const items = await vectorizeChunks(chunks, { locale, embed });
				for (const batch of batches(items, UPSERT_BATCH)) {
					await this.broker.call("vectors.upsert", { chatbot_id: job.chatbot_id, generation: job.generation, items: batch });
				}
				return chunks.length;
			},

			/** Makes the job's generation the one that answers, unless a newer run took over meanwhile. */
			async switchOver(job, chunks) {
				const { chatbot } = await this.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: job.chatbot_id, with_sources: false });
				const activation = this.isCurrent(job, chatbot)
					? await this.broker.call<{ activated: boolean }, object>("vectors.activate", { chatbot_id: job.chatbot_id, generation: job.generation })
					: { activated: false };
				if (!activation.activated) {
					await this.finish(job, "superseded");
					await this.broker.call("vectors.deleteGeneration", { chatbot_id: job.chatbot_id, generation: job.generation });
					return;
				}
				await this.broker.call("chatbots.finishTraining", { id: job.chatbot_id, job_id: job._id });
				await this.finish(job, "done", { chunks });
				this.broker.emit("chatbot.trained", { chatbot_id: job.chatbot_id, job_id: job._id, generation: job.generation, chunks });
				// Earlier generations (and leftovers of crashed runs) are no longer searched.
				await this.broker.call("vectors.prune", { chatbot_id: job.chatbot_id });
			},

			async finish(job, status, fields = {}) {
				const now = Date.now();
				await this.jobs().update(
					{ _id: job._id, status: { $nin: [...FINAL_STATUSES] } },
					{ $set: { ...fields, status, finished_at: now, updated_at: now } }
				);
			},

			/** Records the failure; the chatbot goes back to answering from its previous index, if any. */
			async fail(job, err) {
				const message = (err as Error)?.message ?? String(err);
				this.logger.warn(`Training job ${job._id} of chatbot ${job.chatbot_id} failed:`, message);
				await this.finish(job, "failed", { error: message });
				await this.broker.call("chatbots.failTraining", { id: job.chatbot_id, job_id: job._id });
				await this.broker
					.call("vectors.deleteGeneration", { chatbot_id: job.chatbot_id, generation: job.generation })
					.catch(e => this.logger.warn(`Generation ${job.generation} of ${job.chatbot_id} not removed:`, (e as Error).message));
			}
		}
	};
}
