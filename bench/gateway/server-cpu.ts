/**
 * Server CPU per request on each hot path: the project (and the bare anchor) in processes of their
 * own, loaded one path at a time, their CPU time read from /proc before and after. Steadier than
 * req/s on a shared 2-core machine for comparing two commits:
 * `npx tsx bench/gateway/server-cpu.ts [health|tools-list|tools-list-gzip|get-chatbot|demo-session|ping|bare]…`.
 */
import * as fs from "node:fs";
import type { LoadTarget } from "../load/client";
import { loadInChild } from "../load/spawn";
import { jsonRpc, MCP_HEADERS } from "./fixture";
import { startAnchor, startProject } from "./processes";

/** User + system CPU time of a process so far, in microseconds (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
	const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
	// After the command name: state is field 3, utime field 14 and stime field 15 (1-based, man 5 proc).
	return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function main(): Promise<void> {
	const project = await startProject();
	const bare = await startAnchor("bare");
	const base = project.baseUrl;
	const targets: Record<string, [LoadTarget, number]> = {
		health: [{ url: `${base}/v2/health` }, project.pid],
		"tools-list": [{ url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: jsonRpc("tools/list") }, project.pid],
		"tools-list-gzip": [{ url: `${base}/mcp`, method: "POST", headers: { ...MCP_HEADERS, "Accept-Encoding": "gzip, deflate" }, body: jsonRpc("tools/list") }, project.pid],
		"get-chatbot": [{ url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: jsonRpc("tools/call", { name: "get_chatbot", arguments: { chatbot_id: project.chatbotId } }) }, project.pid],
		"demo-session": [{ url: `${base}/api/tools/sessions/${project.demoSessionId}` }, project.pid],
		ping: [{ url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: jsonRpc("ping") }, project.pid],
		bare: [{ url: `${bare.baseUrl}/` }, bare.pid]
	};
	const wanted = process.argv.slice(2);
	try {
		for (const [name, [target, pid]] of Object.entries(targets)) {
			if (wanted.length > 0 && !wanted.includes(name)) continue;
			const before = cpuMicros(pid);
			const result = await loadInChild(target, { connections: 16, warmupMs: 1000, durationMs: Number(process.env.BENCH_SECONDS ?? 5) * 1000 });
			const used = cpuMicros(pid) - before;
			// The warm-up's requests are served too, at about the measured rate.
			const served = result.requestsPerSecond * (1 + Number(process.env.BENCH_SECONDS ?? 5));
			console.log(`${name.padEnd(13)} ${String(Math.round(result.requestsPerSecond)).padStart(6)} req/s  p99 ${result.p99Ms.toFixed(2)} ms  server ${(used / served).toFixed(1)} µs/req  client CPU ${Math.round((result.clientCpu ?? 0) * 100)} %`);
		}
	} finally {
		await project.stop();
		await bare.stop();
	}
}

main().catch(err => {
	console.error(err);
	process.exitCode = 1;
});
