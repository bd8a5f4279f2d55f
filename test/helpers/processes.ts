/**
 * Runs a service node as a separate OS process through the real runner (`bin/start.ts`) or a
 * test entry point, with its own environment, and stops it.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export interface NodeProcess {
	child: ChildProcess;
	output(): string;
	stop(signal?: NodeJS.Signals): Promise<void>;
	exited: Promise<number | null>;
}

const ROOT = path.resolve(__dirname, "../..");

export function startNodeProcess(entry: string, env: Record<string, string>): NodeProcess {
	const tsx = path.join(ROOT, "node_modules", ".bin", "tsx");
	const child = spawn(tsx, [path.join(ROOT, entry)], {
		cwd: ROOT,
		env: { ...process.env, NODE_OPTIONS: "", LOG_LEVEL: "warn", SINGLE_MACHINE: "true", ...env },
		stdio: ["ignore", "pipe", "pipe"]
	});
	let output = "";
	child.stdout?.on("data", d => (output += d.toString()));
	child.stderr?.on("data", d => (output += d.toString()));
	const exited = new Promise<number | null>(resolve => child.once("exit", code => resolve(code)));
	return {
		child,
		output: () => output,
		exited,
		async stop(signal = "SIGTERM") {
			if (child.exitCode !== null || child.signalCode !== null) return;
			// tsx relays SIGTERM to the service node it started, but nothing relays SIGKILL: killing tsx
			// alone left the node running, orphaned (the fault test leaked its restarted nodes).
			const pid = child.pid as number;
			if (signal === "SIGKILL") killTree(pid);
			else child.kill(signal);
			const timer = setTimeout(() => killTree(pid), 5000);
			await exited;
			clearTimeout(timer);
		}
	};
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000, what = "condition"): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	while (Date.now() < deadline) {
		try {
			const value = await check();
			if (value !== undefined) return value;
		} catch (err) {
			lastError = err;
		}
		await new Promise(r => setTimeout(r, 100));
	}
	throw new Error(`Timed out waiting for ${what}${lastError ? `: ${(lastError as Error).message}` : ""}`);
}

/** Every process below `pid` (the runner starts the service node as a child of tsx). */
function descendants(pid: number): number[] {
	const out: number[] = [];
	for (const task of fs.existsSync(`/proc/${pid}/task`) ? fs.readdirSync(`/proc/${pid}/task`) : []) {
		let children: number[];
		try {
			children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number);
		} catch {
			continue; // the thread ended while being read
		}
		for (const child of children) out.push(child, ...descendants(child));
	}
	return out;
}

/** SIGKILLs `pid` and every process below it that is still there; returns the pids. */
function killTree(root: number): number[] {
	const pids = [...descendants(root), root];
	for (const pid of pids) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
	return pids;
}

/** SIGKILLs a node process and everything it started: no shutdown handler runs, as in a crash. */
export async function crashNodeProcess(node: NodeProcess): Promise<void> {
	const pids = killTree(node.child.pid as number);
	await node.exited;
	// Gone, or a zombie waiting for its parent to reap it: either way it runs no more code.
	const dead = (pid: number) => {
		try {
			return /State:\s+[ZX]/.test(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
		} catch {
			return true;
		}
	};
	await eventually(async () => (pids.every(dead) ? true : undefined), 10_000, "the killed processes to die");
}
