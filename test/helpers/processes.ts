/**
 * Runs a service node as a separate OS process through the real runner (`bin/start.ts`) or a
 * test entry point, with its own environment, and stops it.
 */
import { ChildProcess, spawn } from "node:child_process";
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
		env: { ...process.env, NODE_OPTIONS: "", LOG_LEVEL: "warn", ...env },
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
			child.kill(signal);
			const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
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
