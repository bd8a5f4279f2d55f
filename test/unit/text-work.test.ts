/**
 * The off-thread entries of the crawler and the trainer (lib/crawl/page-text.ts,
 * lib/retrieval/chunk-in-worker.ts): the same results as the functions they wrap, and a typed
 * failure that callers can report when the worker's time limit ends a task.
 */
import { readHtmlPage, readPlainTextPage, readSitemap } from "../../lib/crawl/page-text";
import { extractLinks, parseSitemap } from "../../lib/crawl/page-links";
import { readableText } from "../../lib/crawl/readable-text";
import { normalizeText } from "../../lib/extract/plain-text";
import { fetchFailureReason } from "../../lib/failures";
import { chunkSourcesInWorker } from "../../lib/retrieval/chunk-in-worker";
import { chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import { WorkerTaskError } from "../../lib/workers/worker-pool";

const URL_ = "https://harbor.example/bikes";
const HTML = `<!doctype html><html><head><title>Bikes</title></head><body><nav><a href="/">Home</a></nav>
	<main><h1>City bikes</h1><p>A city bike costs 12 euros for the first hour.</p><a href="/prices#top">Prices</a> <a href="https://other.example/">Elsewhere</a></main></body></html>`;

const sources: ChunkSource[] = [
	{ chatbotId: "b", sourceId: "s1", kind: "text", title: "Guide", text: "# Rentals\n\nBikes are rented by the hour. Helmets are free.\n\n# Repairs\n\nFlat tyres are fixed while you wait." },
	{ chatbotId: "b", sourceId: "s2", kind: "qa", title: "Rain?", question: "Do you rent in the rain?", answer: "Yes, with a free poncho." }
];

it("reads a page, a plain-text page and a sitemap in the worker exactly as on the main thread", async () => {
	expect(await readHtmlPage(HTML, URL_, 20_000, true)).toEqual({ ...readableText(HTML, URL_), links: extractLinks(HTML, URL_) });
	expect((await readHtmlPage(HTML, URL_, 20_000)).links).toEqual([]);
	expect(await readPlainTextPage("Line one.  \r\n\r\n\r\nLine two.", URL_, 20_000)).toBe(normalizeText("Line one.  \r\n\r\n\r\nLine two."));
	const sitemap = "<urlset><url><loc> https://harbor.example/a?x=1&amp;y=2 </loc></url></urlset>";
	expect(await readSitemap(sitemap, URL_, 20_000)).toEqual(parseSitemap(sitemap));
});

it("a page whose reading passes the time limit is a fetch failure with reason timeout", async () => {
	const big = `<html><body>${"<p>Paragraph of text about bikes.</p>".repeat(50_000)}</body></html>`;
	const err = await readHtmlPage(big, URL_, 1).catch((e: unknown) => e);
	expect(fetchFailureReason(err)).toBe("timeout");
	expect((err as Error).message).toBe("Reading the page's text took longer than 1 ms.");
});

it("chunks in the worker exactly as on the main thread", async () => {
	expect(await chunkSourcesInWorker(sources)).toEqual(chunkSources(sources));
});

it("chunking that passes its time limit rejects with a WorkerTaskError saying why, for the training run to report", async () => {
	const long: ChunkSource[] = [{ chatbotId: "b", sourceId: "s", kind: "text", title: "Long", text: "Bikes are rented by the hour. ".repeat(200_000) }];
	const err = await chunkSourcesInWorker(long, 1).catch((e: unknown) => e);
	expect(err).toBeInstanceOf(WorkerTaskError);
	expect(err).toMatchObject({ kind: "timeout", message: "The sources could not be chunked: the task took longer than 1 ms." });
});
