/**
 * Real NATS and Redis servers for tests, started from the machine's binaries on free ports and
 * stopped afterwards, so any machine with `nats-server` and `redis-server` on PATH passes.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort, waitForPort } from "./ports";

export interface RunningServer {
	url: string;
	port: number;
	stop(): Promise<void>;
}

function stopProcess(child: ChildProcess): Promise<void> {
	return new Promise(resolve => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once("exit", () => resolve());
		child.kill("SIGTERM");
		setTimeout(() => child.kill("SIGKILL"), 3000).unref();
	});
}

function binary(name: string): string {
	for (const dir of (process.env.PATH ?? "").split(":").concat(["/usr/sbin", "/usr/bin", "/usr/local/bin"])) {
		const candidate = path.join(dir, name);
		if (fs.existsSync(candidate)) return candidate;
	}
	throw new Error(`${name} is not installed (looked on PATH, /usr/sbin, /usr/bin)`);
}

export async function startNats(opts: { jetstream?: boolean } = { jetstream: true }): Promise<RunningServer> {
	const port = await freePort();
	const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), "nats-"));
	const args = ["-a", "127.0.0.1", "-p", String(port)];
	if (opts.jetstream) args.push("-js", "-sd", storeDir);
	const child = spawn(binary("nats-server"), args, { stdio: "ignore" });
	await waitForPort(port);
	return {
		url: `nats://127.0.0.1:${port}`,
		port,
		async stop() {
			await stopProcess(child);
			fs.rmSync(storeDir, { recursive: true, force: true });
		}
	};
}

export async function startRedis(): Promise<RunningServer> {
	const port = await freePort();
	const child = spawn(binary("redis-server"), ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
		stdio: "ignore"
	});
	await waitForPort(port);
	return { url: `redis://127.0.0.1:${port}`, port, stop: () => stopProcess(child) };
}
