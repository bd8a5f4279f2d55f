/**
 * robots.txt: fetched through the guarded fetcher, cached per origin, read and matched
 * (robots-rules.ts) in the text worker, with the crawl's time limit.
 *
 * Failure policy (a deliberate, documented choice):
 * - 4xx (typically 404): the site publishes no rules, so everything is allowed (RFC 9309 §2.3.1.3).
 * - 5xx, timeout, unreachable, oversized: also allowed. RFC 9309 §2.3.1.4 suggests assuming a full
 *   disallow here, but this crawler only fetches pages a person explicitly named, a handful at a time,
 *   and the page fetch that follows will fail on its own if the site is really down. Treating a broken
 *   robots.txt as "no rules" keeps a flaky robots endpoint from blocking a working site.
 * - An address the guard refuses: the page would be refused too, so the answer does not matter;
 *   we allow here and let the page fetch report `blocked_address` with the right reason.
 * - Rules that cannot be matched within the crawl's time limit: disallowed. The site did publish rules
 *   (hostile or enormous ones); when we cannot tell what they say, we do not take the page, whatever
 *   the machine's speed.
 */
import { RecentMap } from "../cache/recent-map";
import { fetchFailureReason } from "../failures";
import { CrawlOptions, fetchPage } from "./fetch-page";
import { robotsAllows } from "./page-text";

/** A fetched robots.txt, or undefined when the origin has none that can be used. */
type Robots = { url: string; text: string } | undefined;

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
	rules: Promise<Robots>;
}

export class RobotsCache {
	private readonly entries: RecentMap<string, Entry>;
	private readonly ttlMs: number;

	constructor(
		private readonly crawl: CrawlOptions,
		options: RobotsCacheOptions = {}
	) {
		this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
		this.entries = new RecentMap(options.maxOrigins ?? 500);
	}

	/** True when robots.txt of the URL's origin lets `userAgent` (default: the crawl's) fetch it. */
	async isAllowed(url: string, userAgent: string = this.crawl.userAgent): Promise<boolean> {
		const robots = await this.rulesFor(new URL(url).origin);
		if (!robots) return true;
		try {
			return await robotsAllows(robots.url, robots.text, url, userAgent, this.crawl.timeoutMs);
		} catch (err) {
			if (fetchFailureReason(err) === undefined) throw err;
			return false;
		}
	}

	private rulesFor(origin: string): Promise<Robots> {
		const now = Date.now();
		const cached = this.entries.get(origin);
		if (cached && cached.expires > now) return cached.rules;
		const rules = this.load(origin);
		// A bug while loading must not be cached for the whole TTL.
		rules.catch(() => this.entries.delete(origin));
		this.entries.set(origin, { expires: now + this.ttlMs, rules });
		return rules;
	}

	private async load(origin: string): Promise<Robots> {
		const robotsUrl = `${origin}/robots.txt`;
		try {
			const page = await fetchPage(robotsUrl, {
				...this.crawl,
				maxBytes: Math.min(this.crawl.maxBytes, MAX_ROBOTS_BYTES),
				accept: ["text/plain", "text/html", "application/octet-stream"]
			});
			return { url: robotsUrl, text: page.body };
		} catch (err) {
			// See the failure policy above: every failure means "no rules". An unexpected error (not a
			// fetch failure) is a bug and is not swallowed.
			if (fetchFailureReason(err) === undefined) throw err;
			return undefined;
		}
	}
}
