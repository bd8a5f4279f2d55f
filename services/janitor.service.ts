/**
 * janitor: on a schedule, removes what has outlived its lifetime — expired demo sessions and
 * unclaimed sandboxes (8 days) with their files and vectors, uploads never attached before their
 * URL expired — and has stuck background work taken up again: the chatbots service's lifecycle
 * sweep (crawls, trainings and extractions that wait for a worker) and each worker's re-send of jobs
 * whose message was lost or whose worker died.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { KeyedLock } from "../lib/concurrency/keyed-lock";
import { call } from "./call";
import type { SweepResult } from "./chatbots/types";

interface Vars {
	timer?: NodeJS.Timeout;
	/** Sweeps take turns (the timer's and the `sweep` action's), as the chatbots service's do. */
	sweeps: KeyedLock;
}

interface Methods {
	sweepOnce(ctx: Context<unknown, Record<string, unknown>> | undefined, now: number): Promise<SweepReport>;
}

export interface SweepReport {
	chatbotsRemoved: number;
	filesRemoved: number;
	sessionsRemoved: number;
	/** Uploaded objects deleted because they were never attached (or were sent again after attaching). */
	uploadsRemoved: number;
	requeued: { extractions: number; orphanedFiles: number; crawls: number; trainings: number; replies: number };
	errors: string[];
}

/** Workers whose lost jobs the janitor has re-sent; absent ones are skipped, not errors. */
const OPTIONAL = {
	extractor: "extractor.requeueStale",
	crawler: "crawler.requeueStale",
	trainer: "trainer.requeueStale",
	channels: "channels.requeueStale"
} as const;

export default function createJanitorService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	return {
		name: "janitor",
		methods: {
			async sweepOnce(ctx, now) {
				const report: SweepReport = { chatbotsRemoved: 0, filesRemoved: 0, sessionsRemoved: 0, uploadsRemoved: 0, requeued: { extractions: 0, orphanedFiles: 0, crawls: 0, trainings: 0, replies: 0 }, errors: [] };
				const invoke = <T>(action: string, params: object): Promise<T> =>
					ctx ? call<T>(ctx, action, params) : (this.broker.call(action, params) as Promise<T>);
				const has = (action: string) => !(this.broker.findNextActionEndpoint(action) instanceof Error);

				const expired = await invoke<Array<{ _id: string }>>("chatbots.listExpired", { now, limit: 500 });
				for (const chatbot of expired) {
					try {
						// With its files and vectors; if any part fails, the chatbot stays listed and the next sweep retries.
						const removed = await invoke<{ chatbots: number; files: number }>("chatbots.remove", { id: chatbot._id });
						report.filesRemoved += removed.files;
						report.chatbotsRemoved += removed.chatbots;
					} catch (err) {
						report.errors.push(`${chatbot._id}: ${(err as Error).message}`);
					}
				}
				if (has("storage.sweepUploads")) report.uploadsRemoved = (await invoke<{ deleted: number }>("storage.sweepUploads", { now })).deleted;
				if (has("demo-session.purgeExpired")) report.sessionsRemoved = (await invoke<{ removed: number }>("demo-session.purgeExpired", { now })).removed;
				if (has(OPTIONAL.extractor)) report.requeued.extractions = (await invoke<{ requeued: number }>(OPTIONAL.extractor, { now })).requeued;
				if (has(OPTIONAL.crawler)) report.requeued.crawls = (await invoke<{ requeued: number }>(OPTIONAL.crawler, { now })).requeued;
				if (has(OPTIONAL.trainer)) report.requeued.trainings = (await invoke<{ requeued: number }>(OPTIONAL.trainer, { now })).requeued;
				if (has(OPTIONAL.channels)) report.requeued.replies = (await invoke<{ requeued: number }>(OPTIONAL.channels, { now })).requeued;
				// Work that waits for a worker that was not running (files attached while the extractor was
				// down, crawls and trainings asked for while theirs were) is handed over now.
				const waiting = await invoke<SweepResult>("chatbots.sweep", { now });
				report.requeued.orphanedFiles = waiting.files;
				report.requeued.crawls += waiting.crawls;
				report.requeued.trainings += waiting.trainings + waiting.lostRuns;
				if (report.chatbotsRemoved || report.errors.length) this.logger.info("Janitor sweep:", report);
				return report;
			}
		},
		actions: {
			/** Runs one sweep now; `now` (epoch ms) lets tests move the clock. */
			sweep: {
				visibility: "public",
				params: { now: { type: "number", optional: true } },
				handler(ctx: Context<{ now?: number }, Record<string, unknown>>) {
					return this.sweeps.run("sweep", () => this.sweepOnce(ctx as Context<unknown, Record<string, unknown>>, ctx.params.now ?? Date.now()));
				}
			}
		},
		created() {
			this.sweeps = new KeyedLock();
		},
		started() {
			const every = config.janitorIntervalMinutes * 60_000;
			this.timer = setInterval(() => {
				// The previous pass is long over after minutes; if it is not, one pass waits its turn, never more.
				this.sweeps
					.joinWaiting("sweep", () => this.sweepOnce(undefined, Date.now()))
					.catch(err => this.logger.warn("Janitor sweep failed:", (err as Error).message));
			}, every);
			this.timer.unref();
		},
		async stopped() {
			if (this.timer) clearInterval(this.timer);
			await this.sweeps.idle();
		}
	};
}
