/**
 * A chatbot's lifecycle, as the chatbots service runs it: workers report facts (a crawl made
 * progress or ended, a source was extracted, a training run finished) and `nextStep` decides what
 * follows from the stored state alone. Because the decision reads only data, the same function
 * serves the moment a fact arrives and the sweep that catches up after an outage (a crawler or a
 * trainer that was not running, a message lost with its node).
 *
 * The updates here are Mongo-style documents that NeDB and MongoDB both run; each transition that
 * could race is conditional on the state it moves from.
 */
import { notExpired } from "./gates";
import { type Chatbot, type CrawlCounts, type CrawlFailure, type CrawlState, MAX_KEPT_CRAWL_FAILURES, type TrainingRun } from "./model";
import { crawlUnderway, overCharLimit, trainingWanted } from "./status";

export type NextStep =
	/** A site crawl waits for a crawler: hand it over (the crawler queues it once, by chatbot id). */
	| { kind: "crawl" }
	/** Training was asked for and nothing stands in the way: start a run. */
	| { kind: "train" }
	| { kind: "none" };

export interface StepFacts {
	now: number;
	/** Sources of the chatbot still waiting for their text (files being extracted). */
	sourcesInProgress: number;
}

export function nextStep(chatbot: Chatbot, facts: StepFacts): NextStep {
	if (chatbot.expires_at !== null && chatbot.expires_at <= facts.now) return { kind: "none" };
	if (chatbot.crawl.status === "queued") return { kind: "crawl" };
	// One thing at a time: a run started now would miss the pages still coming, or race the running one.
	if (crawlUnderway(chatbot) || chatbot.training !== null) return { kind: "none" };
	// Over a smaller plan's character limit: answering goes on from the last index, training waits.
	if (overCharLimit(chatbot)) return { kind: "none" };
	if (trainingWanted(chatbot) && chatbot.counts.chars > 0 && facts.sourcesInProgress === 0) return { kind: "train" };
	return { kind: "none" };
}

export interface Transition {
	query: Record<string, unknown>;
	update: Record<string, unknown>;
}

/** No crawl: a chatbot built from text, files or Q&A pairs. */
export function noCrawl(now: number): CrawlState {
	return { status: "idle", start_url: null, max_pages: 0, then_train: false, found: 0, crawled: 0, failed: 0, updated_at: now };
}

/** A site crawl waiting for a crawler. */
export function queuedCrawl(startUrl: string, maxPages: number, thenTrain: boolean, now: number): CrawlState {
	return { status: "queued", start_url: startUrl, max_pages: maxPages, then_train: thenTrain, found: 0, crawled: 0, failed: 0, updated_at: now };
}

/** Asks for training up to `version` (the sources_version the caller has seen). */
export function requestTraining(id: string, version: number, now: number): Transition {
	return { query: { _id: id }, update: withTrainingRequest({ $set: { updated_at: now } }, version) };
}

/**
 * The same update, also asking for training up to `version`: a change that should be trained (a
 * crawl's end, a source added with `train`) and its request are one write, so no reader ever sees
 * the change with nothing under way in between (which the public status reports as `failed`).
 */
export function withTrainingRequest(update: Record<string, unknown>, version: number): Record<string, unknown> {
	const set = (update.$set ?? {}) as Record<string, unknown>;
	const max = (update.$max ?? {}) as Record<string, unknown>;
	return { ...update, $set: { ...set, train_pending: true }, $max: { ...max, train_target: version } };
}

/** The crawler took the crawl, or counted more pages. */
export function crawlProgressed(id: string, counts: CrawlCounts, now: number, failure?: CrawlFailure): Transition {
	const update: Record<string, unknown> = {
		$set: { "crawl.status": "crawling", "crawl.found": counts.found, "crawl.crawled": counts.crawled, "crawl.failed": counts.failed, "crawl.updated_at": now, updated_at: now }
	};
	// The first failures are kept with their reason (for the page that follows the crawl); the count covers the rest.
	if (failure && counts.failed <= MAX_KEPT_CRAWL_FAILURES) update.$push = { "crawl.failures": { url: failure.url.slice(0, 2048), reason: failure.reason.slice(0, 300) } };
	return { query: { _id: id, "crawl.status": { $in: ["queued", "crawling"] } }, update };
}

/**
 * The crawl is over: `done` when it read at least one page, else `failed`. A crawl that asked for
 * training (`then_train`) asks for it up to `sourcesVersion` in the same write.
 */
export function crawlEnded(id: string, counts: CrawlCounts, now: number, sourcesVersion: number | null): Transition {
	const update = {
		$set: {
			"crawl.status": counts.crawled > 0 ? "done" : "failed",
			"crawl.found": counts.found,
			"crawl.crawled": counts.crawled,
			"crawl.failed": counts.failed,
			"crawl.updated_at": now,
			updated_at: now
		}
	};
	return { query: { _id: id, "crawl.status": { $in: ["queued", "crawling"] } }, update: sourcesVersion === null ? update : withTrainingRequest(update, sourcesVersion) };
}

/**
 * Records a run as the chatbot's current one. An automatic run starts only when none is running;
 * an explicit train call (`supersede`) replaces a running one, whose work is then skipped.
 */
export function runStarted(id: string, run: TrainingRun, supersede: boolean, now: number): Transition {
	return {
		query: { _id: id, ...notExpired(now), ...(supersede ? {} : { training: null }) },
		update: { $set: { training: run, updated_at: now } }
	};
}

/** The request is answered by a run that indexes `version` or later (unless a newer request came in). */
export function requestCovered(id: string, version: number, now: number): Transition {
	return { query: { _id: id, train_pending: true, train_target: { $lte: version } }, update: { $set: { train_pending: false, updated_at: now } } };
}

/** The current run finished: the chatbot answers from its generation. */
export function runSucceeded(id: string, run: TrainingRun, now: number): Transition {
	return {
		query: { _id: id, "training.job_id": run.job_id },
		update: { $set: { generation: run.generation, trained_version: run.sources_version, training: null, training_error: null, updated_at: now } }
	};
}

/**
 * The current run failed for good: the chatbot keeps answering from its previous index, if any, and
 * waiting requests are dropped (new knowledge asks again), so a failing input is not retried forever.
 */
export function runFailed(id: string, jobId: string, error: string, now: number): Transition {
	return {
		query: { _id: id, "training.job_id": jobId },
		update: { $set: { training: null, training_error: error.slice(0, 500), train_pending: false, updated_at: now } }
	};
}
