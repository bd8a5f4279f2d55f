/**
 * Memory, in one run:
 *
 * 1. Idle resident memory after start-up (health answering, then 5 s idle), each a process tree:
 *    - bare node:http (anchor: what any Node server costs);
 *    - `npm start` as it is (npm → tsx CLI → node with tsx hooks, plus esbuild);
 *    - `node --import tsx bin/start.ts`: the same app in one process, still compiling on the fly;
 *    - the production start: the build of `npm run build`, made into a temporary directory, run
 *      as `npm run start:prod` runs it (`node bin/start.js` in the build).
 * 2. A million distinct client addresses, one request each, on the `demo-api` budget: heap held
 *    afterwards by the gateway's limiter, beside rate-limiter-flexible's memory limiter that it
 *    replaced (memory/limiter-flood.ts, each in a process of its own).
 *
 * Run alone: `npx tsx bench/memory.bench.ts` (about a minute).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { idleMemory, IdleMemory } from "./memory/idle";
import { printMarkdownTable, runStandalone } from "./table";

const run$ = promisify(execFile);
const ROOT = path.resolve(__dirname, "..");
const IDLE_GOAL_MB = 150;

export interface MemoryResult {
	idle: Array<{ start: string; memory: IdleMemory }>;
	flood: Array<{ limiter: string; addresses: number; heapHeldMb: number; seconds: number }>;
}

/**
 * The production build (`npm run build`: tsc with tsconfig.build.json, then the files the code reads
 * at run time copied beside it) made into a temporary directory, so an operator's dist/ is left alone.
 */
async function productionBuild(): Promise<{ dir: string; remove(): void }> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-build-"));
	await run$(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", path.join(ROOT, "tsconfig.build.json"), "--outDir", dir], { cwd: ROOT, maxBuffer: 16 << 20 });
	await run$(process.execPath, [path.join(ROOT, "scripts/copy-build-files.js"), dir], { cwd: ROOT });
	for (const name of ["node_modules", "package.json"]) fs.symlinkSync(path.join(ROOT, name), path.join(dir, name));
	return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function flood(limiter: "project" | "flexible"): Promise<MemoryResult["flood"][number]> {
	const { stdout } = await run$(process.execPath, ["--expose-gc", "--no-deprecation", "--import", "tsx", path.join(__dirname, "memory/limiter-flood.ts"), limiter], {
		cwd: ROOT,
		maxBuffer: 1 << 20,
		timeout: 600_000
	});
	const result = JSON.parse(stdout) as { addresses: number; heapHeldMb: number; seconds: number };
	return { limiter, ...result };
}

export async function run(): Promise<MemoryResult> {
	const node = process.execPath;
	const idle: MemoryResult["idle"] = [];
	const bare = "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1')";
	idle.push({ start: "bare node:http (anchor)", memory: await idleMemory(node, ["-e", bare], { cwd: ROOT, healthPath: "/" }) });
	const npm = path.join(path.dirname(node), "npm");
	idle.push({ start: "npm start (npm → tsx → node)", memory: await idleMemory(fs.existsSync(npm) ? npm : "npm", ["start"], { cwd: ROOT, healthPath: "/v2/health" }) });
	idle.push({ start: "node --import tsx bin/start.ts", memory: await idleMemory(node, ["--import", "tsx", "bin/start.ts"], { cwd: ROOT, healthPath: "/v2/health" }) });
	const build = await productionBuild();
	try {
		idle.push({ start: "npm run build, then node dist/bin/start.js (start:prod)", memory: await idleMemory(node, ["bin/start.js"], { cwd: build.dir, healthPath: "/v2/health" }) });
	} finally {
		build.remove();
	}
	return { idle, flood: [await flood("project"), await flood("flexible")] };
}

const mb = (n: number) => n.toFixed(0);

/** The process running the services: the largest of the tree (npm and the tsx CLI only wait on it). */
function appProcessMb(memory: IdleMemory): number {
	return Math.max(...memory.processes.map(p => p.rssMb));
}

export function printTable(result: MemoryResult): void {
	printMarkdownTable(
		result.idle.map(({ start, memory }) => ({
			start,
			processes: String(memory.processes.length),
			"whole tree MB": mb(memory.totalMb),
			"app process MB": mb(appProcessMb(memory)),
			[`app < ${IDLE_GOAL_MB} MB`]: start.includes("anchor") ? "" : appProcessMb(memory) < IDLE_GOAL_MB ? "yes" : "no",
			tree: memory.processes.map(p => `${p.command} ${mb(p.rssMb)}`).join("; ")
		})),
		"Idle resident memory after start-up (all services, embedded back ends)"
	);
	console.log("");
	printMarkdownTable(
		result.flood.map(f => ({
			limiter: f.limiter === "project" ? "gateway's limiter (capped windows)" : "rate-limiter-flexible memory (before)",
			addresses: f.addresses.toLocaleString("en-US"),
			"heap held MB": f.heapHeldMb.toFixed(1),
			"seconds": f.seconds.toFixed(1)
		})),
		"One request from each of a million client addresses on the demo-api budget"
	);
}

if (require.main === module) runStandalone("Memory", run, printTable);
