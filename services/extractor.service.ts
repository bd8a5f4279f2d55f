/**
 * extractor: turns uploaded files into source text, in the background.
 *
 * `enqueue` stores a job (keyed by the source id) and sends it on a durable channel. A worker claims
 * the job, marks the source `processing`, reads the bytes from object storage, extracts the text in
 * a worker thread (lib/extract) and hands it to the chatbots service, whose gate counts the
 * characters (over budget → failed `char_cap`). A file that yields no text fails its source with a
 * reason; it never fails the service. `requeueStale` re-sends jobs whose message was lost or whose
 * worker died, and a job that keeps killing its worker is given up.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import type { Chatbot, Failure, Source } from "../lib/chatbots/model";
import { extractText } from "../lib/extract/extract-text";
import { noTextFailure, sourceFailureOf } from "../lib/failures";
import type { JobDoc } from "../lib/jobs/durable-job";
import { createObjectStore, ObjectStore } from "../lib/storage";
import { DurableJobMethods, DurableJobMixin, DurableJobWorker } from "../mixins/durable-job.mixin";
import type { P } from "./chatbots/types";

export const EXTRACTION_CHANNEL = "extractor.jobs";

export interface ExtractionJob extends JobDoc {
	/** The source id. */
	_id: string;
	chatbot_id: string;
}

type Outcome = { text: string; title?: string } | { failure: Failure };

interface Vars {
	store: ObjectStore;
}

type ExtractorMethods = DurableJobWorker<ExtractionJob> & {
	extract(source: Source): Promise<Outcome>;
	report(job: ExtractionJob, outcome: Outcome): Promise<void>;
};

/** True when the object is not in storage (local disk or S3), as opposed to storage being down. */
function isMissingObject(err: unknown): boolean {
	const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } } | null;
	return e?.code === "ENOENT" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

export default function createExtractorService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, ExtractorMethods & DurableJobMethods<ExtractionJob>, Vars> {
	return {
		name: "extractor",
		mixins: [
			DurableJobMixin<ExtractionJob>(config, {
				collection: "extraction_jobs",
				channel: EXTRACTION_CHANNEL,
				group: "extractor",
				// Each extraction may hold a parser worker with a 512 MB heap.
				maxInFlight: 2,
				leaseMs: 30_000,
				staleMs: 3 * 60_000,
				maxAttempts: 3,
				// One parser run may take 30 s; reading the file and reporting come on top.
				maxRunMs: 2 * 60_000
			}) as ServiceSchema
		],

		created() {
			this.store = createObjectStore(config);
		},

		actions: {
			/** Queues the extraction of a pending file source. Idempotent: queuing twice runs once. */
			enqueue: {
				params: { chatbot_id: "string|min:1", source_id: "string|min:1" },
				async handler(ctx: P<{ chatbot_id: string; source_id: string }>) {
					await this.enqueueJob({ _id: ctx.params.source_id, chatbot_id: ctx.params.chatbot_id });
					return { queued: true };
				}
			}
		},

		methods: {
			async runJob(job: ExtractionJob) {
				let sources: Source[];
				try {
					sources = (await this.broker.call<{ chatbot: Chatbot; sources: Source[] }, object>("chatbots.get", { id: job.chatbot_id })).sources;
				} catch (err) {
					if ((err as { type?: string }).type === "expired") return; // the chatbot is gone with its files
					throw err;
				}
				const source = sources.find(s => s._id === job._id);
				if (!source || source.status === "ready" || source.status === "failed") return; // already done (a duplicate message)
				await this.broker.call("chatbots.sourceProcessing", { id: job.chatbot_id, source_id: source._id });
				await this.report(job, await this.extract(source));
			},

			async giveUpJob(job: ExtractionJob, reason: string) {
				await this.report(job, { failure: { code: "unreadable", message: `Reading the file did not finish: ${reason}.` } });
			},

			/** Reads and extracts a file. Every problem with the file itself becomes a failure, never an exception. */
			async extract(source: Source): Promise<Outcome> {
				let bytes: Buffer;
				try {
					bytes = await this.store.get(source.storage_key ?? "");
				} catch (err) {
					if (!isMissingObject(err)) throw err; // storage is down: retry later
					return { failure: { code: "unreadable", message: `${source.file_name ?? "The file"} is no longer in storage; upload it again.` } };
				}
				try {
					const extracted = await extractText(bytes, source.content_type ?? "", source.file_name ?? undefined);
					if (extracted.text.trim() === "") return { failure: noTextFailure(source.content_type, source.file_name) };
					return extracted;
				} catch (err) {
					const failure = sourceFailureOf(err);
					if (failure) return { failure };
					// Not a reason the library knows: still the file's failure, but worth a look.
					this.logger.warn(`Unexpected extraction error for source ${source._id}:`, (err as Error).message);
					return { failure: { code: "unreadable", message: `${source.file_name ?? "The file"} could not be read.` } };
				}
			},

			/** Tells the chatbots service what the file gave: its text (the gate counts it) or why not. */
			async report(job: ExtractionJob, outcome: Outcome) {
				if ("failure" in outcome) {
					await this.broker.call("chatbots.sourceFailed", { id: job.chatbot_id, source_id: job._id, ...outcome.failure });
				} else {
					await this.broker.call("chatbots.sourceExtracted", { id: job.chatbot_id, source_id: job._id, text: outcome.text, title: outcome.title ?? null });
				}
			}
		}
	};
}
