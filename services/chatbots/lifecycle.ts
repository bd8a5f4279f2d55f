/**
 * The chatbots service as owner of each chatbot's lifecycle. Workers report facts — a crawl made
 * progress or ended, a training run started or finished (source facts are in sources.ts) — and
 * `advance` decides what follows from the stored state (lib/chatbots/lifecycle.ts `nextStep`): hand a
 * queued crawl to a crawler, start a training run that was asked for. A step that cannot be taken
 * now (its worker is not running) is left in the data, and the sweep takes it when it can: on a
 * timer, when services join the cluster, and when the janitor asks.
 */
import type { Chatbot, CrawlFailure, FailureCode, Source, TrainingRun } from "../../lib/chatbots/model";
import { crawlEnded, crawlProgressed, nextStep, requestCovered, requestTraining, runFailed, runStarted, runSucceeded } from "../../lib/chatbots/lifecycle";
import { notExpired } from "../../lib/chatbots/gates";
import { overCharLimit, retrainBlockedReason } from "../../lib/chatbots/status";
import { FINAL_JOB_STATUSES } from "../../lib/jobs/durable-job";
import { appError } from "../../lib/errors";
import { countSchema, id, ownerSchema } from "./params";
import { withoutText } from "./sources";
import type { ChatbotsThis, Owner, P, SweepResult } from "./types";

/** A run older than this is checked against the trainer's record: its job may be lost. */
const RUN_CHECK_AFTER_MS = 10 * 60_000;
/** A file still `pending` this long after it was attached has lost its extraction job. */
const ORPHAN_FILE_MS = 10 * 60_000;
/** Chatbots handled per kind of work in one sweep. */
const SWEEP_BATCH = 200;

export const lifecycleMethods = {
	runs(this: ChatbotsThis, action: string): boolean {
		return !(this.broker.findNextActionEndpoint(action) instanceof Error);
	},

	async requireLive(this: ChatbotsThis, chatbotId: string, owner?: Owner): Promise<Chatbot> {
		const chatbot = await this.chatbots.findOne({ _id: chatbotId });
		if (!chatbot || (chatbot.expires_at !== null && chatbot.expires_at <= this.now())) throw appError("expired", "No live chatbot has this id.");
		if (owner !== undefined) {
			const reachable = owner.account_id === null ? chatbot.kind === "sandbox" && chatbot.account_id === null : chatbot.account_id === owner.account_id;
			// Never says whether someone else's chatbot exists.
			if (!reachable) throw appError("not_found", "No chatbot you can reach has this id.");
		}
		return chatbot;
	},

	async failSourceDoc(this: ChatbotsThis, source: Source, code: FailureCode, message: string): Promise<Source> {
		const failure = { code, message };
		await this.sourceDocs.update({ _id: source._id, chatbot_id: source.chatbot_id, status: { $in: ["pending", "processing"] } }, { $set: { status: "failed", failure, char_count: 0, updated_at: this.now() } });
		return { ...withoutText(source), status: "failed", failure, char_count: 0 };
	},

	async askForTraining(this: ChatbotsThis, chatbotId: string): Promise<void> {
		const chatbot = await this.chatbots.findOne({ _id: chatbotId });
		if (!chatbot) return;
		const ask = requestTraining(chatbotId, chatbot.sources_version, this.now());
		await this.chatbots.update(ask.query, ask.update);
		await this.advance(chatbotId);
	},

	async advance(this: ChatbotsThis, chatbotId: string): Promise<void> {
		try {
			const chatbot = await this.chatbots.findOne({ _id: chatbotId });
			if (!chatbot) return;
			const sourcesInProgress = await this.sourceDocs.count({ chatbot_id: chatbotId, status: { $in: ["pending", "processing"] } });
			const step = nextStep(chatbot, { now: this.now(), sourcesInProgress });
			if (step.kind === "crawl") {
				await this.broker.call("crawler.startSiteCrawl", { chatbot_id: chatbotId, url: chatbot.crawl.start_url, max_pages: chatbot.crawl.max_pages });
			} else if (step.kind === "train") {
				await this.broker.call("trainer.start", { chatbot_id: chatbotId, supersede: false });
			}
		} catch (err) {
			// The step stays in the data; the sweep takes it once its worker answers.
			this.logger.info(`Next step of chatbot ${chatbotId} deferred:`, (err as Error).message);
		}
	},

	sweep(this: ChatbotsThis, now?: number): Promise<SweepResult> {
		return this.sweeps.run("sweep", () => sweepOnce(this, now ?? this.now()));
	},

	scheduleSweep(this: ChatbotsThis, delayMs: number): void {
		if (this.sweepSoon) return;
		this.sweepSoon = setTimeout(() => {
			this.sweepSoon = undefined;
			// A pass still waiting behind a slow one serves this request too: passes never pile up.
			this.sweeps
				.joinWaiting("sweep", () => sweepOnce(this, this.now()))
				.catch(err => this.logger.warn("Lifecycle sweep failed:", (err as Error).message));
		}, delayMs);
		this.sweepSoon.unref();
	}
};

/** One pass of the sweep (see `sweep`); the caller makes passes take turns. */
async function sweepOnce(self: ChatbotsThis, now: number): Promise<SweepResult> {
	const result: SweepResult = { crawls: 0, trainings: 0, lostRuns: 0, files: 0 };
	const live = notExpired(now);
	// Handing a crawl over again is harmless: the crawler keeps one job per chatbot.
	const waitingCrawls = await self.chatbots.find({ "crawl.status": "queued", ...live }, { limit: SWEEP_BATCH });
	for (const chatbot of waitingCrawls) {
		await self.advance(chatbot._id);
		result.crawls++;
	}
	const waitingTraining = await self.chatbots.find({ train_pending: true, training: null, ...live }, { limit: SWEEP_BATCH });
	for (const chatbot of waitingTraining) {
		await self.advance(chatbot._id);
		if ((await self.chatbots.findOne({ _id: chatbot._id }))?.training) result.trainings++;
	}
	const oldRuns = await self.chatbots.find({ "training.started_at": { $lte: now - RUN_CHECK_AFTER_MS }, ...live }, { limit: SWEEP_BATCH });
	for (const chatbot of oldRuns) if (await closeLostRun(self, chatbot)) result.lostRuns++;
	const orphans = await self.sourceDocs.find({ kind: "file", status: "pending", created_at: { $lte: now - ORPHAN_FILE_MS } }, { limit: SWEEP_BATCH });
	for (const source of orphans) {
		try {
			await self.broker.call("extractor.enqueue", { chatbot_id: source.chatbot_id, source_id: source._id });
			result.files++;
		} catch (err) {
			self.logger.info(`Extraction of ${source._id} still not queued:`, (err as Error).message);
			break; // the extractor is not answering; the next sweep tries again
		}
	}
	return result;
}

/**
 * A run the chatbot has waited on for long: if the trainer has no such job, or ended it without
 * telling (a lost message), the chatbot hears the outcome now. Returns true when it closed the run.
 */
async function closeLostRun(self: ChatbotsThis, chatbot: Chatbot): Promise<boolean> {
	const run = chatbot.training as TrainingRun;
	let job: { status: string; error?: string | null } | null;
	try {
		job = await self.broker.call("trainer.job", { job_id: run.job_id });
	} catch {
		return false; // no trainer to ask: leave the run alone
	}
	const now = self.now();
	if (job?.status === "done") {
		const done = runSucceeded(chatbot._id, run, now);
		await self.chatbots.update(done.query, done.update);
	} else if (!job || (FINAL_JOB_STATUSES as readonly string[]).includes(job.status)) {
		const failed = runFailed(chatbot._id, run.job_id, job?.error ?? "The training run was lost.", now);
		await self.chatbots.update(failed.query, failed.update);
	} else {
		return false; // still queued or running: the trainer's own recovery has it
	}
	await self.advance(chatbot._id);
	return true;
}

export const lifecycleActions = {
	/**
	 * Trains the chatbot now (the demo API's train call, the dashboard's button): a run starts at once
	 * and replaces one in progress. Throws `empty` (422) when no source has readable text, `char_cap`
	 * when its sources hold more characters than its plan allows (it keeps answering meanwhile).
	 */
	train: {
		params: { id, owner: ownerSchema },
		async handler(this: ChatbotsThis, ctx: P<{ id: string; owner?: Owner }>) {
			const chatbot = await this.requireLive(ctx.params.id, ctx.params.owner);
			if (overCharLimit(chatbot)) throw appError("char_cap", retrainBlockedReason(chatbot), { hint: "Remove sources until they fit the plan's training characters, or move to a larger plan." });
			return ctx.call("trainer.start", { chatbot_id: chatbot._id, supersede: true });
		}
	},

	/**
	 * Fact from the trainer: a run was stored and is about to be sent. It becomes the chatbot's run
	 * unless another is in progress and this one does not `supersede` it (then `conflict`).
	 */
	trainingStarted: {
		params: { id, job_id: id, generation: "number|integer|min:1", sources_version: countSchema, supersede: "boolean" },
		async handler(this: ChatbotsThis, ctx: P<{ id: string; job_id: string; generation: number; sources_version: number; supersede: boolean }>) {
			const now = this.now();
			const { id: chatbotId, job_id, generation, sources_version, supersede } = ctx.params;
			const run: TrainingRun = { job_id, generation, sources_version, started_at: now };
			const start = runStarted(chatbotId, run, supersede, now);
			if ((await this.chatbots.update(start.query, start.update)) !== 1) {
				await this.requireLive(chatbotId);
				throw appError("conflict", "A training run is already in progress.");
			}
			const covered = requestCovered(chatbotId, sources_version, now);
			await this.chatbots.update(covered.query, covered.update);
			return (await this.chatbots.findOne({ _id: chatbotId })) as Chatbot;
		}
	},

	/**
	 * Fact from the trainer: a run ended. `done` makes its generation the one that answers; `failed`
	 * leaves the previous index answering. Only the chatbot's current run counts; then the next step
	 * (another run for knowledge added meanwhile) is decided. Idempotent.
	 */
	trainingFinished: {
		params: { id, job_id: id, outcome: { type: "enum", values: ["done", "failed"] }, error: { type: "string", optional: true, max: 2000 } },
		async handler(this: ChatbotsThis, ctx: P<{ id: string; job_id: string; outcome: "done" | "failed"; error?: string }>) {
			const { id: chatbotId, job_id, outcome } = ctx.params;
			const chatbot = await this.chatbots.findOne({ _id: chatbotId });
			if (!chatbot?.training || chatbot.training.job_id !== job_id) return { updated: false };
			const now = this.now();
			const transition = outcome === "done" ? runSucceeded(chatbotId, chatbot.training, now) : runFailed(chatbotId, job_id, ctx.params.error ?? "The run failed.", now);
			const updated = (await this.chatbots.update(transition.query, transition.update)) === 1;
			await this.advance(chatbotId);
			return { updated, generation: outcome === "done" ? chatbot.training.generation : chatbot.generation };
		}
	},

	/** Fact from the crawler: it took the site crawl, or read more pages (with the page that failed, and why). */
	crawlProgress: {
		params: {
			id,
			found: countSchema,
			crawled: countSchema,
			failed: countSchema,
			failure: { type: "object", optional: true, props: { url: "string|max:4096", reason: "string|max:1000" } }
		},
		async handler(this: ChatbotsThis, ctx: P<{ id: string; found: number; crawled: number; failed: number; failure?: CrawlFailure }>) {
			const { id: chatbotId, failure, ...counts } = ctx.params;
			const progress = crawlProgressed(chatbotId, counts, this.now(), failure);
			return { updated: (await this.chatbots.update(progress.query, progress.update)) === 1 };
		}
	},

	/** Fact from the crawler: the site crawl is over. Training follows when the crawl asked for it. */
	crawlFinished: {
		params: { id, found: countSchema, crawled: countSchema, failed: countSchema },
		async handler(this: ChatbotsThis, ctx: P<{ id: string; found: number; crawled: number; failed: number }>) {
			const { id: chatbotId, ...counts } = ctx.params;
			const chatbot = await this.chatbots.findOne({ _id: chatbotId });
			if (!chatbot) return { updated: false };
			const ended = crawlEnded(chatbotId, counts, this.now(), chatbot.crawl.then_train ? chatbot.sources_version : null);
			const updated = (await this.chatbots.update(ended.query, ended.update)) === 1;
			await this.advance(chatbotId);
			return { updated };
		}
	},

	/**
	 * Takes every step that waits: queued crawls no crawler took, training asked for with no run,
	 * runs whose job was lost, files whose extraction was never queued. `now` lets tests move the
	 * clock. Returns what it did.
	 */
	sweep: {
		visibility: "public" as const,
		params: { now: { type: "number", optional: true } },
		handler(this: ChatbotsThis, ctx: P<{ now?: number }>): Promise<SweepResult> {
			return this.sweep(ctx.params.now);
		}
	}
};
