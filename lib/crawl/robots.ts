/**
 * robots.txt: fetched through the guarded fetcher, parsed with robots-parser, cached per origin.
 *
 * Failure policy (a deliberate, documented choice):
 * - 4xx (typically 404): the site publishes no rules, so everything is allowed (RFC 9309 §2.3.1.3).
 * - 5xx, timeout, unreachable, oversized: also allowed. RFC 9309 §2.3.1.4 suggests assuming a full
 *   disallow here, but this crawler only fetches pages a person explicitly named, a handful at a time,
 *   and the page fetch that follows will fail on its own if the site is really down. Treating a broken
 *   robots.txt as "no rules" keeps a flaky robots endpoint from blocking a working site.
 * - An address the guard refuses: the page would be refused too, so the answer does not matter;
 *   we allow here and let the page fetch report `blocked_address` with the right reason.
 */
import robotsParser from "robots-parser";
import { fetchFailureReason } from "./fetch-failure";
import { CrawlOptions, fetchPage } from "./fetch-page";

type Robot = ReturnType<typeof robotsParser>;

export interface RobotsCacheOptions {
	/** How long an origin's rules are reused. */
	ttlMs?: number;
	/** Origins kept at once; the least recently used is dropped first. */
	maxOrigins?: number;
}

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; more than that is not worth holding. */
const MAX_ROBOTS_BYTES = 512 * 1024;

interface Entry {
	expires: number;
	rules: Promise<Robot | undefined>;
}

export class RobotsCache {
	private readonly entries = new Map<string, Entry>();
	private readonly ttlMs: number;
	private readonly maxOrigins: number;

	constructor(
		private readonly crawl: CrawlOptions,
		options: RobotsCacheOptions = {}
	) {
		this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
		this.maxOrigins = options.maxOrigins ?? 500;
	}

	/** True when robots.txt of the URL's origin lets `userAgent` (default: the crawl's) fetch it. */
	async isAllowed(url: string, userAgent: string = this.crawl.userAgent): Promise<boolean> {
		const robot = await this.rulesFor(new URL(url).origin);
		// robots-parser answers undefined for a URL outside the robots.txt's origin; ours never is.
		return robot?.isAllowed(url, userAgent) ?? true;
	}

	/** Sitemap URLs the origin's robots.txt declares. */
	async sitemaps(origin: string): Promise<string[]> {
		const robot = await this.rulesFor(origin);
		return robot?.getSitemaps() ?? [];
	}

	private rulesFor(origin: string): Promise<Robot | undefined> {
		const now = Date.now();
		const cached = this.entries.get(origin);
		if (cached && cached.expires > now) {
			// Re-insert so Map order tracks recency.
			this.entries.delete(origin);
			this.entries.set(origin, cached);
			return cached.rules;
		}
		const rules = this.load(origin);
		// A bug while loading must not be cached for the whole TTL.
		rules.catch(() => this.entries.delete(origin));
		this.entries.delete(origin);
		this.entries.set(origin, { expires: now + this.ttlMs, rules });
		while (this.entries.size > this.maxOrigins) {
			const oldest = this.entries.keys().next().value;
			if (oldest === undefined) break;
			this.entries.delete(oldest);
		}
		return rules;
	}

	private async load(origin: string): Promise<Robot | undefined> {
		const robotsUrl = `${origin}/robots.txt`;
		try {
			const page = await fetchPage(robotsUrl, {
				...this.crawl,
				maxBytes: Math.min(this.crawl.maxBytes, MAX_ROBOTS_BYTES),
				accept: ["text/plain", "text/html", "application/octet-stream"]
			});
			return robotsParser(robotsUrl, page.body);
		} catch (err) {
			// See the failure policy above: every failure means "no rules". An unexpected error (not a
			// fetch failure) is a bug and is not swallowed.
			if (fetchFailureReason(err) === undefined) throw err;
			return undefined;
		}
	}
}
