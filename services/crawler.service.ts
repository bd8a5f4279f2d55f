/**
 * crawler: reads web pages for chatbots.
 *
 * - `fetchPage` reads one page during the caller's request (the chatbots service's `addPage`).
 * - `startSiteCrawl` queues a site crawl within a page budget as a durable job (one per chatbot;
 *   mixins/durable-job.mixin.ts runs it, survives crashes and gives up on hopeless ones). The
 *   chatbots service asks for it; the crawl reports facts back — progress, and the end — and each
 *   crawled page becomes a `url` source through the chatbots service's cap gate. What follows the
 *   crawl (training) is the chatbots service's decision.
 *
 * One Chromium (launched on first use, only when enabled and installed) and one robots.txt cache
 * serve every fetch of this process.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import type { Chatbot, CrawlCounts, Source } from "../lib/chatbots/model";
import { MAX_URL_LENGTH } from "../lib/chatbots/model";
import { PageRenderer } from "../lib/crawl/browser";
import { pageDeadlineMs } from "../lib/crawl/deadline";
import { crawlPageFailureWords, fetchFailure, pageFetchClientError } from "../lib/failures";
import { FetchReadableOptions, fetchReadable } from "../lib/crawl/fetch-readable";
import { RobotsCache } from "../lib/crawl/robots";
import { CrawledPage, crawlSite, normalizePageUrl } from "../lib/crawl/site-crawl";
import type { AddressGuardOptions } from "../lib/crawl/ssrf";
import { appError } from "../lib/errors";
import type { JobDoc } from "../lib/jobs/durable-job";
import { DurableJobMethods, DurableJobMixin, DurableJobWorker, JobRun } from "../mixins/durable-job.mixin";
import type { P } from "./chatbots/types";

export const SITE_CRAWL_CHANNEL = "crawler.site-crawls";

/** A site crawl, keyed by its chatbot: a chatbot has at most one crawl under way. */
export interface SiteCrawlJob extends JobDoc {
	chatbot_id: string;
	url: string;
	max_pages: number;
}

export interface FetchPageResult {
	finalUrl: string;
	title: string | null;
	text: string;
}

/** Ends the crawl early: the chatbot can take no more pages. */
class ChatbotFull extends Error {}

interface Vars {
	renderer: PageRenderer | undefined;
	robots: RobotsCache;
	pageOptions: FetchReadableOptions;
}

type CrawlerMethods = DurableJobWorker<SiteCrawlJob> & {
	addPage(job: SiteCrawlJob, page: CrawledPage, known: Set<string>): Promise<"added" | { refused: string } | "full">;
};

const errorType = (err: unknown): string | undefined => (err as { type?: string } | null)?.type;

export interface CrawlerServiceOptions {
	/** DNS and the public-address rule, replaced only by tests that let a loopback site play the internet. */
	guard?: Pick<AddressGuardOptions, "lookup" | "isAllowedAddress">;
}

export default function createCrawlerService(config: Readonly<AppConfig>, opts: CrawlerServiceOptions = {}): ServiceSchema<ServiceSettingSchema, CrawlerMethods & DurableJobMethods<SiteCrawlJob>, Vars> {
	const { allowPrivate, timeoutMs, maxBytes, maxRedirects, userAgent } = config.crawl;
	const crawlOptions = { allowPrivate, timeoutMs, maxBytes, maxRedirects, userAgent, ...opts.guard };
	const pageDeadline = pageDeadlineMs(timeoutMs);

	return {
		name: "crawler",
		mixins: [
			DurableJobMixin<SiteCrawlJob>(config, {
				collection: "crawl_jobs",
				channel: SITE_CRAWL_CHANNEL,
				group: "crawler",
				// Two crawls at once per node: each may hold a Chromium page.
				maxInFlight: 2,
				leaseMs: 30_000,
				staleMs: 5 * 60_000,
				maxAttempts: 3,
				// Every page may take its whole deadline, failed attempts included (three per budgeted page).
				maxRunMs: job => 3 * job.max_pages * pageDeadline + 60_000
			}) as ServiceSchema
		],

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
				params: { url: { type: "string", min: 1, max: MAX_URL_LENGTH } },
				async handler(ctx: P<{ url: string }>): Promise<FetchPageResult> {
					let timer: NodeJS.Timeout | undefined;
					const deadline = new Promise<never>((_, reject) => {
						timer = setTimeout(() => reject(fetchFailure("timeout", `The page did not load within ${pageDeadline} ms.`, { url: ctx.params.url })), pageDeadline);
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
			 * Queues the crawl of `url`'s site (same origin, breadth first, sitemap.xml) into the chatbot,
			 * at most `max_pages` pages; answers at once. Idempotent per chatbot: a crawl already under
			 * way is kept. Throws 400 `validation_failed` for a URL that is not http(s).
			 */
			startSiteCrawl: {
				params: { chatbot_id: "string|min:1", url: { type: "string", min: 1, max: MAX_URL_LENGTH }, max_pages: "number|integer|min:1|max:100000" },
				async handler(ctx: P<{ chatbot_id: string; url: string; max_pages: number }>) {
					const url = normalizePageUrl(ctx.params.url);
					if (!url) {
						throw appError("validation_failed", "The URL cannot be crawled.", {
							detail: "'url' must be an absolute http or https URL.",
							fields: [{ field: "url", message: "must be an absolute http or https URL" }]
						});
					}
					const job = await this.enqueueJob({ _id: ctx.params.chatbot_id, chatbot_id: ctx.params.chatbot_id, url, max_pages: ctx.params.max_pages });
					return { queued: true, job_id: job._id };
				}
			}
		},

		methods: {
			async runJob(job: SiteCrawlJob, run: JobRun) {
				let sources: Source[];
				try {
					sources = (await this.broker.call<{ chatbot: Chatbot; sources: Source[] }, object>("chatbots.get", { id: job.chatbot_id })).sources;
				} catch (err) {
					if (errorType(err) === "expired") return; // the chatbot is gone; nothing to crawl into
					throw err;
				}
				// A re-run after a crash skips pages the first run already added.
				const known = new Set(sources.filter(s => s.kind === "url" && s.url).map(s => s.url as string));
				const counts: CrawlCounts = { found: 1, crawled: 0, failed: 0 };
				await this.broker.call("chatbots.crawlProgress", { id: job.chatbot_id, ...counts });
				try {
					await crawlSite(job.url, {
						...this.pageOptions,
						maxPages: job.max_pages,
						onPage: async (page, progress) => {
							run.checkpoint();
							counts.found = progress.found;
							const outcome = page.status === "crawled" ? await this.addPage(job, page, known) : { refused: crawlPageFailureWords(page.reason) };
							let failure: { url: string; reason: string } | undefined;
							if (outcome === "added") counts.crawled++;
							else {
								counts.failed++;
								failure = { url: page.url, reason: outcome === "full" ? "The chatbot has no room for more pages." : outcome.refused };
							}
							await this.broker.call("chatbots.crawlProgress", { id: job.chatbot_id, ...counts, ...(failure ? { failure } : {}) });
							if (outcome === "full") throw new ChatbotFull();
						}
					});
				} catch (err) {
					if (!(err instanceof ChatbotFull)) throw err;
				}
				await this.broker.call("chatbots.crawlFinished", { id: job.chatbot_id, ...counts });
			},

			async giveUpJob(job: SiteCrawlJob, reason: string) {
				this.logger.warn(`Site crawl of chatbot ${job.chatbot_id} given up: ${reason}`);
				const { chatbot } = await this.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: job.chatbot_id, with_sources: false }).catch(() => ({ chatbot: null as Chatbot | null }));
				if (!chatbot) return;
				const { found, crawled, failed } = chatbot.crawl;
				await this.broker.call("chatbots.crawlFinished", { id: job.chatbot_id, found, crawled, failed });
			},

			/**
			 * Adds one crawled page as a ready `url` source. A page the chatbot already has counts as
			 * added; one refused by a cap is reported failed with the reason ("full" when no further page can fit).
			 */
			async addPage(job: SiteCrawlJob, page: CrawledPage, known: Set<string>) {
				if (known.has(page.url)) return "added";
				try {
					await this.broker.call("chatbots.addSource", { id: job.chatbot_id, kind: "url", status: "ready", url: page.url, title: page.title || null, text: page.text ?? "" });
					known.add(page.url);
					return "added";
				} catch (err) {
					const type = errorType(err);
					if (type === "url_cap" || type === "expired") return "full";
					if (type === "char_cap") return { refused: "Its text would pass the chatbot's training characters." };
					if (type === "empty" || type === "VALIDATION_ERROR") return { refused: "It has no readable text." };
					throw err;
				}
			}
		}
	};
}
