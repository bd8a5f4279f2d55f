/**
 * Tool-server benchmark: throughput and latency of POST /mcp for `tools/list` and `get_chatbot`,
 * beside the official MCP SDK's stateless Streamable HTTP server (McpServer +
 * StreamableHTTPServerTransport, `sessionIdGenerator: undefined`, JSON responses, on node:http)
 * answering the same `tools/list` in the same run.
 *
 * - Ours: the real app in this process (gateway, mcp, chatbots, accounts, storage on the local
 *   bus), so a request pays for the gateway, the transport checks, the rate limiter (its budget
 *   raised so it never refuses) and a bus call; `get_chatbot` also reads the chatbot document.
 * - The SDK server follows the SDK's stateless recipe: a new McpServer and transport per request.
 *   Its tools/list handler returns exactly our tool list, so both send the same bytes of payload.
 * - `ping` on ours is the floor: the same path with no work in the handler.
 * - Load: CONCURRENCY keep-alive clients in this process over loopback, each sending its next
 *   request when the previous answer arrived; a warm-up, then a fixed measuring window.
 *
 * Run: `npx tsx bench/mcp.bench.ts` (about 30 s). `run()` returns the rows for an aggregator.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SANDBOX_CHATBOT_LIMITS } from "../lib/accounts/chatbot-limits";
import type { Chatbot } from "../lib/chatbots/model";
import { toolsForVersion } from "../lib/mcp/tools";
import { startApp } from "../test/helpers/app";
import { printMarkdownTable, runStandalone } from "./table";

export interface McpBenchRow {
	operation: string;
	server: string;
	requestsPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	requests: number;
}

export interface McpBenchOptions {
	concurrency?: number;
	warmupMs?: number;
	measureMs?: number;
}

const VERSION = "2025-06-18";

interface Target {
	url: URL;
	headers: Record<string, string>;
	body: string;
}

function post(agent: http.Agent, target: Target): Promise<string> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			target.url,
			{ method: "POST", agent, headers: { ...target.headers, "Content-Length": Buffer.byteLength(target.body) } },
			res => {
				const chunks: Buffer[] = [];
				res.on("data", chunk => chunks.push(chunk));
				res.on("end", () => {
					const text = Buffer.concat(chunks).toString("utf8");
					if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
					else resolve(text);
				});
			}
		);
		req.on("error", reject);
		req.end(target.body);
	});
}

function percentile(sorted: number[], p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Closed-loop load: each client sends its next request when the previous one is answered. */
async function load(target: Target, options: Required<McpBenchOptions>): Promise<Omit<McpBenchRow, "operation" | "server">> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
	try {
		const phase = async (durationMs: number, record: number[] | undefined) => {
			const end = performance.now() + durationMs;
			const client = async () => {
				while (performance.now() < end) {
					const started = performance.now();
					await post(agent, target);
					record?.push(performance.now() - started);
				}
			};
			await Promise.all(Array.from({ length: options.concurrency }, client));
		};
		await phase(options.warmupMs, undefined);
		const latencies: number[] = [];
		const started = performance.now();
		await phase(options.measureMs, latencies);
		const elapsed = (performance.now() - started) / 1000;
		latencies.sort((a, b) => a - b);
		return { requestsPerSecond: latencies.length / elapsed, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), requests: latencies.length };
	} finally {
		agent.destroy();
	}
}

/** The SDK's stateless Streamable HTTP server, answering tools/list with our tools. */
async function startSdkServer(): Promise<{ url: URL; close(): Promise<void> }> {
	const tools = toolsForVersion(VERSION, { authenticated: false });
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", chunk => chunks.push(chunk));
		req.on("end", () => {
			const mcp = new McpServer({ name: "sdk-baseline", version: "1.0.0" });
			mcp.server.registerCapabilities({ tools: {} });
			mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
			const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
			res.on("close", () => {
				void transport.close();
				void mcp.close();
			});
			mcp.connect(transport)
				.then(() => transport.handleRequest(req, res, JSON.parse(Buffer.concat(chunks).toString("utf8"))))
				.catch(err => {
					res.statusCode = 500;
					res.end(String(err));
				});
		});
	});
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: new URL(`http://127.0.0.1:${port}/mcp`),
		close: () =>
			new Promise<void>(resolve => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

const request = (id: number, method: string, params?: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });

export async function run(opts: McpBenchOptions = {}): Promise<McpBenchRow[]> {
	const options: Required<McpBenchOptions> = { concurrency: opts.concurrency ?? 16, warmupMs: opts.warmupMs ?? 1000, measureMs: opts.measureMs ?? 5000 };
	const app = await startApp({
		env: { SERVICES: "gateway,mcp,chatbots,accounts,storage", LOG_LEVEL: "error" },
		// The budget is raised, not removed: every request still consults the limiter.
		gateway: { ratePolicies: { mcp: { name: "mcp", scope: "POST /mcp", limit: 1_000_000_000, windowSeconds: 60 } } }
	});
	const sdk = await startSdkServer();
	try {
		const chatbot = await app.broker.call<Chatbot, object>("chatbots.create", { kind: "sandbox", locale: "en", name: "bench.example", limits: SANDBOX_CHATBOT_LIMITS, ttl_ms: 86_400_000 });
		const ours = new URL(`${app.baseUrl}/mcp`);
		const oursHeaders = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": VERSION };
		const sdkHeaders = { ...oursHeaders };
		const targets: Array<{ operation: string; server: string; target: Target }> = [
			{ operation: "tools/list", server: "ours (POST /mcp)", target: { url: ours, headers: oursHeaders, body: request(1, "tools/list") } },
			{ operation: "tools/list", server: "SDK stateless server", target: { url: sdk.url, headers: sdkHeaders, body: request(1, "tools/list") } },
			{
				operation: "tools/call get_chatbot",
				server: "ours (POST /mcp)",
				target: { url: ours, headers: oursHeaders, body: request(1, "tools/call", { name: "get_chatbot", arguments: { chatbot_id: chatbot._id } }) }
			},
			{ operation: "ping (floor)", server: "ours (POST /mcp)", target: { url: ours, headers: oursHeaders, body: request(1, "ping") } }
		];

		// Same answer from both servers, or the comparison means nothing.
		const agent = new http.Agent();
		const [mine, theirs] = await Promise.all([post(agent, targets[0].target), post(agent, targets[1].target)]);
		if (JSON.stringify(JSON.parse(mine).result) !== JSON.stringify(JSON.parse(theirs).result)) throw new Error("The two servers list different tools");
		const got = JSON.parse(await post(agent, targets[2].target)) as { result?: { isError?: boolean } };
		if (got.result?.isError !== false) throw new Error(`get_chatbot did not succeed: ${JSON.stringify(got)}`);
		agent.destroy();

		const rows: McpBenchRow[] = [];
		for (const { operation, server, target } of targets) rows.push({ operation, server, ...(await load(target, options)) });
		return rows;
	} finally {
		await sdk.close();
		await app.stop();
	}
}

export function printTable(rows: McpBenchRow[], concurrency = 16): void {
	const table = rows.map(r => ({
		operation: r.operation,
		server: r.server,
		"req/s": Math.round(r.requestsPerSecond).toLocaleString("en-US"),
		"p50 ms": r.p50Ms.toFixed(2),
		"p99 ms": r.p99Ms.toFixed(2),
		requests: r.requests.toLocaleString("en-US")
	}));
	printMarkdownTable(table, `MCP tool server, ${concurrency} concurrent keep-alive clients over loopback`);
}

if (require.main === module) runStandalone("MCP", run, printTable);
