/**
 * `npm run bench`: every benchmark in turn, each printing its table beside the baseline it measured
 * in the same run. A benchmark file that is not there (yet) is skipped with a note.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as retrieval from "./retrieval.bench";
import * as training from "./training.bench";

interface BenchModule {
	run(): Promise<unknown[]>;
	printTable(rows: unknown[]): void;
}

function isBenchModule(value: unknown): value is BenchModule {
	const m = value as Partial<BenchModule> | null;
	return typeof m?.run === "function" && typeof m?.printTable === "function";
}

/** A benchmark loaded by file name, so the aggregator runs whichever exist. */
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

async function main(): Promise<void> {
	await section("Training: train call to ready", training as unknown as BenchModule);
	await section("Retrieval: embedded index", retrieval as unknown as BenchModule);
	await section("MCP tool server", await optional("mcp.bench.ts"));
}

main().catch(err => {
	console.error(err);
	process.exitCode = 1;
});
