/**
 * trainer: turns a chatbot's ready sources into a searchable index, in the background.
 *
 * `start` (asked by the chatbots service, which decides when a chatbot trains) checks there is
 * trainable text, stores a job with a new (larger) index generation, reports the run to the
 * chatbots service (`trainingStarted`) and sends the job; it answers at once. A worker (the durable
 * job machinery of mixins/durable-job.mixin.ts) runs it: re-reads the sources, chunks and
 * vectorises them, writes the chunks into the new generation through the vectors service, and
 * reports `trainingFinished`: the chatbots service then names the new generation as the one its
 * searches use, if the run is still the chatbot's. Until then the chatbot keeps answering from its
 * previous generation, so retraining is atomic, with any number of trainer replicas.
 *
 * Runs are at least once and idempotent: chunk ids are deterministic, so a re-run overwrites what a
 * crashed run wrote; a run whose chatbot has since started another is skipped (`superseded`).
 *
 * Emits `chatbot.trained` ({chatbot_id, job_id, generation, chunks}) when a run made its chatbot answer from it.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { embedder } from "../lib/ai/openai-compatible";
import type { Chatbot, Source } from "../lib/chatbots/model";
import { newId } from "../lib/chatbots/ids";
import { appError } from "../lib/errors";
import { chunkSourcesInWorker } from "../lib/retrieval/chunk-in-worker";
import { vectorizeChunks } from "../lib/retrieval/vectorize";
import { batches, nextGeneration, TrainingJob } from "../lib/training/jobs";
import { chunkSourcesOf } from "../lib/training/sources";
import { DurableJobMethods, DurableJobMixin, DurableJobWorker, JobRun } from "../mixins/durable-job.mixin";
import { call } from "./call";
import type { P } from "./chatbots/types";

export const TRAINING_CHANNEL = "trainer.jobs";

/** Chunks per `vectors.upsert` call: keeps each bus message well under a megabyte. */
const UPSERT_BATCH = 200;

interface TrainingInput {
	chatbot: Chatbot;
	sources: Source[];
}

type TrainerMethods = DurableJobWorker<TrainingJob> & {
	currentInput(job: TrainingJob): Promise<TrainingInput | null>;
	index(job: TrainingJob, input: TrainingInput, run: JobRun): Promise<number>;
	switchOver(job: TrainingJob, chunks: number): Promise<void>;
	completeSwitch(job: TrainingJob, chunks: number): Promise<void>;
};


const errorType = (err: unknown): string | undefined => (err as { type?: string } | null)?.type;

export default function createTrainerService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, TrainerMethods & DurableJobMethods<TrainingJob>> {
	const embed = config.embeddings ? embedder(config.embeddings) : undefined;

	return {
		name: "trainer",
		mixins: [
			DurableJobMixin<TrainingJob>(config, {
				collection: "training_jobs",
				channel: TRAINING_CHANNEL,
				group: "trainer",
				maxInFlight: 2,
				leaseMs: 10_000,
				staleMs: 2 * 60_000,
				maxAttempts: 3,
				maxRunMs: 30 * 60_000,
				// Finished runs are kept a week, for operators and the chatbots service's lost-run check.
				keepFinishedMs: 7 * 24 * 3600_000
			}) as ServiceSchema
		],

		actions: {
			/**
			 * Starts a training run and answers at once: `{ started, job_id, generation }`. With
			 * `supersede` the run replaces one in progress; without, a run in progress stays and this one
			 * is not started (`started: false`). Throws `empty` (422, nothing written) when no source has
			 * readable text, `expired` (404) for a chatbot that is gone.
			 */
			start: {
				params: { chatbot_id: "string|min:1", supersede: { type: "boolean", optional: true, default: true } },
				async handler(ctx: P<{ chatbot_id: string; supersede: boolean }>) {
					const { chatbot, sources } = await call<TrainingInput>(ctx, "chatbots.trainingInput", { id: ctx.params.chatbot_id });
					if (chunkSourcesOf(sources, chatbot.locale).length === 0) {
						throw appError("empty", "No source has readable text to train on yet: add a page, a text or a file (a file must finish extracting first).");
					}
					const { job } = await this.storeJob({
						_id: newId(),
						chatbot_id: chatbot._id,
						generation: nextGeneration(Date.now(), chatbot.generation, chatbot.training?.generation),
						sources_version: chatbot.sources_version,
						chunks: 0,
						error: null
					});
					try {
						await call(ctx, "chatbots.trainingStarted", { id: chatbot._id, job_id: job._id, generation: job.generation, sources_version: job.sources_version, supersede: ctx.params.supersede });
					} catch (err) {
						await this.finishJob(job, errorType(err) === "conflict" ? "superseded" : "failed", { error: (err as Error).message });
						if (errorType(err) === "conflict") return { started: false, job_id: chatbot.training?.job_id ?? null, generation: chatbot.training?.generation ?? null };
						throw err;
					}
					try {
						await this.sendJob(job._id);
					} catch (err) {
						// The job is stored and queued: requeueStale sends it again once the channel is back.
						this.logger.warn(`Training job ${job._id} stored but not sent:`, (err as Error).message);
					}
					return { started: true, job_id: job._id, generation: job.generation };
				}
			},

			/** A job's record, or null (the chatbots service checks runs it has waited on for long). */
			job: {
				params: { job_id: "string|min:1" },
				async handler(ctx: P<{ job_id: string }>) {
					return (await this.jobs().findOne({ _id: ctx.params.job_id })) ?? null;
				}
			}
		},

		methods: {
			/** The whole run: read, index into the job's generation, switch over. */
			async runJob(job, run) {
				const input = await this.currentInput(job);
				if (!input) return;
				const chunks = await this.index(job, input, run);
				run.checkpoint();
				await this.switchOver(job, chunks);
			},

			async giveUpJob(job, reason) {
				this.logger.warn(`Training job ${job._id} of chatbot ${job.chatbot_id} given up: ${reason}`);
				await this.finishJob(job, "failed", { error: `The run was given up: ${reason}.` });
				await this.broker.call("chatbots.trainingFinished", { id: job.chatbot_id, job_id: job._id, outcome: "failed", error: `The run was given up: ${reason}.` });
				await this.broker
					.call("vectors.deleteGeneration", { chatbot_id: job.chatbot_id, generation: job.generation })
					.catch(e => this.logger.warn(`Generation ${job.generation} of ${job.chatbot_id} not removed:`, (e as Error).message));
			},

			/** The sources to index, or null when the run has nothing left to do (chatbot gone, or another run started). */
			async currentInput(job) {
				let input: TrainingInput;
				try {
					input = await this.broker.call<TrainingInput, object>("chatbots.trainingInput", { id: job.chatbot_id });
				} catch (err) {
					if (errorType(err) !== "expired") throw err;
					await this.finishJob(job, "failed", { error: "The chatbot no longer exists." });
					return null;
				}
				if (input.chatbot.training?.job_id !== job._id) {
					await this.finishJob(job, "superseded");
					return null;
				}
				return input;
			},

			/** Chunks and vectorises the sources and writes them into the job's generation (not searched yet); returns the chunk count. */
			async index(job, input, run) {
				const locale = input.chatbot.locale;
				const chunks = await chunkSourcesInWorker(chunkSourcesOf(input.sources, locale));
				if (chunks.length === 0) {
					// The job's own failure, not ours: recorded, never retried.
					const error = "No source has readable text to train on.";
					await this.finishJob(job, "failed", { error });
					await this.broker.call("chatbots.trainingFinished", { id: job.chatbot_id, job_id: job._id, outcome: "failed", error });
					return 0;
				}
				const items = await vectorizeChunks(chunks, { locale, embed });
				for (const batch of batches(items, UPSERT_BATCH)) {
					run.checkpoint();
					await this.broker.call("vectors.upsert", { chatbot_id: job.chatbot_id, generation: job.generation, items: batch });
				}
				return chunks.length;
			},

			/**
			 * Makes the job's generation the one that answers. The index's pointer moves first (it never
			 * moves back to an older generation), then the chatbots service decides: its record names the
			 * generation only if this run is still the chatbot's, and searches ask for the generation the
			 * record names, so the decision holds across any number of replicas. A run another one replaced
			 * removes what it wrote.
			 */
			async switchOver(job, chunks) {
				if (chunks === 0) return;
				await this.broker.call("vectors.activate", { chatbot_id: job.chatbot_id, generation: job.generation });
				const finished = await this.broker.call<{ updated: boolean }, object>("chatbots.trainingFinished", { id: job.chatbot_id, job_id: job._id, outcome: "done" });
				if (!finished.updated) {
					await this.finishJob(job, "superseded");
					await this.broker.call("vectors.deleteGeneration", { chatbot_id: job.chatbot_id, generation: job.generation });
					return;
				}
				await this.completeSwitch(job, chunks);
			},

			/** The run is done: older generations (and leftovers of crashed runs) go. */
			async completeSwitch(job, chunks) {
				await this.finishJob(job, "done", { chunks });
				this.broker.emit("chatbot.trained", { chatbot_id: job.chatbot_id, job_id: job._id, generation: job.generation, chunks });
				// A newer run may already be writing its own generation, which stays.
				await this.broker.call("vectors.prune", { chatbot_id: job.chatbot_id, older_than: job.generation });
			}
		}
	};
}
