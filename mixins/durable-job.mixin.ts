/**
 * DurableJobMixin: background work that survives crashes, written once for every worker service
 * (crawler, extractor, trainer). The service supplies the run step; the mixin owns the rest:
 *
 * - a job collection (one document per job, beside its channel message) and `enqueueJob`;
 * - the channel subscription: claim the job with one conditional update (a message delivered twice
 *   runs once), wait out a lease another live worker holds, heartbeat while the step runs (renew the
 *   lease and tell JetStream the message is still being worked on), stop the step at its deadline
 *   or when the node stops;
 * - give-up: a job claimed more than `maxAttempts` times (it keeps killing its worker, or keeps
 *   failing for reasons of ours) is handed to the service's `giveUpJob` and ended;
 * - `requeueStale`: the janitor's call that sends again the jobs whose message was lost or whose
 *   worker died, gives up on the hopeless ones and forgets finished ones;
 * - `sent_at`: set once a job's message is out, cleared when a worker releases the job, so a job
 *   whose process died between storing and sending it is sent by the next `enqueueJob` for it.
 *
 * The run step returns when the job is over (its outcome recorded, success or the job's own
 * failure). Throwing means "not done, for a reason that is ours" (a service did not answer): the
 * job keeps its document, its lease runs out and it is sent again. `JobHalt` ends the attempt
 * without counting against the job when the node is draining or stopping: the lease is released
 * and the job sent again as a new message (the old one is acknowledged, so a drain never uses up
 * JetStream deliveries), and another worker takes it over at once.
 *
 * An attempt that fails because a service it calls is down (503-like errors) is released without
 * counting and sent again a few seconds later, so outages elsewhere neither use up attempts nor
 * wait for the janitor.
 *
 * Dead letters: a job given up (attempts used up) is reported to its owner through `giveUpJob`,
 * marked failed, and published on the dead-letter channel `jobs.dead-letter` (a bounded JetStream
 * stream operators can read: `nats stream view chatbot-builder_jobs_dead-letter`). A message whose
 * handler keeps throwing (the job store does not answer) is moved there by @moleculer/channels
 * after its last delivery; its job document stays, and the janitor sends it again later.
 */
import type { Context, Service, ServiceSchema } from "moleculer";
import type { AppConfig } from "../config";
import { claimJob, FINAL_JOB_STATUSES, FinalJobStatus, isOutage, JobDoc, markSent, newJobFields, releasedFields, renewLease, requeueStaleJobs } from "../lib/jobs/durable-job";
import { processMetrics } from "../lib/ops/metrics";
import { ChannelSchema, sendToChannel } from "../services/channels";
import { createDbMixin, DocumentCollection } from "./db.mixin";

export interface DurableJobOptions<J extends JobDoc = JobDoc> {
	/** Name of the job collection (its file under DATA_DIR, or its MongoDB collection). */
	collection: string;
	/** Durable channel the jobs travel on, e.g. `trainer.jobs`. */
	channel: string;
	/** Consumer group: each job goes to one worker of the group. */
	group: string;
	/** Jobs one node runs at once. */
	maxInFlight: number;
	/** How long a claimed job stays a worker's without a heartbeat; also JetStream's ack wait. */
	leaseMs: number;
	/** A queued job nobody claimed for this long has lost its message. */
	staleMs: number;
	/** Claims after which a job is given up instead of run again. */
	maxAttempts: number;
	/** Longest one attempt may run before it is stopped and counted as failed (may depend on the job). */
	maxRunMs: number | ((job: J) => number);
	/** Keep finished jobs this long (for inspection); 0 removes them when they finish. */
	keepFinishedMs?: number;
}

/** Ends an attempt without blaming the job: the node is stopping, another worker takes over. */
export class JobHalt extends Error {
	constructor(why = "the node is stopping") {
		super(`job halted: ${why}`);
	}
}

/** Thrown into a run step whose deadline passed (`signal.reason`). */
export class JobDeadline extends Error {
	constructor(ms: number) {
		super(`the job did not finish within ${Math.round(ms / 1000)} s`);
	}
}

export interface JobRun {
	/** Aborted at the attempt's deadline (reason: JobDeadline) or when the node stops (reason: JobHalt). */
	signal: AbortSignal;
	/** Throws the signal's reason when the run should stop; call between steps. */
	checkpoint(): void;
}

/** What a worker service using the mixin provides. */
export type DurableJobWorker<J extends JobDoc> = {
	/** Runs one attempt of the job; see the file comment for what returning and throwing mean. */
	runJob(job: J, run: JobRun): Promise<void>;
	/** Records that the job is given up (after too many attempts, or a deadline on its last one). */
	giveUpJob(job: J, reason: string): Promise<void>;
};

/** Methods the mixin adds to the service. */
export type DurableJobMethods<J extends JobDoc> = {
	jobs(): DocumentCollection<J>;
	/** Stores the job unless one with its `_id` exists and is not final (then returns that one, `created: false`). */
	storeJob(job: Omit<J, keyof JobDoc> & { _id: string }): Promise<{ job: J; created: boolean }>;
	/** Sends a stored job on the channel. */
	sendJob(jobId: string): Promise<void>;
	/** `storeJob`, then `sendJob` when it stored a new job. Idempotent by `_id`: queuing twice runs once. */
	enqueueJob(job: Omit<J, keyof JobDoc> & { _id: string }): Promise<J>;
	/** Ends the job: removed, or kept with its final status when `keepFinishedMs` is set. */
	finishJob(job: J, status: FinalJobStatus, fields?: Partial<J>): Promise<void>;
};

type JobService<J extends JobDoc> = Service &
	DurableJobWorker<J> &
	DurableJobMethods<J> & {
		documents?: DocumentCollection<J>;
		/** Set by the drain: take no new job, hand running ones back. */
		draining?: boolean;
		/** Jobs handed back while stopping, sent again once this service no longer consumes. */
		handedBack?: Set<string>;
	};

/** Where given-up jobs and undeliverable job messages go, for operators to inspect. */
export const DEAD_LETTER_CHANNEL = "jobs.dead-letter";

/** Pause before a job that met a service outage is sent again (it then does not count as an attempt). */
const OUTAGE_RETRY_MS = 3_000;

/** Handler failures (the job store did not answer) redelivered this many times before the dead letter. */
const MAX_HANDLER_RETRIES = 5;

/** What a dead letter of a given-up job says. */
export interface DeadLetter {
	channel: string;
	job_id: string;
	attempts: number;
	reason: string;
	at: number;
}

const jobOutcomes = processMetrics.counter("jobs_finished_total", "Durable jobs ended by this process, by channel and outcome (done, failed, dead_letter).");
const jobHalts = processMetrics.counter("jobs_handed_back_total", "Job attempts handed back to another worker because this process was stopping.");

const delay = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** Tells JetStream the message is still being worked on (other adapters have no such call). */
function stillWorking(raw: unknown): void {
	const message = raw as { working?: () => void } | null;
	if (typeof message?.working === "function") message.working();
}

/** Channel options beyond the shared ChannelSchema: redelivery tuning for JetStream, dead letters. */
type JobChannel<TThis> = ChannelSchema<{ job_id: string }, TThis> & {
	maxRetries: number;
	deadLettering: { enabled: boolean; queueName: string };
	nats: { consumerOptions: { config: { ack_wait: number } } };
};

export function DurableJobMixin<J extends JobDoc>(config: Readonly<AppConfig>, opts: DurableJobOptions<J>): Partial<ServiceSchema> & { channels: Record<string, JobChannel<JobService<J>>> } {
	const heartbeatMs = Math.max(50, Math.floor(opts.leaseMs / 4));
	const keepFinishedMs = opts.keepFinishedMs ?? 0;

	/** Claims the job, waiting out a lease a live worker holds; null when the job is not ours to run. */
	async function claim(service: JobService<J>, jobId: string, raw: unknown): Promise<J | null> {
		const giveUpAt = Date.now() + opts.leaseMs + 1_000;
		for (;;) {
			const update = claimJob(jobId, Date.now(), opts.leaseMs);
			if ((await service.jobs().update(update.query, update.update)) === 1) return service.jobs().findOne({ _id: jobId });
			const job = await service.jobs().findOne({ _id: jobId });
			// Unknown or finished: a duplicate message. Held past our patience: its worker is alive.
			if (!job || job.status !== "running" || Date.now() > giveUpAt || stopping(service)) return null;
			stillWorking(raw);
			await delay(Math.min(500, Math.max(50, job.lease_until - Date.now() + 20)));
		}
	}

	/** The last attempt is over: the owner hears why, the job is failed, and a dead letter says so. */
	async function giveUp(service: JobService<J>, job: J, reason: string): Promise<void> {
		await service.giveUpJob(job, reason);
		await service.finishJob(job, "failed");
		jobOutcomes.inc({ channel: opts.channel, outcome: "dead_letter" });
		const letter: DeadLetter = { channel: opts.channel, job_id: job._id, attempts: job.attempts, reason, at: Date.now() };
		service.logger.warn(`Job ${job._id} (${opts.channel}) given up: ${reason}`);
		await sendToChannel(service.broker, DEAD_LETTER_CHANNEL, letter).catch(err =>
			service.logger.error(`Dead letter of job ${job._id} not published:`, (err as Error).message)
		);
	}

	async function handle(service: JobService<J>, jobId: string, raw: unknown): Promise<void> {
		if (stopping(service)) {
			// Not ours to start: sent again once this service has stopped consuming (see `stopped`).
			service.handedBack?.add(jobId);
			return;
		}
		const job = await claim(service, jobId, raw);
		if (!job) return;
		if (job.attempts > opts.maxAttempts) {
			await giveUp(service, job, `it did not finish after ${opts.maxAttempts} attempts`);
			return;
		}
		const controller = new AbortController();
		const maxRunMs = typeof opts.maxRunMs === "function" ? opts.maxRunMs(job) : opts.maxRunMs;
		const deadline = setTimeout(() => controller.abort(new JobDeadline(maxRunMs)), maxRunMs);
		const heartbeat = setInterval(() => {
			if (stopping(service)) controller.abort(new JobHalt());
			stillWorking(raw);
			const renew = renewLease(job._id, Date.now(), opts.leaseMs);
			service
				.jobs()
				.update(renew.query, renew.update)
				.catch(err => service.logger.warn(`Lease of job ${job._id} not renewed:`, (err as Error).message));
		}, heartbeatMs);
		const run: JobRun = {
			signal: controller.signal,
			checkpoint() {
				if (stopping(service)) controller.abort(new JobHalt());
				if (controller.signal.aborted) throw controller.signal.reason;
			}
		};
		try {
			await service.runJob(job, run);
			await service.finishJob(job, "done"); // unless the run step ended it otherwise
			jobOutcomes.inc({ channel: opts.channel, outcome: "done" });
		} catch (err) {
			const reason = controller.signal.aborted ? controller.signal.reason : err;
			if (reason instanceof JobHalt) {
				// Handed back untouched: the attempt does not count, and a new message (sent once this
				// service has stopped consuming) lets a live worker take it at once. This message is
				// acknowledged, so halts never use up JetStream deliveries.
				await service.jobs().update({ _id: job._id, status: "running" }, { $set: releasedFields(Date.now()), $inc: { attempts: -1 } });
				jobHalts.inc({ channel: opts.channel });
				service.handedBack?.add(job._id);
				return;
			}
			if (reason instanceof JobDeadline && job.attempts >= opts.maxAttempts) {
				await giveUp(service, job, reason.message);
				return;
			}
			if (isOutage(reason)) {
				// A service it needs is down or restarting: not the job's fault. Released, and sent again
				// shortly (the janitor re-sends it if this process dies before then).
				await service.jobs().update({ _id: job._id, status: "running" }, { $set: releasedFields(Date.now()), $inc: { attempts: -1 } });
				service.logger.warn(`Job ${job._id} (${opts.channel}) waits for a service:`, (reason as Error).message);
				setTimeout(() => {
					service.sendJob(job._id).catch(err => service.logger.warn(`Job ${job._id} not sent again (the janitor will):`, (err as Error).message));
				}, OUTAGE_RETRY_MS).unref();
				return;
			}
			// Ours to retry: the document stays, the lease runs out, and it is sent again.
			service.logger.warn(`Job ${job._id} (${opts.channel}) interrupted:`, (reason as Error)?.message ?? String(reason));
		} finally {
			clearTimeout(deadline);
			clearInterval(heartbeat);
		}
	}

	function stopping(service: JobService<J>): boolean {
		return service.broker.stopping || service.draining === true;
	}

	return {
		mixins: [createDbMixin(config, opts.collection) as ServiceSchema],
		created(this: Service) {
			(this as JobService<J>).handedBack = new Set();
		},
		/** Runs after the channel subscription is gone: the jobs handed back go to the other workers. */
		async stopped(this: Service) {
			const self = this as JobService<J>;
			for (const jobId of self.handedBack ?? []) {
				await self.sendJob(jobId).catch(err => self.logger.warn(`Job ${jobId} not sent again (the janitor will):`, (err as Error).message));
			}
			self.handedBack?.clear();
		},
		methods: {
			/** Called by the drain (services/ops/drain.ts): running attempts are handed back at the next heartbeat. */
			beginDrain(this: JobService<J>): Promise<void> {
				this.draining = true;
				return Promise.resolve();
			},

			jobs(this: JobService<J>) {
				return this.documents as DocumentCollection<J>;
			},

			async storeJob(this: JobService<J>, fields: Omit<J, keyof JobDoc> & { _id: string }): Promise<{ job: J; created: boolean }> {
				const existing = await this.jobs().findOne({ _id: fields._id });
				if (existing && !FINAL_JOB_STATUSES.includes(existing.status as FinalJobStatus)) return { job: existing, created: false };
				if (existing) await this.jobs().remove({ _id: fields._id, status: { $in: [...FINAL_JOB_STATUSES] } }); // a finished job of the same key: start afresh
				try {
					return { job: await this.jobs().insert({ ...fields, ...newJobFields(Date.now()) } as unknown as J), created: true };
				} catch (err) {
					// Two callers raced and the other inserted first; one job is all we need.
					const winner = await this.jobs().findOne({ _id: fields._id });
					if (!winner) throw err;
					return { job: winner, created: false };
				}
			},

			async sendJob(this: JobService<J>, jobId: string): Promise<void> {
				await sendToChannel(this.broker, opts.channel, { job_id: jobId });
				const sent = markSent(jobId, Date.now());
				await this.jobs().update(sent.query, sent.update);
			},

			async enqueueJob(this: JobService<J>, fields: Omit<J, keyof JobDoc> & { _id: string }): Promise<J> {
				const { job, created } = await this.storeJob(fields);
				// A job that already exists has its message, unless the process that stored it died before
				// sending it (or a worker released it and died): then asking again sends it. A lost message
				// is `requeueStale`'s to send again once the job is stale.
				if (created || (job.status === "queued" && !job.sent_at)) await this.sendJob(job._id);
				return job;
			},

			async finishJob(this: JobService<J>, job: J, status: FinalJobStatus, fields: Partial<J> = {}): Promise<void> {
				if (keepFinishedMs === 0) {
					await this.jobs().remove({ _id: job._id });
					return;
				}
				const now = Date.now();
				await this.jobs().update(
					{ _id: job._id, status: { $nin: [...FINAL_JOB_STATUSES] } },
					{ $set: { ...fields, status, finished_at: now, updated_at: now } }
				);
			}
		},

		actions: {
			/**
			 * Sends again the jobs whose message was lost (queued untouched for too long) or whose worker
			 * died (lease run out), gives up on those that used every attempt, and forgets old finished
			 * ones. `now` lets tests move the clock. Returns `{ requeued }`.
			 */
			requeueStale: {
				visibility: "public" as const,
				params: { now: "number" },
				async handler(ctx: Context<{ now: number }>) {
					const self = this as unknown as JobService<J>;
					const { now } = ctx.params;
					const requeued = await requeueStaleJobs(
						self.jobs(),
						now,
						opts.staleMs,
						job => self.sendJob(job._id),
						async job => {
							if (job.status !== "running" || job.attempts < opts.maxAttempts) return false;
							await giveUp(self, job, `it stopped ${job.attempts} times without finishing`);
							return true;
						}
					);
					if (keepFinishedMs > 0) await self.jobs().remove({ status: { $in: [...FINAL_JOB_STATUSES] }, updated_at: { $lte: now - keepFinishedMs } });
					return { requeued };
				}
			}
		},

		channels: {
			[opts.channel]: {
				group: opts.group,
				maxInFlight: opts.maxInFlight,
				maxRetries: MAX_HANDLER_RETRIES,
				deadLettering: { enabled: true, queueName: DEAD_LETTER_CHANNEL },
				// JetStream redelivers a message not acknowledged within ack_wait (nanoseconds); the
				// heartbeat keeps extending it, so only a dead worker's job comes back.
				nats: { consumerOptions: { config: { ack_wait: opts.leaseMs * 1_000_000 } } },
				async handler(payload, raw) {
					await handle(this, payload.job_id, raw);
				}
			}
		}
	};
}
