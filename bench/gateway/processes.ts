/** Starts an anchor server (anchors.ts) in a child process and stops it. */
import { ChildProcess, spawn } from "node:child_process";
import * as path from "node:path";

export interface AnchorProcess {
	baseUrl: string;
	stop(): Promise<void>;
}

export function startAnchor(kind: "bare" | "sdk"): Promise<AnchorProcess> {
	const child: ChildProcess = spawn(process.execPath, ["--no-deprecation", "--import", "tsx", path.join(__dirname, "anchors.ts"), kind], {
		stdio: ["ignore", "pipe", "inherit"]
	});
	return new Promise((resolve, reject) => {
		let out = "";
		const onData = (chunk: Buffer) => {
			out += chunk.toString("utf8");
			const line = out.split("\n")[0];
			if (!out.includes("\n")) return;
			child.stdout?.off("data", onData);
			const { port } = JSON.parse(line) as { port: number };
			resolve({
				baseUrl: `http://127.0.0.1:${port}`,
				stop: () =>
					new Promise<void>(done => {
						if (child.exitCode !== null) return done();
						child.once("exit", () => done());
						child.kill("SIGTERM");
					})
			});
		};
		child.stdout?.on("data", onData);
		child.once("error", reject);
		child.once("exit", code => reject(new Error(`anchor ${kind} exited with ${code} before listening`)));
	});
}
