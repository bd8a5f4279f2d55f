/**
 * Reading what the crawler fetched, off the event loop: the readable text and links of an HTML
 * page, a plain-text page, a sitemap and robots.txt rules each run in the text worker
 * (lib/workers/text-work.ts) with the crawl's time limit. A page whose reading fails is a fetch
 * failure like any other, so it is reported as a failed page (422 `empty` on the demo API).
 */
import { fetchFailure } from "../failures";
import type { PageText } from "../workers/text-tasks";
import { runTextTask } from "../workers/text-work";
import { WorkerTaskError } from "../workers/worker-pool";

export type { PageText } from "../workers/text-tasks";

/** The fetch failure for a page whose reading failed; errors that are not the worker's pass through. */
function readingFailure(err: unknown, url: string, timeoutMs: number): unknown {
	if (!(err instanceof WorkerTaskError)) return err;
	switch (err.kind) {
		case "timeout":
			return fetchFailure("timeout", `Reading the page's text took longer than ${timeoutMs} ms.`, { url });
		case "out_of_memory":
			return fetchFailure("too_large", "Reading the page needed more memory than a page of its size should.", { url });
		case "failed":
		case "crashed":
			return fetchFailure("empty", "The page's content could not be read.", { url });
		case "closed":
			return err;
	}
}

async function read<T>(work: Promise<T>, url: string, timeoutMs: number): Promise<T> {
	try {
		return await work;
	} catch (err) {
		throw readingFailure(err, url, timeoutMs);
	}
}

/** Title, main text and (when `links`) same-origin links of an HTML page. Rejects with a `fetchFailure`. */
export function readHtmlPage(html: string, url: string, timeoutMs: number, links = false): Promise<PageText> {
	return read(runTextTask("readPage", { html, url, links }, timeoutMs), url, timeoutMs);
}

/** A plain-text page, cleaned up as uploaded text files are. Rejects with a `fetchFailure`. */
export function readPlainTextPage(body: string, url: string, timeoutMs: number): Promise<string> {
	return read(runTextTask("normalizePlainText", body, timeoutMs), url, timeoutMs);
}

/** The `<loc>` entries of a sitemap. Rejects with a `fetchFailure`. */
export function readSitemap(xml: string, url: string, timeoutMs: number): Promise<string[]> {
	return read(runTextTask("readSitemap", xml, timeoutMs), url, timeoutMs);
}

/** Whether robots.txt (`robotsTxt`, fetched from `robotsUrl`) lets `userAgent` fetch `url`. Rejects with a `fetchFailure`. */
export function robotsAllows(robotsUrl: string, robotsTxt: string, url: string, userAgent: string, timeoutMs: number): Promise<boolean> {
	return read(runTextTask("robotsAllows", { robotsTxt, url, userAgent }, timeoutMs), robotsUrl, timeoutMs);
}
