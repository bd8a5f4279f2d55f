/**
 * janitor: on a schedule, removes what has outlived its lifetime — expired demo sessions and
 * unclaimed sandboxes (8 days) with their files and vectors — and re-queues stuck background work
 * (extractions and training runs whose worker died).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { call } from "./call";

interface Vars {
	timer?: NodeJS.Timeout;
	sweeping?: Promise<unknown>;
}

interface Methods {
	sweepOnce(ctx: Context<unknown, Record<string, unknown>> | undefined, now: number): Promise<SweepReport>;
}

export interface SweepReport {
	chatbotsRemoved: number;
	filesRemoved: number;
	sessionsRemoved: number;
	requeued: { extractions: number; orphanedFiles: number; crawls: number; trainings: number };
	errors: string[];
}

/** A file still `pending` this long after it was attached has lost its extraction job. */
const ORPHAN_AFTER_MS = 10 * 60_000;

/** Which services hold what the janitor cleans; absent ones are skipped, not errors. */
const OPTIONAL = {
	vectors: "vectors.deleteChatbot",
	extractor: "extractor.requeueStale",
	crawler: "crawler.requeueStale",
	trainer: "trainer.requeueStale"
} as const;

export default function createJanitorService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	return {
		name: "janitor",
		methods: {
			async sweepOnce(ctx, now) {
				const report: SweepReport = { chatbotsRemoved: 0, filesRemoved: 0, sessionsRemoved: 0, requeued: { extractions: 0, orphanedFiles: 0, crawls: 0, trainings: 0 }, errors: [] };
				const invoke = <T>(action: string, params: object): Promise<T> =>
					ctx ? call<T>(ctx, action, params) : (this.broker.call(action, params) as Promise<T>);
				const has = (action: string) => !(this.broker.findNextActionEndpoint(action) instanceof Error);

				const expired = await invoke<Array<{ _id: string }>>("chatbots.listExpired", { now, limit: 500 });
				for (const chatbot of expired) {
					try {
						// Files and vectors first: if the process dies here, the chatbot is still listed and the next sweep retries.
						if (has("storage.deletePrefix")) {
							for (const scope of ["demo", "sandbox", "account"]) {
								report.filesRemoved += (await invoke<{ deleted: number }>("storage.deletePrefix", { prefix: `${scope}/${chatbot._id}` })).deleted;
							}
						}
						if (has(OPTIONAL.vectors)) await invoke(OPTIONAL.vectors, { chatbot_id: chatbot._id });
						await invoke("chatbots.remove", { id: chatbot._id });
						report.chatbotsRemoved++;
					} catch (err) {
						report.errors.push(`${chatbot._id}: ${(err as Error).message}`);
					}
				}
				if (has("demo-session.purgeExpired")) report.sessionsRemoved = (await invoke<{ removed: number }>("demo-session.purgeExpired", { now })).removed;
				if (has(OPTIONAL.extractor)) report.requeued.extractions = (await invoke<{ requeued: number }>(OPTIONAL.extractor, { now })).requeued;
				if (has("extractor.enqueue")) {
					// Files attached while the extractor was down have no job at all: queue them now.
					const orphans = await invoke<Array<{ chatbot_id: string; source_id: string }>>("chatbots.pendingFiles", { before: now - ORPHAN_AFTER_MS });
					for (const orphan of orphans) await invoke("extractor.enqueue", orphan);
					report.requeued.orphanedFiles = orphans.length;
				}
				if (has(OPTIONAL.crawler)) report.requeued.crawls = (await invoke<{ requeued: number }>(OPTIONAL.crawler, { now })).requeued;
				if (has(OPTIONAL.trainer)) report.requeued.trainings = (await invoke<{ requeued: number }>(OPTIONAL.trainer, { now })).requeued;
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
					return this.sweepOnce(ctx as Context<unknown, Record<string, unknown>>, ctx.params.now ?? Date.now());
				}
			}
		},
		started() {
			const every = config.janitorIntervalMinutes * 60_000;
			this.timer = setInterval(() => {
				if (this.sweeping) return; // never two sweeps at once
				this.sweeping = this.sweepOnce(undefined, Date.now())
					.catch(err => this.logger.warn("Janitor sweep failed:", (err as Error).message))
					.finally(() => (this.sweeping = undefined));
			}, every);
			this.timer.unref();
		},
		async stopped() {
			if (this.timer) clearInterval(this.timer);
			await this.sweeping;
		}
	};
}
