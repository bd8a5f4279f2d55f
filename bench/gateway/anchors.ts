/**
 * The anchors the gateway benchmark measures beside the project, each in its own process so it
 * gets a CPU of its own as the project's server does (`node --import tsx anchors.ts <kind>` prints
 * `{"port": n}` once listening, and runs until killed):
 *
 * - `bare`: node:http answering "ok" — the practical ceiling for any Node HTTP server.
 * - `sdk`: the official MCP SDK's stateless Streamable HTTP server (a new McpServer and
 *   StreamableHTTPServerTransport per request, `sessionIdGenerator: undefined`, JSON responses),
 *   whose tools/list answers exactly the project's five anonymous tools, so both send the same
 *   payload.
 * - `same-bytes`: node:http answering every request with the bytes of that tools/list answer (the
 *   five anonymous tools, 21 KB of JSON), after reading the request's body: the ceiling for any Node
 *   server that sends this answer, which costs about twice a bare "ok" to write.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { toolsForVersion } from "../../lib/mcp/tools";
import { MCP_VERSION } from "./protocol-version";

function bare(): http.Server {
	return http.createServer((_req, res) => res.end("ok"));
}

function sameBytes(): http.Server {
	const tools = toolsForVersion(MCP_VERSION, { authenticated: false });
	const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools } }), "utf8");
	return http.createServer((req, res) => {
		req.resume();
		req.on("end", () => {
			res.setHeader("Content-Type", "application/json; charset=utf-8");
			res.setHeader("Content-Length", body.length);
			res.end(body);
		});
	});
}

function sdk(): http.Server {
	const tools = toolsForVersion(MCP_VERSION, { authenticated: false });
	return http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", chunk => chunks.push(chunk));
		req.on("end", () => {
			const mcp = new McpServer({ name: "sdk-anchor", version: "1.0.0" });
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
}

const kind = process.argv[2];
const server = kind === "sdk" ? sdk() : kind === "bare" ? bare() : kind === "same-bytes" ? sameBytes() : undefined;
if (!server) {
	process.stderr.write("usage: anchors.ts bare|sdk|same-bytes\n");
	process.exit(2);
}
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
