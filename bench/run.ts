/**
 * `npm run bench`: every benchmark in turn, each printing its table beside the baseline it measured
 * in the same run; `npm run bench -- gateway chat` (or `BENCH=gateway,chat`) runs the named ones only. A benchmark file that
 * is not there (yet) is skipped with a note.
 */
import * as fs from "node:fs";
import * as path from "node:path";

interface BenchModule {
	run(): Promise<unknown[]>;
	printTable(rows: unknown[]): void;
}

function isBenchModule(value: unknown): value is BenchModule {
	const m = value as Partial<BenchModule> | null;
	return typeof m?.run === "function" && typeof m?.printTable === "function";
}

/**
 * A benchmark loaded by file name when its section runs, so the aggregator runs whichever exist and
 * a section run alone (`npm run bench -- gateway`) does not load the others' data sets.
 */
async function optional(file: string): Promise<BenchModule | undefined> {
	const full = path.join(__dirname, file);
	if (!fs.existsSync(full)) return undefined;
	const loaded: unknown = await import(full);
	return isBenchModule(loaded) ? loaded : undefined;
}

async function section(title: string, bench: BenchModule | undefined): Promise<void> {
	console.log(`\n## ${title}\n`);
	if (!bench) {
		console.log("(not present, skipped)");
		return;
	}
	const started = Date.now();
	bench.printTable(await bench.run());
	console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Each section by the name `npm run bench -- <name> [name…]` (or `BENCH=a,b`) selects; no name runs them all. */
const SECTIONS: Array<{ name: string; title: string; load: () => Promise<BenchModule | undefined> }> = [
	{ name: "training", title: "Training: train call to ready", load: () => optional("training.bench.ts") },
	{ name: "retrieval", title: "Retrieval: embedded index", load: () => optional("retrieval.bench.ts") },
	{ name: "answers", title: "Answer quality: dev set, baseline beside the new answerer", load: () => optional("answers.bench.ts") },
	{ name: "answers-e2e", title: "Answer quality end to end: crawled, trained, asked over HTTP", load: () => optional("answers-e2e.bench.ts") },
	{ name: "gateway", title: "Public hot paths under load, beside bare node and the MCP SDK", load: () => optional("gateway.bench.ts") },
	{ name: "chat", title: "Chat API at 10,000 indexed chunks: HTTP, over NATS, and the answer function called directly", load: () => optional("chat.bench.ts") },
	{ name: "store", title: "Document store: lookups by field at 1,000 and 20,000 documents, indexed beside unindexed", load: () => optional("store.bench.ts") },
	{ name: "memory", title: "Memory: idle process, and a million client addresses on a rate-limited route", load: () => optional("memory.bench.ts") },
	{ name: "question-groups", title: "Improve page: grouping alike questions", load: () => optional("question-groups.bench.ts") }
];

async function main(): Promise<void> {
	const wanted = [...process.argv.slice(2), ...(process.env.BENCH ?? "").split(",")].map(name => name.trim()).filter(Boolean);
	const unknown = wanted.filter(name => !SECTIONS.some(s => s.name === name));
	if (unknown.length > 0) throw new Error(`No benchmark named ${unknown.join(", ")}; choose from ${SECTIONS.map(s => s.name).join(", ")}.`);
	for (const { name, title, load } of SECTIONS) {
		if (wanted.length === 0 || wanted.includes(name)) await section(title, await load());
	}
}

main().catch(err => {
	console.error(err);
	process.exitCode = 1;
});
