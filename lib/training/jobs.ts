/**
 * Training jobs as stored by the trainer: one document per run, beside its channel message (see
 * lib/jobs/durable-job.ts for the claim/lease rules shared with the other background workers).
 */
import type { JobDoc } from "../jobs/durable-job";

export interface TrainingJob extends JobDoc {
	chatbot_id: string;
	/** Index generation this run writes; larger than every earlier run's for the chatbot. */
	generation: number;
	/** The chatbot's sources_version when the run was requested. */
	sources_version: number;
	/** Chunks indexed (set when done). */
	chunks: number;
	/** Why the run failed (set when failed). */
	error: string | null;
}

/**
 * A generation for a new run: the clock in ms, but always above the chatbot's current and
 * in-progress generations, so generations only grow even if clocks of two nodes disagree.
 */
export function nextGeneration(now: number, current: number, inProgress: number | undefined): number {
	return Math.max(now, current + 1, (inProgress ?? 0) + 1);
}

/** Splits items into batches of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
	return out;
}
