/**
 * Durable background jobs: a document per job beside its channel message.
 *
 * The channel (@moleculer/channels) delivers the work; the document makes it survive what the
 * channel may lose. A worker claims a job with one conditional update before doing anything, so a
 * message delivered twice (a redelivery, a re-queue racing the original) runs once. While it works,
 * the worker holds a lease; a worker that dies leaves the lease to run out, and the janitor's
 * `requeueStale` sends the job again (mixins/durable-job.mixin.ts runs these rules for every worker
 * service). Every query here is a Mongo-style document that NeDB and
 * MongoDB both run.
 */

/** Final statuses end a job: a redelivered message for it does nothing. */
export const FINAL_JOB_STATUSES = ["done", "failed", "superseded"] as const;
export type FinalJobStatus = (typeof FINAL_JOB_STATUSES)[number];
export type JobStatus = "queued" | "running" | FinalJobStatus;

export interface JobDoc {
	_id: string;
	status: JobStatus;
	/** Claims so far; a job that keeps killing its worker is given up after a few. */
	attempts: number;
	/** While running: the time after which another worker may take the job over. */
	lease_until: number;
	created_at: number;
	updated_at: number;
	/** When it reached a final status (jobs kept after they finish). */
	finished_at?: number | null;
	/**
	 * When its message was last sent; null while it has none: stored but not yet sent (its process
	 * may have died between the two), or released by a worker to be sent again.
	 */
	sent_at?: number | null;
}

export interface JobUpdate {
	query: Record<string, unknown>;
	update: Record<string, unknown>;
}

/** The fields of a new job, queued now. */
export function newJobFields(now: number): Omit<JobDoc, "_id"> {
	return { status: "queued", attempts: 0, lease_until: 0, created_at: now, updated_at: now, finished_at: null, sent_at: null };
}

/**
 * Records that a queued job's message went out. It also marks the job fresh: a job sent again by
 * the janitor waits out the stale time anew, with one write per send.
 */
export function markSent(id: string, now: number): JobUpdate {
	return { query: { _id: id, status: "queued" }, update: { $set: { sent_at: now, updated_at: now } } };
}

/** Fields that put a running job back in the queue without its attempt counting, to be sent again. */
export function releasedFields(now: number): Record<string, unknown> {
	return { status: "queued", lease_until: 0, updated_at: now, sent_at: null };
}

/**
 * A queued job with no message this long was stored by a process that died before sending it:
 * the janitor sends it then rather than after `staleMs` (long enough for a send under way to finish).
 */
export const UNSENT_GRACE_MS = 30_000;

/** Takes a job for one worker: it matches only while the job is queued or its lease has run out. */
export function claimJob(id: string, now: number, leaseMs: number): JobUpdate {
	return {
		query: { _id: id, $or: [{ status: "queued" }, { status: "running", lease_until: { $lte: now } }] },
		update: { $set: { status: "running", lease_until: now + leaseMs, updated_at: now }, $inc: { attempts: 1 } }
	};
}

/** Keeps a running job's lease alive while its worker makes progress. */
export function renewLease(id: string, now: number, leaseMs: number): JobUpdate {
	return { query: { _id: id, status: "running" }, update: { $set: { lease_until: now + leaseMs, updated_at: now } } };
}

/**
 * Jobs whose message was probably lost: queued and untouched for `staleMs` (the message never
 * arrived, or its worker died before claiming it), queued with no message sent for
 * `UNSENT_GRACE_MS`, or running past their lease (the worker died).
 */
export function staleJobsQuery(now: number, staleMs: number): Record<string, unknown> {
	return {
		$or: [
			{ status: "queued", updated_at: { $lte: now - staleMs } },
			{ status: "queued", sent_at: null, updated_at: { $lte: now - Math.min(staleMs, UNSENT_GRACE_MS) } },
			{ status: "running", lease_until: { $lte: now } }
		]
	};
}

/** The part of a job collection `requeueStaleJobs` needs. */
export interface JobCollection<J extends { _id: string }> {
	find(query: object): Promise<J[]>;
}

/**
 * Sends every stale job again (see `staleJobsQuery`) and returns how many were sent. `resend`
 * sends the message and records it (`markSent`, with the real time, so the job is fresh again
 * whatever clock the sweep was given). `giveUp`, when it answers true for a job, means the caller
 * has ended that job instead (for example one that keeps killing its worker), so it is not sent.
 * A job that cannot be sent does not hold back the others: the first such error is thrown once
 * every job has been tried, and that job stays stale for the next sweep.
 */
export async function requeueStaleJobs<J extends { _id: string }>(
	jobs: JobCollection<J>,
	now: number,
	staleMs: number,
	resend: (job: J) => Promise<void>,
	giveUp: (job: J) => Promise<boolean> = async () => false
): Promise<number> {
	let requeued = 0;
	let firstError: unknown;
	for (const job of await jobs.find(staleJobsQuery(now, staleMs))) {
		if (await giveUp(job)) continue;
		try {
			await resend(job);
			requeued++;
		} catch (err) {
			firstError ??= err;
		}
	}
	if (firstError !== undefined) throw firstError;
	return requeued;
}

/** Moleculer error types meaning "the service this job needs is not there right now" (not the job's fault). */
const OUTAGE_TYPES = new Set(["SERVICE_NOT_AVAILABLE", "SERVICE_NOT_FOUND", "REQUEST_REJECTED"]);

/** True when an attempt ended because a service it called was down: retried soon, without counting. */
export function isOutage(err: unknown): boolean {
	const type = (err as { type?: unknown } | null)?.type;
	return typeof type === "string" && OUTAGE_TYPES.has(type);
}
