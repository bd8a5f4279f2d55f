/**
 * Resident memory of a started, idle process tree: start it with its own DATA_DIR and PORT, wait
 * until `/v2/health` answers 200 (or the anchor answers), let it settle, then add up VmRSS of the
 * process and all its descendants (read from /proc; Linux only).
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { freePort } from "../../test/helpers/ports";

export interface IdleMemory {
	processes: Array<{ pid: number; command: string; rssMb: number }>;
	totalMb: number;
}

const SETTLE_MS = 5_000;

function rssKb(pid: number): number {
	const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function childrenOf(pid: number): number[] {
	const kids: number[] = [];
	for (const entry of fs.readdirSync("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
			// The command may hold spaces and parentheses: the fields after the last ")" are fixed.
			const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
			if (ppid === pid) kids.push(Number(entry));
		} catch {
			// The process ended meanwhile.
		}
	}
	return kids;
}

function tree(pid: number): number[] {
	return [pid, ...childrenOf(pid).flatMap(tree)];
}

function commandOf(pid: number): string {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).map(a => path.basename(a)).slice(0, 3).join(" ");
	} catch {
		return "?";
	}
}

async function untilAnswers(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode} before answering`);
		try {
			if ((await fetch(url)).status === 200) return;
		} catch {
			// Not listening yet.
		}
		await new Promise(resolve => setTimeout(resolve, 250));
	}
	throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stop(child: ChildProcess): Promise<void> {
	return new Promise(resolve => {
		if (child.exitCode !== null || child.signalCode !== null) return resolve();
		child.once("exit", () => resolve());
		// The whole group: npm and tsx start children of their own.
		try {
			process.kill(-(child.pid as number), "SIGTERM");
		} catch {
			child.kill("SIGTERM");
		}
		setTimeout(() => {
			try {
				process.kill(-(child.pid as number), "SIGKILL");
			} catch {
				// Gone.
			}
		}, 10_000).unref();
	});
}

/** Starts `command args` (in `cwd`, its own process group), measures it idle, stops it. */
export async function idleMemory(command: string, args: string[], opts: { cwd: string; healthPath: string; env?: Record<string, string> }): Promise<IdleMemory> {
	const port = await freePort();
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-idle-"));
	const child = spawn(command, args, {
		cwd: opts.cwd,
		detached: true,
		stdio: "ignore",
		env: { ...process.env, NODE_OPTIONS: "", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, LOG_LEVEL: "warn", ...opts.env }
	});
	try {
		await untilAnswers(`http://127.0.0.1:${port}${opts.healthPath}`, child);
		await new Promise(resolve => setTimeout(resolve, SETTLE_MS));
		const processes = tree(child.pid as number).map(pid => ({ pid, command: commandOf(pid), rssMb: rssKb(pid) / 1024 }));
		return { processes, totalMb: processes.reduce((sum, p) => sum + p.rssMb, 0) };
	} finally {
		await stop(child);
		fs.rmSync(dataDir, { recursive: true, force: true });
	}
}
