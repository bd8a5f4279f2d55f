/**
 * Profiles the all-in-one app under load: run it as
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/gateway/profile.ts [path…]`
 * (paths: health, tools-list, get-chatbot, demo-session, and ping: POST /mcp without a tool, the
 * transport's own cost; all by default). The load client runs in a child process, so the profile
 * holds the server's work only. Summarise with
 * `node bench/gateway/summarise-profile.mjs /tmp/prof/*.cpuprofile`.
 */
import type { LoadTarget } from "../load/client";
import { loadInChild } from "../load/spawn";
import { jsonRpc, MCP_HEADERS, startGatewayFixture } from "./fixture";

async function main(): Promise<void> {
	const fixture = await startGatewayFixture();
	const base = fixture.app.baseUrl;
	const targets: Record<string, LoadTarget> = {
		health: { url: `${base}/v2/health` },
		"tools-list": { url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: jsonRpc("tools/list") },
		"get-chatbot": { url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: jsonRpc("tools/call", { name: "get_chatbot", arguments: { chatbot_id: fixture.chatbotId } }) },
		"demo-session": { url: `${base}/api/tools/sessions/${fixture.demoSessionId}` },
		ping: { url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: jsonRpc("ping") }
	};
	const wanted = process.argv.slice(2);
	try {
		for (const [name, target] of Object.entries(targets)) {
			if (wanted.length > 0 && !wanted.includes(name)) continue;
			const result = await loadInChild(target, { connections: 16, warmupMs: 1000, durationMs: Number(process.env.BENCH_SECONDS ?? 5) * 1000 });
			console.log(name, Math.round(result.requestsPerSecond), "req/s", "p99", result.p99Ms.toFixed(2), "ms");
		}
	} finally {
		await fixture.app.stop();
	}
}

main().catch(err => {
	console.error(err);
	process.exitCode = 1;
});
