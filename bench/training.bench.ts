/**
 * Training benchmark: time from the train call to `ready` for 50,000 characters of text, and
 * chunks indexed per second, through the real services in one process (chatbots, trainer and
 * vectors on the local bus, the in-memory channel adapter, NeDB documents, the embedded vector
 * index on disk, no embeddings endpoint), beside baselines measured in the same run on the same
 * text:
 *
 * - "library pipeline": the same work without the services — chunk, vectorise, upsert and
 *   activate into an EmbeddedVectorIndex directly — so the difference is the cost of the bus, the
 *   durable job (stored, sent, claimed, finished) and the chatbot's state changes;
 * - "chunk + vectorise": the CPU part alone (no persistence at all).
 *
 * The text is a synthetic handbook (headings, paragraphs, list items) of English sentences drawn
 * from a fixed vocabulary with a seeded generator, so every run measures the same input. Each
 * measurement is repeated and the median reported.
 *
 * Run: `npx tsx bench/training.bench.ts`. `run()` returns the rows for an aggregator.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Context, ServiceSchema } from "moleculer";
import { DEMO_LIMITS } from "../lib/chatbots/model";
import { chunkSources } from "../lib/retrieval/chunker";
import { EmbeddedVectorIndex } from "../lib/retrieval/embedded-index";
import { vectorizeChunks } from "../lib/retrieval/vectorize";
import { chunkSourcesOf } from "../lib/training/sources";
import { startApp } from "../test/helpers/app";
import { prng } from "../lib/random/prng";
import { printMarkdownTable, runStandalone } from "./table";

export interface TrainingBenchRow {
	metric: string;
	unit: string;
	/** Through the services (train call to ready). */
	value: number;
	baseline: number;
	baselineName: string;
	note?: string;
}

export interface TrainingBenchOptions {
	chars?: number;
	runs?: number;
}


const SUBJECTS = ["The kettle", "Each filter", "The warranty", "Our workshop", "The base", "A replacement lid", "The heating element", "Every order", "The help desk", "The descaling kit"];
const VERBS = ["covers", "needs", "includes", "protects", "requires", "supports", "replaces", "ships with", "answers", "keeps"];
const OBJECTS = ["the switch and the cord", "a dry cloth once a week", "citric acid every eleven weeks", "spare parts for five years", "orders inside Norway", "questions on weekdays", "the limescale filter", "a two-year guarantee", "the glass jug", "the temperature dial"];
const TAILS = ["without extra cost", "from the day of delivery", "in the Bergen workshop", "when the light turns red", "for all models since 2019", "unless the seal is broken", "within two working days", "as the manual explains"];

/** About `chars` characters of handbook text, cut at a sentence boundary. */
export function handbookText(chars: number, seed = 7): string {
	const random = prng(seed);
	const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
	const parts: string[] = [];
	let length = 0;
	let section = 0;
	while (length < chars) {
		const block =
			random() < 0.12
				? `Section ${++section}: ${pick(SUBJECTS).replace(/^The |^Each |^Our |^A |^Every /, "")}`
				: Array.from({ length: 2 + Math.floor(random() * 4) }, () => `${pick(SUBJECTS)} ${pick(VERBS)} ${pick(OBJECTS)} ${pick(TAILS)}.`).join(" ");
		const prefix = random() < 0.1 ? "- " : "";
		parts.push(prefix + block);
		length += block.length + prefix.length + 2;
	}
	return parts.join("\n\n").slice(0, chars).replace(/[^.]*$/, "");
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Waits for `chatbot.trained` of one chatbot (emitted once it is ready). */
function trainedWatcher(): { service: ServiceSchema; next(chatbotId: string): Promise<{ chunks: number }> } {
	const waiting = new Map<string, (chunks: number) => void>();
	return {
		service: {
			name: "bench-trained-watcher",
			events: {
				"chatbot.trained"(ctx: Context<{ chatbot_id: string; chunks: number }>) {
					const { chatbot_id, chunks } = ctx.params;
					waiting.get(chatbot_id)?.(chunks);
					waiting.delete(chatbot_id);
				}
			}
		},
		next: chatbotId => new Promise(resolve => waiting.set(chatbotId, chunks => resolve({ chunks })))
	};
}

async function libraryPipeline(text: string, dir: string, id: string): Promise<{ ms: number; chunks: number; cpuMs: number }> {
	const sources = chunkSourcesOf([{ _id: "s1", chatbot_id: id, kind: "text", url: null, title: null, file_name: null, question: null, answer: null, text }], "en");
	const index = new EmbeddedVectorIndex({ dir });
	const started = performance.now();
	const chunks = chunkSources(sources);
	const items = await vectorizeChunks(chunks, { locale: "en" });
	const cpuMs = performance.now() - started;
	for (let i = 0; i < items.length; i += 200) await index.upsert(id, 1, items.slice(i, i + 200));
	await index.activate(id, 1);
	const ms = performance.now() - started;
	await index.close();
	return { ms, chunks: chunks.length, cpuMs };
}

export async function run(options: TrainingBenchOptions = {}): Promise<TrainingBenchRow[]> {
	const chars = options.chars ?? 50_000;
	const runs = options.runs ?? 15;
	const text = handbookText(chars);
	const watcher = trainedWatcher();
	const app = await startApp({ env: { SERVICES: "chatbots,trainer,vectors", LOG_LEVEL: "error" }, extraServices: [watcher.service] });
	const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-train-bench-"));
	try {
		const service: number[] = [];
		const library: number[] = [];
		const cpu: number[] = [];
		let chunks = 0;
		// One unmeasured round of each warms up the JIT and the stores.
		for (let round = -1; round < runs; round++) {
			const chatbot = await app.broker.call<{ _id: string }, object>("chatbots.create", { kind: "demo", locale: "en", limits: DEMO_LIMITS, ttl_ms: 3_600_000 });
			await app.broker.call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text });
			const trained = watcher.next(chatbot._id);
			const started = performance.now();
			await app.broker.call("trainer.start", { chatbot_id: chatbot._id });
			const done = await trained;
			const elapsed = performance.now() - started;
			const direct = await libraryPipeline(text, path.join(scratch, `r${round + 1}`), chatbot._id);
			if (done.chunks !== direct.chunks) throw new Error(`The service indexed ${done.chunks} chunks, the library ${direct.chunks}`);
			if (round < 0) continue;
			service.push(elapsed);
			library.push(direct.ms);
			cpu.push(direct.cpuMs);
			chunks = done.chunks;
		}
		const note = `${text.length.toLocaleString("en-US")} characters, ${chunks} chunks, median of ${runs}`;
		return [
			{ metric: "train call → ready", unit: "ms", value: median(service), baseline: median(library), baselineName: "library pipeline", note },
			{ metric: "chunks indexed per second", unit: "chunks/s", value: chunks / (median(service) / 1000), baseline: chunks / (median(library) / 1000), baselineName: "library pipeline" },
			{ metric: "train call → ready", unit: "ms", value: median(service), baseline: median(cpu), baselineName: "chunk + vectorise only", note: "CPU part alone, nothing stored" }
		];
	} finally {
		await app.stop();
		fs.rmSync(scratch, { recursive: true, force: true });
	}
}

function format(value: number, unit: string): string {
	return unit === "ms" ? value.toFixed(1) : Math.round(value).toLocaleString("en-US");
}

export function printTable(rows: TrainingBenchRow[]): void {
	const table = rows.map(r => ({
		metric: r.metric,
		"through the services": `${format(r.value, r.unit)} ${r.unit}`,
		baseline: `${format(r.baseline, r.unit)} ${r.unit}`,
		"baseline is": r.baselineName,
		note: r.note ?? ""
	}));
	printMarkdownTable(table, "Training (embedded index, no embeddings endpoint, services in one process)");
}

if (require.main === module) runStandalone("training", run, printTable);
