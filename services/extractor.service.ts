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
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import type { Chatbot, Failure, Source } from "../lib/chatbots/model";
import { extractText } from "../lib/extract/extract-text";
import { noTextFailure, sourceFailureOf } from "../lib/extract/source-failure";
import { claimJob, JobDoc, newJobFields, requeueStaleJobs } from "../lib/jobs/durable-job";
import { createObjectStore, ObjectStore } from "../lib/storage";
import { createDbMixin, DocumentCollection } from "../mixins/db.mixin";
import { ChannelSchema, sendToChannel } from "./channels";

export const EXTRACTION_CHANNEL = "extractor.jobs";

/** Longer than one parser run may take (30 s) plus reading the file. */
const LEASE_MS = 2 * 60_000;
/** A queued extraction nobody claimed for this long has lost its message. */
const STALE_MS = 3 * 60_000;
/** A file that killed its worker this many times is failed as unreadable. */
const MAX_ATTEMPTS = 3;

export interface ExtractionJob extends JobDoc {
	/** The source id. */
	_id: string;
	chatbot_id: string;
}

type Outcome = { text: string; title?: string } | { failure: Failure };

interface Vars {
	documents?: DocumentCollection<ExtractionJob>;
	store: ObjectStore;
}

interface Methods {
	jobs(): DocumentCollection<ExtractionJob>;
	runExtraction(sourceId: string): Promise<void>;
	extract(source: Source): Promise<Outcome>;
	finish(job: ExtractionJob, source: Source, outcome: Outcome): Promise<void>;
}

type Self = Service<ServiceSettingSchema> & Vars & Methods;
type C<P> = Context<P, Record<string, unknown>>;

/** True when the object is not in storage (local disk or S3), as opposed to storage being down. */
function isMissingObject(err: unknown): boolean {
	const e = err as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } } | null;
	return e?.code === "ENOENT" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
}

export default function createExtractorService(
	config: Readonly<AppConfig>
): ServiceSchema<ServiceSettingSchema, Methods, Vars> & { channels: Record<string, ChannelSchema<{ source_id: string }, Self>> } {
	return {
		name: "extractor",
		mixins: [createDbMixin(config, "extraction_jobs") as ServiceSchema],

		created() {
			this.store = createObjectStore(config);
		},

		actions: {
			/** Queues the extraction of a pending file source. Idempotent: queuing twice runs once. */
			enqueue: {
				params: { chatbot_id: "string|min:1", source_id: "string|min:1" },
				async handler(ctx: C<{ chatbot_id: string; source_id: string }>) {
					const { chatbot_id, source_id } = ctx.params;
					if (!(await this.jobs().findOne({ _id: source_id }))) {
						try {
							await this.jobs().insert({ _id: source_id, chatbot_id, ...newJobFields(Date.now()) });
						} catch (err) {
							// Two enqueues raced and the other inserted first; one job is all we need.
							if (!(await this.jobs().findOne({ _id: source_id }))) throw err;
						}
					}
					await sendToChannel(this.broker, EXTRACTION_CHANNEL, { source_id });
					return { queued: true };
				}
			},

			/** Sends again the extractions whose message was lost or whose worker died. Returns `{ requeued }`. */
			requeueStale: {
				visibility: "public",
				params: { now: "number" },
				async handler(ctx: C<{ now: number }>) {
					const requeued = await requeueStaleJobs(this.jobs(), ctx.params.now, STALE_MS, job => sendToChannel(this.broker, EXTRACTION_CHANNEL, { source_id: job._id }));
					return { requeued };
				}
			}
		},

		channels: {
			[EXTRACTION_CHANNEL]: {
				group: "extractor",
				// Each extraction may hold a parser worker with a 512 MB heap.
				maxInFlight: 2,
				async handler(payload) {
					try {
						await this.runExtraction(payload.source_id);
					} catch (err) {
						// Storage or the chatbots service did not answer: the job stays and is re-sent.
						this.logger.warn(`Extraction of source ${payload.source_id} interrupted:`, (err as Error).message);
					}
				}
			}
		},

		methods: {
			jobs() {
				return this.documents as DocumentCollection<ExtractionJob>;
			},

			async runExtraction(sourceId) {
				const claim = claimJob(sourceId, Date.now(), LEASE_MS);
				if ((await this.jobs().update(claim.query, claim.update)) !== 1) return; // done, or held by a live worker
				const job = (await this.jobs().findOne({ _id: sourceId })) as ExtractionJob;
				let sources: Source[];
				try {
					sources = (await this.broker.call<{ chatbot: Chatbot; sources: Source[] }, object>("chatbots.get", { id: job.chatbot_id })).sources;
				} catch (err) {
					if ((err as { type?: string }).type !== "expired") throw err;
					await this.jobs().remove({ _id: sourceId }); // the chatbot is gone with its files
					return;
				}
				const source = sources.find(s => s._id === sourceId);
				if (!source || source.status === "ready" || source.status === "failed") {
					await this.jobs().remove({ _id: sourceId }); // already done (a duplicate message)
					return;
				}
				if (job.attempts > MAX_ATTEMPTS) {
					const message = `Reading ${source.file_name ?? "the file"} did not finish after ${MAX_ATTEMPTS} attempts.`;
					await this.finish(job, source, { failure: { code: "unreadable", message } });
					return;
				}
				await this.broker.call("chatbots.markProcessing", { id: job.chatbot_id, source_id: sourceId });
				await this.finish(job, source, await this.extract(source));
			},

			/** Reads and extracts a file. Every problem with the file itself becomes a failure, never an exception. */
			async extract(source) {
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

			/** Records the outcome on the source (the gate counts characters) and drops the job. */
			async finish(job, source, outcome) {
				if ("failure" in outcome) {
					await this.broker.call("chatbots.failSource", { id: job.chatbot_id, source_id: source._id, ...outcome.failure });
				} else {
					await this.broker.call("chatbots.completeSource", { id: job.chatbot_id, source_id: source._id, text: outcome.text, title: outcome.title ?? null });
				}
				await this.jobs().remove({ _id: job._id });
			}
		}
	};
}
