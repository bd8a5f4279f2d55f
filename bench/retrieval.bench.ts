/**
 * Retrieval benchmark for the embedded vector index: indexing throughput and query latency
 * (p50/p95) at 1,000 and 100,000 chunks, each beside a brute-force baseline measured in the same
 * run over the very same vectors.
 *
 * - Corpus: synthetic English-like text (a Zipf-distributed vocabulary of pseudo-words, plus real
 *   stop words), cut into chunks by the real chunker, vectorised by the real analyser + BM25.
 * - Indexing: `upsert` (segment file written and fsynced, inverted index built) plus `activate`,
 *   against the baseline of only keeping the vectors in an array (no persistence, no index).
 *   Vectorisation (tokenise, stem, BM25) is reported once: both sides need it.
 * - Queries: 3-4 content words drawn from a random chunk, as a question about it would be. The
 *   embedded index is queried through its public `search`; the baseline scans every chunk's
 *   sparse vector with the same IDF. Their top-10 scores are compared, so speed is not bought
 *   with wrong answers.
 *
 * Run: `npx tsx bench/retrieval.bench.ts`. `run()` returns the rows for an aggregator.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chunkSource, Chunk } from "../lib/retrieval/chunker";
import { EmbeddedVectorIndex } from "../lib/retrieval/embedded-index";
import { bm25Idf, SparseVector } from "../lib/retrieval/sparse";
import type { IndexedChunk, IndexQuery } from "../lib/retrieval/vector-index";
import { vectorizeChunks, vectorizeQuery } from "../lib/retrieval/vectorize";
import { extractiveAnswer } from "../lib/answer/extractive";
import { lexiconFor } from "../lib/answer/lexicon";
import { questionQuery, RETRIEVE_LIMIT } from "../lib/answer/retrieval-query";
import { extractiveAnswer as baselineAnswer } from "./answers/baseline-extractive";
import { prng } from "../lib/random/prng";
import { MAX_CHAT_MESSAGE_CHARS } from "../lib/chat/wire";
import { printMarkdownTable, runStandalone } from "./table";

export interface BenchRow {
	chunks: number;
	metric: string;
	unit: string;
	/** The embedded index. */
	value: number;
	/** The brute-force baseline, measured in the same run. */
	baseline: number;
	note?: string;
}

export interface RetrievalBenchOptions {
	sizes?: number[];
	queries?: number;
	limit?: number;
}


const STOP = ["the", "of", "and", "to", "a", "in", "is", "for", "on", "with", "that", "by", "it", "as", "are", "from"];
const SYLLABLES = ["ka", "lo", "mi", "ter", "san", "vel", "ro", "qui", "den", "ax", "po", "lur", "zen", "fi", "mar", "tol", "be", "nu", "gra", "sho"];

function vocabulary(size: number, random: () => number): string[] {
	const words = new Set<string>();
	while (words.size < size) {
		const syllables = 2 + Math.floor(random() * 3);
		let word = "";
		for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
		words.add(word);
	}
	return [...words];
}

/** Samples word ranks with P(rank r) ∝ 1/r^1.07, like word frequencies in prose. */
function zipfSampler(n: number, random: () => number): () => number {
	const cumulative = new Float64Array(n);
	let total = 0;
	for (let r = 0; r < n; r++) cumulative[r] = total += 1 / Math.pow(r + 1, 1.07);
	return () => {
		const target = random() * total;
		let lo = 0;
		let hi = n - 1;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (cumulative[mid] < target) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
}

function corpus(chunkCount: number, seed: number): Chunk[] {
	const random = prng(seed);
	const words = vocabulary(30_000, random);
	const rank = zipfSampler(words.length, random);
	const chunks: Chunk[] = [];
	let source = 0;
	while (chunks.length < chunkCount) {
		const paragraphs: string[] = [];
		for (let p = 0; p < 6; p++) {
			const sentences: string[] = [];
			for (let s = 0; s < 5; s++) {
				const length = 8 + Math.floor(random() * 12);
				const sentence = Array.from({ length }, () => (random() < 0.35 ? STOP[Math.floor(random() * STOP.length)] : words[rank()]));
				sentences.push(`${sentence.join(" ").replace(/^./, c => c.toUpperCase())}.`);
			}
			paragraphs.push(sentences.join(" "));
		}
		const text = `# Section ${source}\n${paragraphs.join("\n\n")}`;
		chunks.push(...chunkSource({ chatbotId: "bench", sourceId: `doc-${source++}`, kind: "text", title: `Doc ${source}`, text }));
	}
	return chunks.slice(0, chunkCount);
}

function questions(chunks: Chunk[], count: number, seed: number): string[] {
	const random = prng(seed);
	return Array.from({ length: count }, () => {
		const words = chunks[Math.floor(random() * chunks.length)].text.toLowerCase().match(/[a-z]+/g) ?? [];
		const content = words.filter(w => !STOP.includes(w));
		const picked = new Set<string>();
		const want = 3 + Math.floor(random() * 2);
		while (picked.size < Math.min(want, content.length)) picked.add(content[Math.floor(random() * content.length)]);
		return [...picked].join(" ");
	});
}

/**
 * The longest messages the chat API takes (`MAX_CHAT_MESSAGE_CHARS`): words of random chunks up to
 * that length, some 300 distinct terms, where a question has a handful. Every term is weighed
 * against every word of the retrieved passages, so these show how the answer's cost grows with a
 * message's length.
 */
function longMessages(chunks: Chunk[], count: number, seed: number): string[] {
	const random = prng(seed);
	return Array.from({ length: count }, () => {
		let message = "";
		while (message.length < MAX_CHAT_MESSAGE_CHARS) {
			const words = chunks[Math.floor(random() * chunks.length)].text.match(/[a-z]+/g) ?? [];
			message += `${words.join(" ")} `;
		}
		return message.slice(0, MAX_CHAT_MESSAGE_CHARS);
	});
}

/** The baseline: every chunk's sparse vector in an array, scanned in full for each query. */
class BruteForce {
	private readonly docs: SparseVector[] = [];
	private readonly docFreq = new Map<number, number>();

	add(items: readonly IndexedChunk[]): void {
		for (const { sparse } of items) {
			this.docs.push(sparse);
			for (const id of sparse.indices) this.docFreq.set(id, (this.docFreq.get(id) ?? 0) + 1);
		}
	}

	search(query: SparseVector, limit: number): Array<{ doc: number; score: number }> {
		const weights = new Map<number, number>();
		query.indices.forEach((id, i) => {
			const df = this.docFreq.get(id);
			if (df) weights.set(id, query.values[i] * bm25Idf(this.docs.length, df));
		});
		const scored: Array<{ doc: number; score: number }> = [];
		this.docs.forEach((doc, index) => {
			let score = 0;
			for (let i = 0; i < doc.indices.length; i++) {
				const w = weights.get(doc.indices[i]);
				if (w !== undefined) score += w * doc.values[i];
			}
			if (score > 0) scored.push({ doc: index, score });
		});
		return scored.sort((a, b) => b.score - a.score || a.doc - b.doc).slice(0, limit);
	}
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function elapsedMs(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Whole questions timed per answerer, after 10 untimed ones (JIT and lazy loading). */
const ANSWER_QUESTIONS = 1000;
/** Longest messages timed per answerer (each takes tens of milliseconds). */
const LONG_MESSAGES = 100;

/** Times `work` on each question but the first 10; returns the times sorted, in ms. */
async function timeEach(questionList: string[], work: (question: string) => Promise<void>): Promise<number[]> {
	const times: number[] = [];
	for (const [q, question] of questionList.entries()) {
		const start = process.hrtime.bigint();
		await work(question);
		if (q >= 10) times.push(elapsedMs(start));
	}
	return times.sort((a, b) => a - b);
}

async function measureSize(size: number, queryCount: number, limit: number): Promise<BenchRow[]> {
	const chunks = corpus(size, 42);
	let start = process.hrtime.bigint();
	const items = await vectorizeChunks(chunks, { locale: "en" });
	const vectorizeMs = elapsedMs(start);

	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "retrieval-bench-"));
	try {
		const index = new EmbeddedVectorIndex({ dir });
		const batch = 1000;
		start = process.hrtime.bigint();
		for (let i = 0; i < items.length; i += batch) await index.upsert("bench", 1, items.slice(i, i + batch));
		await index.activate("bench", 1);
		const indexMs = elapsedMs(start);

		const brute = new BruteForce();
		start = process.hrtime.bigint();
		for (let i = 0; i < items.length; i += batch) brute.add(items.slice(i, i + batch));
		const bruteIndexMs = elapsedMs(start);

		const queries: IndexQuery[] = [];
		for (const question of questions(chunks, queryCount + 10, 7)) queries.push(await vectorizeQuery(question, { locale: "en" }));

		const indexTimes: number[] = [];
		const bruteTimes: number[] = [];
		let agree = 0;
		for (const [q, query] of queries.entries()) {
			start = process.hrtime.bigint();
			const hits = await index.search("bench", query, limit);
			const indexTime = elapsedMs(start);
			start = process.hrtime.bigint();
			const expected = brute.search(query.sparse, limit);
			const bruteTime = elapsedMs(start);
			if (q < 10) continue; // warm-up: JIT and lazy loading
			indexTimes.push(indexTime);
			bruteTimes.push(bruteTime);
			// Same scores in the same order. Many synthetic chunks tie exactly, and which of several tied chunks
			// fills the last places is arbitrary, so scores (not chunk ids) are compared.
			const same =
				hits.length === expected.length &&
				hits.every((hit, i) => Math.abs(hit.score - expected[i].score) <= 1e-9 * Math.max(1, expected[i].score));
			if (same) agree++;
		}
		// A whole question as the chat service answers it (query with context, 16 chunks, passage
		// answer with the word vectors) beside the answerer before issue 12 (plain query, 8 chunks).
		// Each answerer runs its own loop, so its garbage is collected in its own timings, and over
		// ANSWER_QUESTIONS questions: with about 100, a few pauses (probably collections of the large
		// index heap) decided the p95 (5 to 23 ms between runs of one build, the median steady).
		const lexicon = lexiconFor("en");
		const answered = questions(chunks, ANSWER_QUESTIONS + 10, 11);
		const answerTimes = await timeEach(answered, async question => {
			const hits = await index.search("bench", { sparse: questionQuery(question, [], "en").sparse }, RETRIEVE_LIMIT);
			extractiveAnswer({ question, locale: "en", hits, ...lexicon });
		});
		const oldAnswerTimes = await timeEach(answered, async question => {
			const oldHits = await index.search("bench", await vectorizeQuery(question, { locale: "en" }), 8);
			baselineAnswer({ question, locale: "en", hits: oldHits });
		});
		const longest = longMessages(chunks, LONG_MESSAGES + 10, 13);
		const longTimes = await timeEach(longest, async message => {
			const hits = await index.search("bench", { sparse: questionQuery(message, [], "en").sparse }, RETRIEVE_LIMIT);
			extractiveAnswer({ question: message, locale: "en", hits, ...lexicon });
		});
		const oldLongTimes = await timeEach(longest, async message => {
			const oldHits = await index.search("bench", await vectorizeQuery(message, { locale: "en" }), 8);
			baselineAnswer({ question: message, locale: "en", hits: oldHits });
		});
		await index.close();
		indexTimes.sort((a, b) => a - b);
		bruteTimes.sort((a, b) => a - b);
		const agreement = `top-${limit} scores equal brute force's for ${agree}/${indexTimes.length} queries`;
		return [
			{ chunks: size, metric: "vectorise (tokenise, stem, BM25)", unit: "chunks/s", value: size / (vectorizeMs / 1000), baseline: size / (vectorizeMs / 1000), note: "shared by both" },
			{ chunks: size, metric: "index (upsert + activate)", unit: "chunks/s", value: size / (indexMs / 1000), baseline: size / (bruteIndexMs / 1000), note: "baseline keeps vectors in memory only" },
			{ chunks: size, metric: "query p50", unit: "ms", value: percentile(indexTimes, 50), baseline: percentile(bruteTimes, 50), note: agreement },
			{ chunks: size, metric: "query p95", unit: "ms", value: percentile(indexTimes, 95), baseline: percentile(bruteTimes, 95) },
			{ chunks: size, metric: "question answered p50", unit: "ms", value: percentile(answerTimes, 50), baseline: percentile(oldAnswerTimes, 50), note: "query + search + extractive answer; baseline = answerer before issue 12" },
			{ chunks: size, metric: "question answered p95", unit: "ms", value: percentile(answerTimes, 95), baseline: percentile(oldAnswerTimes, 95) },
			{ chunks: size, metric: `${MAX_CHAT_MESSAGE_CHARS.toLocaleString("en")}-character message answered p50`, unit: "ms", value: percentile(longTimes, 50), baseline: percentile(oldLongTimes, 50), note: "the longest message the chat API takes" },
			{ chunks: size, metric: `${MAX_CHAT_MESSAGE_CHARS.toLocaleString("en")}-character message answered p95`, unit: "ms", value: percentile(longTimes, 95), baseline: percentile(oldLongTimes, 95) }
		];
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

export async function run(options: RetrievalBenchOptions = {}): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	for (const size of options.sizes ?? [1_000, 100_000]) {
		rows.push(...(await measureSize(size, options.queries ?? (size > 10_000 ? 100 : 300), options.limit ?? 10)));
	}
	return rows;
}

function format(value: number, unit: string): string {
	return unit === "ms" ? value.toFixed(3) : Math.round(value).toLocaleString("en-US");
}

export function printTable(rows: BenchRow[]): void {
	const table = rows.map(r => ({
		chunks: r.chunks.toLocaleString("en-US"),
		metric: r.metric,
		"embedded index": `${format(r.value, r.unit)} ${r.unit}`,
		"brute-force baseline": `${format(r.baseline, r.unit)} ${r.unit}`,
		note: r.note ?? ""
	}));
	printMarkdownTable(table);
}

if (require.main === module) runStandalone("retrieval", run, printTable);
