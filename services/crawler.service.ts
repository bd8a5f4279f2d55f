/**
 * crawler: reads web pages for chatbots.
 *
 * - `fetchPage` reads one page during the caller's request (demo API, MCP `add_knowledge_url`).
 * - `startSiteCrawl` queues a site crawl within a page budget (MCP `create_chatbot`) as a durable
 *   job: a channel message plus a job document, claimed by one worker, re-sent by `requeueStale`
 *   when its worker died. Each crawled page becomes a `url` source through the chatbots service's
 *   cap gate; the chatbot's `crawl` progress is kept current; training may follow.
 *
 * One Chromium (launched on first use, only when enabled and installed) and one robots.txt cache
 * serve every fetch of this process.
 */
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { appError } from "../lib/errors";
import { newId } from "../lib/chatbots/ids";
import type { Chatbot, CrawlProgress, Source } from "../lib/chatbots/model";
import { PageRenderer } from "../lib/crawl/browser";
import { pageFetchClientError } from "../lib/crawl/client-error";
import { fetchFailure } from "../lib/crawl/fetch-failure";
import { FetchReadableOptions, fetchReadable } from "../lib/crawl/fetch-readable";
import { RobotsCache } from "../lib/crawl/robots";
import { CrawledPage, crawlSite, normalizePageUrl } from "../lib/crawl/site-crawl";
import type { AddressGuardOptions } from "../lib/crawl/ssrf";
import { claimJob, JobDoc, newJobFields, renewLease, requeueStaleJobs } from "../lib/jobs/durable-job";
import { createDbMixin, DocumentCollection } from "../mixins/db.mixin";
import { ChannelSchema, sendToChannel } from "./channels";

export const SITE_CRAWL_CHANNEL = "crawler.site-crawls";

/** A worker that makes no progress for this long is presumed dead (one page takes at most ~2 × CRAWL_TIMEOUT_MS). */
const LEASE_MS = 3 * 60_000;
/** A queued crawl nobody claimed for this long has lost its message. */
const STALE_MS = 5 * 60_000;
/** A crawl that killed its worker this many times is given up. */
const MAX_ATTEMPTS = 3;

export interface SiteCrawlJob extends JobDoc {
	chatbot_id: string;
	url: string;
	max_pages: number;
	then_train: boolean;
}

export interface FetchPageResult {
	finalUrl: string;
	title: string | null;
	text: string;
}

/** Why a crawl stopped early: the process is shutting down, or the chatbot can take no more pages. */
class CrawlHalt extends Error {
	constructor(readonly why: "stopping" | "full") {
		super(`crawl halted: ${why}`);
	}
}

interface Vars {
	documents?: DocumentCollection<SiteCrawlJob>;
	renderer: PageRenderer | undefined;
	robots: RobotsCache;
	pageOptions: FetchReadableOptions;
}

interface Methods {
	jobs(): DocumentCollection<SiteCrawlJob>;
	runSiteCrawl(jobId: string): Promise<void>;
	crawlInto(job: SiteCrawlJob, known: Set<string>): Promise<CrawlProgress>;
	addPage(job: SiteCrawlJob, page: CrawledPage, known: Set<string>): Promise<"added" | "refused" | "full">;
	setProgress(chatbotId: string, progress: CrawlProgress): Promise<void>;
}

type Self = Service<ServiceSettingSchema> & Vars & Methods;
type C<P> = Context<P, Record<string, unknown>>;

/** Error type of a Moleculer error that crossed the bus (callers branch on it). */
function errorType(err: unknown): string | undefined {
	return (err as { type?: string } | null)?.type;
}

export interface CrawlerServiceOptions {
	/** DNS and the public-address rule, replaced only by tests that let a loopback site play the internet. */
	guard?: Pick<AddressGuardOptions, "lookup" | "isAllowedAddress">;
}

export default function createCrawlerService(
	config: Readonly<AppConfig>,
	opts: CrawlerServiceOptions = {}
): ServiceSchema<ServiceSettingSchema, Methods, Vars> & { channels: Record<string, ChannelSchema<{ job_id: string }, Self>> } {
	const { allowPrivate, timeoutMs, maxBytes, maxRedirects, userAgent } = config.crawl;
	const crawlOptions = { allowPrivate, timeoutMs, maxBytes, maxRedirects, userAgent, ...opts.guard };
	// Static fetch and rendering each get CRAWL_TIMEOUT_MS; the whole page gets both.
	const pageDeadlineMs = 2 * timeoutMs;

	return {
		name: "crawler",
		mixins: [createDbMixin(config, "crawl_jobs") as ServiceSchema],

		created() {
			const renderer = new PageRenderer({ executablePath: config.crawl.chromiumPath });
			this.renderer = config.crawl.useBrowser && renderer.available() ? renderer : undefined;
			this.robots = new RobotsCache(crawlOptions);
			this.pageOptions = { ...crawlOptions, renderer: this.renderer, robots: this.robots };
		},

		async stopped() {
			await this.renderer?.close();
		},

		actions: {
			/**
			 * Fetches one page (robots.txt, SSRF guard, Chromium when available) and returns its main text.
			 * Throws 422 `empty` when the page gives nothing to train on (no text, unreachable, refused
			 * address, robots.txt) with the cause in `errors.detail`, and 400 `validation_failed` for a
			 * URL that is not http(s).
			 */
			fetchPage: {
				params: { url: "string|min:1|max:4096" },
				async handler(ctx: C<{ url: string }>): Promise<FetchPageResult> {
					let timer: NodeJS.Timeout | undefined;
					const deadline = new Promise<never>((_, reject) => {
						timer = setTimeout(() => reject(fetchFailure("timeout", `The page did not load within ${pageDeadlineMs} ms.`, { url: ctx.params.url })), pageDeadlineMs);
					});
					const work = fetchReadable(ctx.params.url, this.pageOptions);
					work.catch(() => undefined); // a fetch that loses the race ends on its own time limits
					try {
						const page = await Promise.race([work, deadline]);
						return { finalUrl: page.finalUrl, title: page.title || null, text: page.text };
					} catch (err) {
						throw pageFetchClientError(err) ?? err;
					} finally {
						clearTimeout(timer);
					}
				}
			},

			/**
			 * Queues a crawl of `url`'s site (same origin, breadth first, sitemap.xml) of at most
			 * `max_pages` pages into the chatbot; answers at once. With `then_train`, training starts
			 * when the crawl ends. Throws 400 `validation_failed` for a URL that is not http(s).
			 */
			startSiteCrawl: {
				params: {
					chatbot_id: "string|min:1",
					url: "string|min:1|max:4096",
					max_pages: "number|integer|min:1|max:1000",
					then_train: { type: "boolean", optional: true, default: false }
				},
				async handler(ctx: C<{ chatbot_id: string; url: string; max_pages: number; then_train: boolean }>) {
					const url = normalizePageUrl(ctx.params.url);
					if (!url) {
						throw appError("validation_failed", "The URL cannot be crawled.", {
							detail: "'url' must be an absolute http or https URL.",
							fields: [{ field: "url", message: "must be an absolute http or https URL" }]
						});
					}
					const job: SiteCrawlJob = {
						_id: newId(),
						...newJobFields(Date.now()),
						chatbot_id: ctx.params.chatbot_id,
						url,
						max_pages: ctx.params.max_pages,
						then_train: ctx.params.then_train
					};
					await this.jobs().insert(job);
					await sendToChannel(this.broker, SITE_CRAWL_CHANNEL, { job_id: job._id });
					return { queued: true, job_id: job._id };
				}
			},

			/** Sends again the crawls whose message was lost or whose worker died. Returns `{ requeued }`. */
			requeueStale: {
				visibility: "public",
				params: { now: "number" },
				async handler(ctx: C<{ now: number }>) {
					const requeued = await requeueStaleJobs(this.jobs(), ctx.params.now, STALE_MS, job => sendToChannel(this.broker, SITE_CRAWL_CHANNEL, { job_id: job._id }));
					return { requeued };
				}
			}
		},

		channels: {
			[SITE_CRAWL_CHANNEL]: {
				group: "crawler",
				// Two crawls at once per node: each may hold a Chromium page.
				maxInFlight: 2,
				async handler(payload) {
					try {
						await this.runSiteCrawl(payload.job_id);
					} catch (err) {
						// The job document keeps the work; its lease runs out and the janitor re-sends it.
						if (!(err instanceof CrawlHalt)) this.logger.warn(`Site crawl ${payload.job_id} interrupted:`, (err as Error).message);
					}
				}
			}
		},

		methods: {
			jobs() {
				return this.documents as DocumentCollection<SiteCrawlJob>;
			},

			async runSiteCrawl(jobId) {
				const claim = claimJob(jobId, Date.now(), LEASE_MS);
				if ((await this.jobs().update(claim.query, claim.update)) !== 1) return; // done, or held by a live worker
				const job = (await this.jobs().findOne({ _id: jobId })) as SiteCrawlJob;
				if (job.attempts > MAX_ATTEMPTS) {
					this.logger.warn(`Site crawl ${jobId} given up after ${MAX_ATTEMPTS} attempts.`);
					await this.setProgress(job.chatbot_id, { status: "failed", start_url: job.url, found: 0, crawled: 0, failed: 0 }).catch(() => undefined);
					await this.jobs().remove({ _id: jobId });
					return;
				}
				let sources: Source[];
				try {
					sources = (await this.broker.call<{ chatbot: Chatbot; sources: Source[] }, object>("chatbots.get", { id: job.chatbot_id })).sources;
				} catch (err) {
					if (errorType(err) !== "expired") throw err;
					await this.jobs().remove({ _id: jobId }); // the chatbot is gone; nothing to crawl into
					return;
				}
				// A re-run after a crash skips pages the first run already added.
				const known = new Set(sources.filter(s => s.kind === "url" && s.url).map(s => s.url as string));
				const progress = await this.crawlInto(job, known);
				progress.status = progress.crawled > 0 ? "done" : "failed";
				await this.setProgress(job.chatbot_id, progress);
				await this.jobs().remove({ _id: jobId });
				if (job.then_train) {
					try {
						await this.broker.call("trainer.start", { chatbot_id: job.chatbot_id });
					} catch (err) {
						// The pages are stored; the chatbot stays queued and can be trained later.
						this.logger.info(`Training after site crawl of ${job.chatbot_id} did not start:`, (err as Error).message);
					}
				}
			},

			/** Crawls the job's site into its chatbot; returns the final counts. */
			async crawlInto(job, known) {
				const progress: CrawlProgress = { status: "crawling", start_url: job.url, found: 1, crawled: 0, failed: 0 };
				await this.setProgress(job.chatbot_id, progress);
				try {
					await crawlSite(job.url, {
						...this.pageOptions,
						maxPages: job.max_pages,
						onPage: async (page, counts) => {
							if (this.broker.stopping) throw new CrawlHalt("stopping");
							progress.found = counts.found;
							const outcome = page.status === "crawled" ? await this.addPage(job, page, known) : "refused";
							if (outcome === "added") progress.crawled++;
							else progress.failed++;
							await this.setProgress(job.chatbot_id, progress);
							const renew = renewLease(job._id, Date.now(), LEASE_MS);
							await this.jobs().update(renew.query, renew.update);
							if (outcome === "full") throw new CrawlHalt("full");
						}
					});
				} catch (err) {
					if (!(err instanceof CrawlHalt) || err.why === "stopping") throw err;
				}
				return progress;
			},

			/**
			 * Adds one crawled page as a ready `url` source. A page the chatbot already has counts as
			 * added; one refused by a cap is reported failed ("full" when no further page can fit).
			 */
			async addPage(job, page, known) {
				if (known.has(page.url)) return "added";
				try {
					await this.broker.call("chatbots.addSource", { id: job.chatbot_id, kind: "url", status: "ready", url: page.url, title: page.title || null, text: page.text ?? "" });
					known.add(page.url);
					return "added";
				} catch (err) {
					const type = errorType(err);
					if (type === "url_cap" || type === "expired") return "full";
					if (type === "char_cap" || type === "empty") return "refused";
					throw err;
				}
			},

			async setProgress(chatbotId, progress) {
				await this.broker.call("chatbots.setCrawl", { id: chatbotId, crawl: { ...progress } });
			}
		}
	};
}
