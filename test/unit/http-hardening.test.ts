/**
 * The pure pieces behind "every malformed request is a JSON 4xx" and "budgets count what they
 * protect": client networks, nesting depth, body-parser failures, the reply to requests Node's
 * parser refuses, and how many tool calls an MCP body carries.
 */
import { clientNetwork } from "../../lib/http/client-ip";
import { bodyParserFailure } from "../../lib/http/body-errors";
import { clientErrorResponse } from "../../lib/http/client-error";
import { renderError } from "../../lib/http/error-body";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../lib/http/json-depth";
import { handleMcpBody, McpRequestContext, toolCallNames, toolSuccess } from "../../lib/mcp/server";
import type { JsonRpcErrorResponse } from "../../lib/mcp/jsonrpc";

describe("clientNetwork", () => {
	it("keys IPv4 by address and IPv6 by its /64, in every spelling", () => {
		expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
		expect(clientNetwork("203.0.113.8")).toBe("203.0.113.8");
		expect(clientNetwork("2001:db8:aa:bb::1")).toBe("2001:db8:aa:bb::/64");
		expect(clientNetwork("2001:0db8:00aa:00bb:ffff:1:2:3")).toBe("2001:db8:aa:bb::/64");
		expect(clientNetwork("2001:DB8:AA:BB::9")).toBe("2001:db8:aa:bb::/64");
		expect(clientNetwork("2001:db8:aa:bc::1")).toBe("2001:db8:aa:bc::/64");
		expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
	});
	it("an IPv4-mapped IPv6 address is its IPv4 address", () => {
		expect(clientNetwork("::ffff:198.51.100.7")).toBe("198.51.100.7");
		expect(clientNetwork("::ffff:c633:6407")).toBe("198.51.100.7");
	});
	it("leaves what is not an address as it is, cut short", () => {
		expect(clientNetwork("unknown")).toBe("unknown");
		expect(clientNetwork("x".repeat(500))).toHaveLength(64);
	});
});

describe("nestedDeeperThan", () => {
	const nest = (depth: number): unknown => {
		let value: unknown = 1;
		for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
		return value;
	};
	it("counts containers, not scalars, and needs no recursion for 100,000 levels", () => {
		expect(nestedDeeperThan(7, 1)).toBe(false);
		expect(nestedDeeperThan({}, 1)).toBe(false);
		expect(nestedDeeperThan(nest(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
		expect(nestedDeeperThan(nest(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
		const deep = JSON.parse("[".repeat(100_000) + "]".repeat(100_000));
		expect(nestedDeeperThan(deep, MAX_JSON_DEPTH)).toBe(true);
		expect(nestedDeeperThan({ wide: Array.from({ length: 50_000 }, (_, i) => ({ i })) }, MAX_JSON_DEPTH)).toBe(false);
	});
});

describe("bodyParserFailure", () => {
	const rendered = (err: unknown) => renderError(err, "https://x.example").body;
	it("a zlib failure under a declared Content-Encoding is a 400 that names the encoding", () => {
		// What body-parser passes on when gunzip meets bytes that are not gzip: the zlib error with a 400 status.
		const zlib = Object.assign(new Error("incorrect header check"), { code: "Z_DATA_ERROR", status: 400, statusCode: 400 });
		const body = rendered(bodyParserFailure(zlib, "gzip"));
		expect(body).toMatchObject({ ok: false, code: "invalid_json", status: 400 });
		expect(body.message).toMatch(/gzip/);
		const brotli = Object.assign(new Error("Decompression failed"), { code: "ERR__ERROR_FORMAT_PADDING_2", status: 400 });
		expect(rendered(bodyParserFailure(brotli, "br"))).toMatchObject({ code: "invalid_json", status: 400 });
	});
	it("maps each body-parser type onto its code", () => {
		expect(rendered(bodyParserFailure({ type: "entity.parse.failed", status: 400 }, undefined)).code).toBe("invalid_json");
		expect(rendered(bodyParserFailure({ type: "entity.too.large", status: 413 }, undefined)).code).toBe("payload_too_large");
		expect(rendered(bodyParserFailure({ type: "encoding.unsupported", status: 415 }, "zz")).code).toBe("unsupported_media_type");
		expect(rendered(bodyParserFailure({ type: "charset.unsupported", status: 415 }, undefined)).code).toBe("unsupported_media_type");
	});
	it("leaves our own failures alone", () => {
		const ours = new Error("stream not readable");
		expect(bodyParserFailure(ours, undefined)).toBe(ours);
		const server = Object.assign(new Error("x"), { status: 500 });
		expect(bodyParserFailure(server, undefined)).toBe(server);
	});
});

describe("clientErrorResponse", () => {
	const parse = (raw: string) => {
		const [head, body] = raw.split("\r\n\r\n");
		const [statusLine, ...headers] = head.split("\r\n");
		return { statusLine, headers, body: JSON.parse(body), length: Buffer.byteLength(body) };
	};
	it.each([
		["HPE_HEADER_OVERFLOW", 431, "headers_too_large"],
		["HPE_INVALID_HEADER_TOKEN", 400, "malformed_request"],
		["HPE_INVALID_METHOD", 400, "malformed_request"],
		["ERR_HTTP_REQUEST_TIMEOUT", 408, "request_timeout"],
		["HPE_CHUNK_EXTENSIONS_OVERFLOW", 413, "payload_too_large"],
		[undefined, 400, "malformed_request"]
	])("%s → %i %s with the Error body and Connection: close", (parserCode, status, code) => {
		const reply = parse(clientErrorResponse(parserCode, "https://x.example"));
		expect(reply.statusLine).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
		expect(reply.headers).toEqual(expect.arrayContaining(["Content-Type: application/json; charset=utf-8", "Connection: close", `Content-Length: ${reply.length}`]));
		expect(reply.body).toMatchObject({ ok: false, code, status });
		expect(typeof reply.body.message).toBe("string");
		expect(typeof reply.body.hint).toBe("string");
	});
});

describe("MCP bodies", () => {
	const call = (id: number, name: unknown, args: unknown = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

	it("toolCallNames lists every tools/call that would run, so a batch is charged per call", () => {
		const batch = Array.from({ length: 50 }, (_, i) => call(i + 1, "add_knowledge_url", { chatbot_id: "c", url: `https://e.example/${i}` }));
		expect(toolCallNames(JSON.stringify(batch))).toHaveLength(50);
		expect(toolCallNames(JSON.stringify([call(1, "create_chatbot"), { jsonrpc: "2.0", method: "tools/call", params: { name: "x" } }, call(2, 7), { jsonrpc: "2.0", id: 3, method: "ping" }]))).toEqual([
			"create_chatbot"
		]);
		expect(toolCallNames("not json")).toEqual([]);
	});

	it("arguments nested 5,000 deep answer -32602 with a clear message; the tool never runs and nothing is reported as internal", async () => {
		const internal: unknown[] = [];
		let ran = 0;
		const ctx: McpRequestContext = {
			protocolVersion: "2025-06-18",
			authenticated: false,
			serverInfo: { name: "t", version: "1" },
			callTool: async () => {
				ran++;
				return toolSuccess({});
			},
			onInternalError: error => internal.push(error)
		};
		const deepArgs = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
		const raw = `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add_knowledge_text","arguments":${deepArgs}}}`;
		const reply = await handleMcpBody(raw, ctx);
		const error = (reply.body as JsonRpcErrorResponse).error;
		expect(error.code).toBe(-32602);
		expect(error.message).toMatch(/nest more than 32 levels/);
		expect(ran).toBe(0);
		expect(internal).toEqual([]);
		// Just under the bound the arguments reach validation (and fail it as ordinary bad arguments).
		let shallow: unknown = "x";
		for (let i = 0; i < 28; i++) shallow = { a: shallow };
		const ok = await handleMcpBody(JSON.stringify(call(10, "add_knowledge_text", shallow)), ctx);
		expect((ok.body as JsonRpcErrorResponse).error).toMatchObject({ code: -32602 });
		expect((ok.body as JsonRpcErrorResponse).error.message).toMatch(/^Invalid arguments/);
	});
});
