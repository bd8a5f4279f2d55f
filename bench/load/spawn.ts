/** Runs the load client in a child process and returns its figures. */
import { execFile } from "node:child_process";
import * as path from "node:path";
import type { LoadOptions, LoadResult, LoadTarget } from "./client";

/** 16 connections, 8 s measured after 1 s of warm-up, as the issue measured; BENCH_SECONDS shortens it. */
export function defaultLoadOptions(): LoadOptions {
	const seconds = Number(process.env.BENCH_SECONDS ?? 8);
	return { connections: 16, warmupMs: 1000, durationMs: Math.max(1, seconds) * 1000 };
}

export function loadInChild(target: LoadTarget, options: LoadOptions = defaultLoadOptions()): Promise<LoadResult> {
	const cli = path.join(__dirname, "cli.ts");
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--no-deprecation", "--import", "tsx", cli, JSON.stringify({ target, options })],
			{ timeout: options.warmupMs + options.durationMs + 60_000, maxBuffer: 1 << 20 },
			(err, stdout, stderr) => {
				if (err) return reject(new Error(`load client failed: ${stderr.trim() || err.message}`));
				resolve(JSON.parse(stdout) as LoadResult);
			}
		);
	});
}
