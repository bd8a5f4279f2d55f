/**
 * The chat baseline: the library's answer path called directly in one process, with no HTTP, bus
 * or database — build the question's query, search the generation index, run the extractive
 * answerer — one call after another for the measuring window.
 */
import { lexiconFor, loadLexicons } from "../../lib/answer/lexicon";
import { questionQuery, RETRIEVE_LIMIT } from "../../lib/answer/retrieval-query";
import { answerQuestion } from "../../lib/chat/answer";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import type { IndexedChunk } from "../../lib/retrieval/vector-index";
import type { LoadOptions, LoadResult } from "../load/client";

async function answerOnce(index: GenerationIndex, question: string): Promise<string> {
	const { sparse } = questionQuery(question, [], "en");
	const hits = index.search({ sparse }, RETRIEVE_LIMIT);
	let text = "";
	for await (const event of answerQuestion({ question, locale: "en", hits, history: [], ...lexiconFor("en") })) {
		if (event.type === "token") text += event.text;
	}
	return text;
}

export async function measureDirect(items: readonly IndexedChunk[], question: string, options: LoadOptions): Promise<LoadResult & { sample: string }> {
	loadLexicons();
	const index = new GenerationIndex();
	for (const item of items) index.add(item);
	const sample = await answerOnce(index, question);
	const warmupEnd = performance.now() + options.warmupMs;
	while (performance.now() < warmupEnd) await answerOnce(index, question);
	const latencies: number[] = [];
	const started = performance.now();
	const end = started + options.durationMs;
	while (performance.now() < end) {
		const t = performance.now();
		await answerOnce(index, question);
		latencies.push(performance.now() - t);
	}
	const seconds = (performance.now() - started) / 1000;
	const sorted = Float64Array.from(latencies).sort();
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
	return { requests: sorted.length, requestsPerSecond: sorted.length / seconds, p50Ms: at(50), p99Ms: at(99), sample };
}
