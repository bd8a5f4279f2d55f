/** Starts a benchmark server (an anchor of anchors.ts, or the project of project.ts) in a child process, and stops it. */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";

export interface ServerProcess<T> {
	/** What the server printed once listening (its first line, JSON). */
	ready: T;
	/** For reading the server's own CPU time (bench/gateway/server-cpu.ts). */
	pid: number;
	stop(): Promise<void>;
}

/** Runs `script` with tsx and resolves with the JSON of the first line it prints. */
function startServerProcess<T>(script: string, args: string[]): Promise<ServerProcess<T>> {
	const child: ChildProcess = spawn(process.execPath, ["--no-deprecation", "--import", "tsx", path.join(__dirname, script), ...args], {
		stdio: ["ignore", "pipe", "inherit"]
	});
	const stop = () =>
		new Promise<void>(done => {
			if (child.exitCode !== null || child.signalCode !== null) return done();
			child.once("exit", () => done());
			child.kill("SIGTERM");
		});
	return new Promise((resolve, reject) => {
		let out = "";
		const onData = (chunk: Buffer) => {
			out += chunk.toString("utf8");
			if (!out.includes("\n")) return;
			child.stdout?.off("data", onData);
			child.off("exit", onEarlyExit);
			resolve({ ready: JSON.parse(out.split("\n")[0]) as T, pid: child.pid as number, stop });
		};
		const onEarlyExit = (code: number | null) => reject(new Error(`${script} ${args.join(" ")} exited with ${code} before listening`));
		child.stdout?.on("data", onData);
		child.once("error", reject);
		child.once("exit", onEarlyExit);
	});
}

export interface AnchorProcess {
	baseUrl: string;
	pid: number;
	stop(): Promise<void>;
}

export async function startAnchor(kind: "bare" | "sdk" | "same-bytes"): Promise<AnchorProcess> {
	const server = await startServerProcess<{ port: number }>("anchors.ts", [kind]);
	return { baseUrl: `http://127.0.0.1:${server.ready.port}`, pid: server.pid, stop: server.stop };
}

export interface ProjectProcess {
	baseUrl: string;
	chatbotId: string;
	demoSessionId: string;
	pid: number;
	stop(): Promise<void>;
}

/** The all-in-one app with the benchmark's fixture (project.ts). */
export async function startProject(): Promise<ProjectProcess> {
	const server = await startServerProcess<Omit<ProjectProcess, "stop">>("project.ts", []);
	return { ...server.ready, pid: server.pid, stop: server.stop };
}
