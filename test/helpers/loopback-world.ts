/**
 * "The public internet" on loopback, for crawler tests that keep the SSRF guard on: 127.0.0.2 is
 * the only address the injected rule calls public, `public.test` resolves to it, `rebind.test`
 * answers 127.0.0.2 the first time and 127.0.0.1 (an internal service) every time after (DNS
 * rebinding), and every other name is unknown.
 */
import type { CrawlOptions } from "../../lib/crawl/fetch-page";
import type { LookupFn } from "../../lib/crawl/ssrf";

export interface LoopbackWorld {
	/** Crawl options with the injected DNS and address rule. */
	options: CrawlOptions;
	/** How many times each name was resolved since the last reset. */
	lookups: Record<string, number>;
	resetLookups(): void;
}

export function loopbackWorld(): LoopbackWorld {
	const lookups: Record<string, number> = {};
	const lookup: LookupFn = async hostname => {
		lookups[hostname] = (lookups[hostname] ?? 0) + 1;
		if (hostname === "public.test") return [{ address: "127.0.0.2", family: 4 }];
		if (hostname === "rebind.test") return [{ address: lookups[hostname] === 1 ? "127.0.0.2" : "127.0.0.1", family: 4 }];
		throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
	};
	return {
		options: {
			allowPrivate: false,
			timeoutMs: 10_000,
			maxBytes: 2_000_000,
			maxRedirects: 3,
			userAgent: "ChatbotBuilderBot/1.0 (+http://localhost/docs/guides/crawler)",
			lookup,
			isAllowedAddress: ip => ip === "127.0.0.2"
		},
		lookups,
		resetLookups() {
			for (const name of Object.keys(lookups)) delete lookups[name];
		}
	};
}
