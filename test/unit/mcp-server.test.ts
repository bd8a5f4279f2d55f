/**
 * The tool server's dispatcher, driven with raw bodies exactly as the gateway passes them. Every
 * response it emits is validated against the MCP schema of the revision in use.
 *
 * `callTool` is the dispatcher's injected dependency (the gateway passes one that calls the
 * chatbot services); here it is a small recording function, because this file tests the
 * dispatcher's rules, not the services behind it.
 */
import { JsonRpcErrorResponse, JsonRpcResponse, JsonRpcSuccessResponse } from "../../lib/mcp/jsonrpc";
import {
	checkProtocolHeader,
	LATEST_PROTOCOL_VERSION,
	negotiateVersion,
	OLDEST_PROTOCOL_VERSION,
	ProtocolVersion,
	SUPPORTED_VERSIONS
} from "../../lib/mcp/protocol";
import { countToolCalls, handleMcpBody, McpReply, McpRequestContext, toolFailure, ToolOutcome, toolSuccess } from "../../lib/mcp/server";
import { ChatbotListResult, ChatbotResult, KnowledgeAddedResult } from "../../lib/mcp/tool-results";
import { ANONYMOUS_TOOL_NAMES, TOOL_DEFINITIONS, ToolName, toolsForVersion } from "../../lib/mcp/tools";
import { responseJson } from "../../lib/mcp/constant-results";
import { validateToolArguments } from "../../lib/mcp/tool-validation";
import { SANDBOX_LIMITS } from "../../lib/accounts/plans";
import { assertValidMcpMessage, McpResultDefinition, mcpMessageErrors } from "../helpers/mcp-schema";

const SERVER_INFO = { name: "chatbot-builder", version: "1.0.0", title: "Chatbot Builder" };

function chatbot(overrides: Partial<ChatbotResult> = {}): ChatbotResult {
	return {
		chatbot_id: "cb_123",
		name: "Example",
		website_url: "https://example.com/",
		language: "en",
		status: "crawling",
		ready: false,
		chat_url: "https://bots.example.net/chat/cb_123",
		embed_snippet: '<script src="https://bots.example.net/embed.js" data-chatbot="cb_123" async></script>',
		claim_url: "https://bots.example.net/claim/abc",
		sandbox: true,
		expires_at: "2030-01-09T00:00:00.000Z",
		created_at: "2030-01-01T00:00:00.000Z",
		pages: { found: 3, crawled: 1, failed: 0, limit: SANDBOX_LIMITS.pages },
		limits: { pages: SANDBOX_LIMITS.pages, messages: SANDBOX_LIMITS.messages, chars: SANDBOX_LIMITS.chars },
		usage: { chars_used: 1200, messages_used: 0 },
		...overrides
	};
}

const listResult: ChatbotListResult = {
	count: 1,
	chatbots: [
		{
			chatbot_id: "cb_1",
			name: "Mine",
			website_url: "https://mine.example/",
			language: "es",
			status: "ready",
			ready: true,
			chat_url: "https://bots.example.net/chat/cb_1",
			created_at: "2030-01-01T00:00:00.000Z"
		}
	],
	plan: { id: "free", name: "Free", limits: { chatbots: 3, pages: 50, messages: 100, chars: 400_000 } }
};

interface Call {
	name: ToolName;
	args: Record<string, unknown>;
}

function context(overrides: Partial<McpRequestContext> = {}, outcome?: (call: Call) => Promise<ToolOutcome>) {
	const calls: Call[] = [];
	const internalErrors: unknown[] = [];
	const ctx: McpRequestContext = {
		protocolVersion: LATEST_PROTOCOL_VERSION,
		authenticated: false,
		serverInfo: SERVER_INFO,
		callTool: async (name, args) => {
			calls.push({ name, args });
			if (outcome) return outcome({ name, args });
			if (name === "list_chatbots") return toolSuccess(listResult);
			if (name === "create_chatbot" || name === "get_chatbot") return toolSuccess(chatbot());
			const added: KnowledgeAddedResult = {
				source: { source_id: "src_1", type: name === "add_qa" ? "qa" : name === "add_knowledge_url" ? "url" : "text", status: "pending", chars: 10 },
				chatbot: chatbot({ status: "training" })
			};
			return toolSuccess(added);
		},
		onInternalError: error => internalErrors.push(error),
		...overrides
	};
	return { ctx, calls, internalErrors };
}

const rpc = (id: number | string, method: string, params?: unknown) => ({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
const note = (method: string) => ({ jsonrpc: "2.0", method });
const call = (id: number, name: string, args?: unknown) => rpc(id, "tools/call", args === undefined ? { name } : { name, arguments: args });

async function send(body: unknown, ctx: McpRequestContext): Promise<McpReply> {
	return handleMcpBody(typeof body === "string" ? body : JSON.stringify(body), ctx);
}

function single(reply: McpReply): JsonRpcResponse {
	expect(reply.status).toBe(200);
	if (!reply.body || Array.isArray(reply.body)) throw new Error("expected a single response");
	return reply.body;
}

function ok(reply: McpReply, version: ProtocolVersion, definition: McpResultDefinition): JsonRpcSuccessResponse {
	const response = single(reply);
	assertValidMcpMessage(version, response, definition);
	if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
	return response;
}

function failed(reply: McpReply, version: ProtocolVersion, code: number): JsonRpcErrorResponse {
	const response = single(reply);
	assertValidMcpMessage(version, response);
	if (!("error" in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
	expect(response.error.code).toBe(code);
	return response;
}

describe("protocol versions", () => {
	it("negotiates the requested version when supported, else the newest", () => {
		for (const version of SUPPORTED_VERSIONS) expect(negotiateVersion(version)).toBe(version);
		expect(negotiateVersion("2099-01-01")).toBe("2025-06-18");
		expect(negotiateVersion(undefined)).toBe("2025-06-18");
	});

	it("treats an absent MCP-Protocol-Version header as the oldest version", () => {
		expect(checkProtocolHeader(undefined)).toEqual({ ok: true, version: "2024-11-05" });
		expect(checkProtocolHeader("")).toEqual({ ok: true, version: OLDEST_PROTOCOL_VERSION });
	});

	it("accepts every supported version in the header", () => {
		for (const version of SUPPORTED_VERSIONS) {
			expect(checkProtocolHeader(version)).toEqual({ ok: true, version });
			expect(checkProtocolHeader(` ${version} `)).toEqual({ ok: true, version });
			expect(checkProtocolHeader([version, version])).toEqual({ ok: true, version });
		}
	});

	it.each(["2025-01-01", "latest", "2025-06-18, 2024-11-05", "x".repeat(500)])("refuses header %p with a 400-style error", value => {
		const check = checkProtocolHeader(value);
		if (check.ok) throw new Error("expected a refusal");
		expect(check.error.code).toBe("validation_failed");
		expect(check.error.message).toMatch(/^Unsupported MCP-Protocol-Version/);
		expect(check.error.message.length).toBeLessThan(100);
		expect(check.error.hint).toContain("2025-06-18, 2025-03-26, 2024-11-05");
	});

	it("refuses conflicting repeated headers", () => {
		expect(checkProtocolHeader(["2025-06-18", "2024-11-05"]).ok).toBe(false);
	});
});

describe("initialize, notifications and ping", () => {
	it.each([...SUPPORTED_VERSIONS])("answers initialize for %s with that version", async version => {
		const { ctx } = context({ protocolVersion: OLDEST_PROTOCOL_VERSION });
		const response = ok(await send(rpc(1, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } }), ctx), version, "InitializeResult");
		expect(response.result).toMatchObject({ protocolVersion: version, capabilities: { tools: { listChanged: false } } });
		expect(response.result.instructions).toEqual(expect.stringContaining("create_chatbot"));
		expect(response.result.instructions).toEqual(expect.stringContaining("claim_url"));
		// serverInfo.title exists only from 2025-06-18 on.
		expect(response.result.serverInfo).toEqual(version === "2025-06-18" ? SERVER_INFO : { name: SERVER_INFO.name, version: SERVER_INFO.version });
	});

	it("answers an unknown requested version with the newest", async () => {
		const { ctx } = context();
		const response = ok(await send(rpc(1, "initialize", { protocolVersion: "2030-01-01", capabilities: {}, clientInfo: { name: "t", version: "1" } }), ctx), "2025-06-18", "InitializeResult");
		expect(response.result.protocolVersion).toBe("2025-06-18");
	});

	it.each([
		["no params", undefined],
		["no protocolVersion", { capabilities: {} }],
		["numeric protocolVersion", { protocolVersion: 20250618 }],
		["non-object clientInfo", { protocolVersion: "2025-06-18", clientInfo: "me" }]
	])("answers -32602 for initialize with %s", async (_label, params) => {
		const { ctx } = context();
		const response = failed(await send(rpc(5, "initialize", params), ctx), ctx.protocolVersion, -32602);
		expect(response.id).toBe(5);
	});

	it.each(["notifications/initialized", "notifications/cancelled", "notifications/whatever"])("answers notification %s with 202 and no body", async method => {
		const { ctx, calls } = context();
		expect(await send(note(method), ctx)).toEqual({ status: 202 });
		expect(calls).toEqual([]);
	});

	it("never runs a tools/call sent as a notification", async () => {
		const { ctx, calls } = context();
		expect(await send({ jsonrpc: "2.0", method: "tools/call", params: { name: "create_chatbot", arguments: { website_url: "https://a.example" } } }, ctx)).toEqual({ status: 202 });
		expect(calls).toEqual([]);
	});

	it.each([...SUPPORTED_VERSIONS])("answers ping with an empty result (%s)", async version => {
		const { ctx } = context({ protocolVersion: version });
		expect(ok(await send(rpc("p", "ping"), ctx), version, "EmptyResult").result).toEqual({});
	});
});

describe("JSON-RPC errors", () => {
	it("answers a parse error with -32700 and id null", async () => {
		const { ctx } = context();
		const response = failed(await send("{oops", ctx), ctx.protocolVersion, -32700);
		expect(response.id).toBeNull();
	});

	it("answers an invalid request with -32600", async () => {
		const { ctx } = context();
		expect(failed(await send({ jsonrpc: "2.0", id: 3 }, ctx), ctx.protocolVersion, -32600).id).toBe(3);
		expect(failed(await send("[]", ctx), ctx.protocolVersion, -32600).id).toBeNull();
		expect(failed(await send("17", ctx), ctx.protocolVersion, -32600).id).toBeNull();
	});

	it.each(["resources/list", "prompts/list", "logging/setLevel", "constructor", "__proto__", "toString"])("answers unknown method %s with -32601", async method => {
		const { ctx } = context();
		expect(failed(await send(rpc(9, method), ctx), ctx.protocolVersion, -32601).error.message).toContain(method);
	});

	it("answers non-object params with -32602", async () => {
		const { ctx } = context();
		failed(await send(rpc(1, "tools/list", [1, 2]), ctx), ctx.protocolVersion, -32602);
		failed(await send(rpc(2, "tools/call", ["create_chatbot"]), ctx), ctx.protocolVersion, -32602);
	});
});

describe("tools/list", () => {
	it.each([...SUPPORTED_VERSIONS])("lists the anonymous tools in the %s shape", async version => {
		const { ctx } = context({ protocolVersion: version });
		const response = ok(await send(rpc(1, "tools/list"), ctx), version, "ListToolsResult");
		const tools = response.result.tools as Array<Record<string, unknown>>;
		expect(tools.map(tool => tool.name)).toEqual([...ANONYMOUS_TOOL_NAMES]);
		for (const tool of tools) {
			expect(typeof tool.description).toBe("string");
			expect((tool.inputSchema as { additionalProperties: boolean }).additionalProperties).toBe(false);
			expect("title" in tool).toBe(version === "2025-06-18");
			expect("outputSchema" in tool).toBe(version === "2025-06-18");
			expect("annotations" in tool).toBe(version !== "2024-11-05");
		}
	});

	it("adds list_chatbots for key holders", async () => {
		const { ctx } = context({ authenticated: true });
		const response = ok(await send(rpc(1, "tools/list"), ctx), ctx.protocolVersion, "ListToolsResult");
		expect((response.result.tools as Array<{ name: string }>).map(tool => tool.name)).toEqual([...ANONYMOUS_TOOL_NAMES, "list_chatbots"]);
	});

	it("emits a list that older revisions' schemas would reject if it were not trimmed", () => {
		// Proves the schema check is strict enough to catch a field from a newer revision.
		const newest = { jsonrpc: "2.0", id: 1, result: { tools: toolsForVersion("2025-06-18", { authenticated: true }) } };
		expect(mcpMessageErrors("2024-11-05", newest, "ListToolsResult").join("\n")).toMatch(/additional/);
		expect(mcpMessageErrors("2025-03-26", newest, "ListToolsResult").join("\n")).toMatch(/additional/);
		expect(mcpMessageErrors("2025-06-18", newest, "ListToolsResult")).toEqual([]);
	});

	it("states honest annotations", () => {
		const byName = Object.fromEntries(toolsForVersion("2025-06-18", { authenticated: true }).map(tool => [tool.name, tool.annotations]));
		expect(byName.get_chatbot).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false, destructiveHint: false });
		expect(byName.list_chatbots).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
		expect(byName.create_chatbot).toMatchObject({ readOnlyHint: false, idempotentHint: false, openWorldHint: true, destructiveHint: false });
		expect(byName.add_knowledge_url).toMatchObject({ readOnlyHint: false, openWorldHint: true });
		expect(byName.add_knowledge_text).toMatchObject({ readOnlyHint: false, openWorldHint: false, destructiveHint: false });
		expect(byName.add_qa).toMatchObject({ readOnlyHint: false, openWorldHint: false, destructiveHint: false });
	});
});

describe("tools/call", () => {
	it.each([...SUPPORTED_VERSIONS])("runs create_chatbot and returns the data as text (and structuredContent from 2025-06-18) under %s", async version => {
		const { ctx, calls } = context({ protocolVersion: version });
		const response = ok(await send(call(1, "create_chatbot", { website_url: "https://example.com/" }), ctx), version, "CallToolResult");
		// The default language is filled in before the service sees the arguments.
		expect(calls).toEqual([{ name: "create_chatbot", args: { website_url: "https://example.com/", language: "en" } }]);
		expect(response.result.isError).toBe(false);
		const content = response.result.content as Array<{ type: string; text: string }>;
		expect(content).toHaveLength(1);
		expect(JSON.parse(content[0].text)).toEqual(chatbot());
		if (version === "2025-06-18") expect(response.result.structuredContent).toEqual(chatbot());
		else expect("structuredContent" in response.result).toBe(false);
	});

	it("passes each knowledge tool its validated arguments", async () => {
		const { ctx, calls } = context();
		const version = ctx.protocolVersion;
		ok(await send(call(1, "get_chatbot", { chatbot_id: "cb_123" }), ctx), version, "CallToolResult");
		ok(await send(call(2, "add_knowledge_url", { chatbot_id: "cb_123", url: "http://example.com/faq" }), ctx), version, "CallToolResult");
		ok(await send(call(3, "add_knowledge_text", { chatbot_id: "cb_123", text: "We open at 9.", title: "Hours" }), ctx), version, "CallToolResult");
		ok(await send(call(4, "add_qa", { chatbot_id: "cb_123", question: "Do you ship?", answer: "Yes, worldwide." }), ctx), version, "CallToolResult");
		expect(calls.map(c => c.name)).toEqual(["get_chatbot", "add_knowledge_url", "add_knowledge_text", "add_qa"]);
		expect(calls[2].args).toEqual({ chatbot_id: "cb_123", text: "We open at 9.", title: "Hours" });
	});

	it("answers an unknown tool with -32602", async () => {
		const { ctx, calls } = context();
		const response = failed(await send(call(1, "delete_everything", {}), ctx), ctx.protocolVersion, -32602);
		expect(response.error.message).toContain("delete_everything");
		expect(calls).toEqual([]);
	});

	it("answers list_chatbots without a key with -32602 and runs it with one", async () => {
		const anonymous = context();
		const refused = failed(await send(call(1, "list_chatbots", {}), anonymous.ctx), anonymous.ctx.protocolVersion, -32602);
		expect(refused.error.message).toMatch(/API key/);
		expect(anonymous.calls).toEqual([]);

		const keyed = context({ authenticated: true });
		const response = ok(await send(call(2, "list_chatbots"), keyed.ctx), keyed.ctx.protocolVersion, "CallToolResult");
		expect(response.result.structuredContent).toEqual(listResult);
	});

	it.each([
		["a missing name", { arguments: {} }, "name"],
		["a numeric name", { name: 5 }, "name"],
		["array arguments", { name: "get_chatbot", arguments: ["cb_1"] }, "arguments"],
		["string arguments", { name: "get_chatbot", arguments: "cb_1" }, "arguments"]
	])("answers -32602 for %s", async (_label, params, field) => {
		const { ctx, calls } = context();
		const response = failed(await send(rpc(1, "tools/call", params), ctx), ctx.protocolVersion, -32602);
		expect(response.error.data).toMatchObject({ errors: [expect.objectContaining({ field })] });
		expect(calls).toEqual([]);
	});

	it.each([
		["a missing website_url", "create_chatbot", {}, ["website_url"]],
		["a website_url that is not a URL", "create_chatbot", { website_url: "not a url" }, ["website_url"]],
		["a javascript: URL", "create_chatbot", { website_url: "javascript:alert(1)" }, ["website_url"]],
		["an unsupported language", "create_chatbot", { website_url: "https://a.example", language: "fr" }, ["language"]],
		["an unknown argument", "create_chatbot", { website_url: "https://a.example", depth: 3 }, ["depth"]],
		["a missing chatbot_id", "get_chatbot", {}, ["chatbot_id"]],
		["a chatbot_id with odd characters", "get_chatbot", { chatbot_id: "x/../../y" }, ["chatbot_id"]],
		["a missing url", "add_knowledge_url", { chatbot_id: "cb_1" }, ["url"]],
		["a text over 50,000 characters", "add_knowledge_text", { chatbot_id: "cb_1", text: "a".repeat(50_001) }, ["text"]],
		["an empty text", "add_knowledge_text", { chatbot_id: "cb_1", text: "" }, ["text"]],
		["a missing question and answer", "add_qa", { chatbot_id: "cb_1" }, ["question", "answer"]],
		["arguments on list_chatbots", "list_chatbots", { page: 2 }, ["page"]]
	])("answers -32602 naming the fields for %s", async (_label, tool, args, fields) => {
		const { ctx, calls } = context({ authenticated: true });
		const response = failed(await send(call(1, tool, args), ctx), ctx.protocolVersion, -32602);
		const problems = (response.error.data as { errors: Array<{ field: string; message: string }> }).errors;
		expect(problems.map(problem => problem.field).sort()).toEqual([...fields].sort());
		for (const field of fields) expect(response.error.message).toContain(field);
		expect(calls).toEqual([]);
	});

	it("accepts a text of exactly 50,000 characters", async () => {
		const { ctx, calls } = context();
		ok(await send(call(1, "add_knowledge_text", { chatbot_id: "cb_1", text: "a".repeat(50_000) }), ctx), ctx.protocolVersion, "CallToolResult");
		expect(calls).toHaveLength(1);
	});

	it.each([...SUPPORTED_VERSIONS])("reports a business failure as a result with isError true (%s)", async version => {
		const { ctx } = context({ protocolVersion: version }, async () =>
			toolFailure("char_cap", "This chatbot already holds 49,000 of its 50,000 training characters.", "Send a shorter text.")
		);
		const response = ok(await send(call(1, "add_knowledge_text", { chatbot_id: "cb_1", text: "x".repeat(2000) }), ctx), version, "CallToolResult");
		expect(response.result.isError).toBe(true);
		expect("structuredContent" in response.result).toBe(false);
		const [content] = response.result.content as Array<{ type: string; text: string }>;
		expect(content.type).toBe("text");
		expect(content.text).toContain("char_cap");
		expect(content.text).toContain("49,000 of its 50,000");
		expect(content.text).toContain("Send a shorter text.");
	});

	it("answers -32603 without details when the tool throws, and reports the error", async () => {
		const secret = "mongodb://admin:hunter2@10.0.0.5/db timed out";
		const { ctx, internalErrors } = context({}, async () => {
			throw new Error(secret);
		});
		const reply = await send(call(7, "get_chatbot", { chatbot_id: "cb_1" }), ctx);
		const response = failed(reply, ctx.protocolVersion, -32603);
		expect(response).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Internal error" } });
		expect(JSON.stringify(reply)).not.toContain("hunter2");
		expect(internalErrors).toEqual([new Error(secret)]);
	});

	it("still answers -32603 when the error reporter itself throws", async () => {
		const { ctx } = context(
			{
				onInternalError: () => {
					throw new Error("logger down");
				}
			},
			async () => {
				throw new Error("tool down");
			}
		);
		failed(await send(call(1, "get_chatbot", { chatbot_id: "cb_1" }), ctx), ctx.protocolVersion, -32603);
	});

	it("answers -32603 when a tool's data does not match its outputSchema", async () => {
		const { ctx, internalErrors } = context({}, async () => toolSuccess({ ...chatbot(), chat_link: "https://x.example" }));
		failed(await send(call(1, "get_chatbot", { chatbot_id: "cb_1" }), ctx), ctx.protocolVersion, -32603);
		expect(JSON.stringify(internalErrors)).toContain("chat_link");
	});

	it("drops undefined optional fields before checking and sending", async () => {
		const { ctx } = context({ authenticated: true }, async () =>
			toolSuccess(chatbot({ sandbox: false, claim_url: undefined, expires_at: undefined }))
		);
		const response = ok(await send(call(1, "get_chatbot", { chatbot_id: "cb_1" }), ctx), ctx.protocolVersion, "CallToolResult");
		expect(response.result.structuredContent).not.toHaveProperty("claim_url");
	});
});

describe("results of read-only tools, remembered", () => {
	const resultOf = (reply: McpReply) => (single(reply) as JsonRpcSuccessResponse).result;

	it("answers a repeated get_chatbot result from memory, byte for byte what checking it anew would send", async () => {
		const unique = chatbot({ chatbot_id: "cb_memo_1", name: "Remembered" });
		const { ctx } = context({}, async () => toolSuccess(unique));
		const first = await send(call(1, "get_chatbot", { chatbot_id: "cb_memo_1" }), ctx);
		const second = await send(call(2, "get_chatbot", { chatbot_id: "cb_memo_1" }), ctx);
		// The same constant result, frozen so no reader can change what the next poll is shown.
		expect(resultOf(second)).toBe(resultOf(first));
		expect(Object.isFrozen(resultOf(second))).toBe(true);
		expect(responseJson(second.body as JsonRpcResponse)).toBe(JSON.stringify(second.body));
		assertValidMcpMessage(ctx.protocolVersion, second.body, "CallToolResult");
		expect(JSON.parse(responseJson(second.body as JsonRpcResponse))).toMatchObject({ id: 2, result: { structuredContent: unique } });
	});

	it("checks a changed result anew, and a result that failed its check is never remembered", async () => {
		let data: Record<string, unknown> = chatbot({ chatbot_id: "cb_memo_2" });
		const { ctx, internalErrors } = context({}, async () => toolSuccess(data));
		const before = resultOf(await send(call(1, "get_chatbot", { chatbot_id: "cb_memo_2" }), ctx));
		data = chatbot({ chatbot_id: "cb_memo_2", status: "ready", ready: true });
		const after = resultOf(await send(call(2, "get_chatbot", { chatbot_id: "cb_memo_2" }), ctx));
		expect(after).not.toBe(before);
		expect(after.structuredContent).toMatchObject({ status: "ready", ready: true });

		data = { ...chatbot({ chatbot_id: "cb_memo_3" }), chat_link: "https://x.example" };
		failed(await send(call(3, "get_chatbot", { chatbot_id: "cb_memo_3" }), ctx), ctx.protocolVersion, -32603);
		failed(await send(call(4, "get_chatbot", { chatbot_id: "cb_memo_3" }), ctx), ctx.protocolVersion, -32603);
		expect(internalErrors).toHaveLength(2);
	});

	it("keeps revisions apart: structured content only where the revision has it", async () => {
		const unique = chatbot({ chatbot_id: "cb_memo_4" });
		for (const version of ["2025-06-18", "2025-03-26", "2025-06-18"] as const) {
			const { ctx } = context({ protocolVersion: version }, async () => toolSuccess(unique));
			const response = ok(await send(call(1, "get_chatbot", { chatbot_id: "cb_memo_4" }), ctx), version, "CallToolResult");
			expect("structuredContent" in response.result).toBe(version === "2025-06-18");
		}
	});

	it("does not remember what tools that change things return", async () => {
		const { ctx } = context();
		const first = resultOf(await send(call(1, "add_qa", { chatbot_id: "cb_123", question: "Do you ship?", answer: "Yes." }), ctx));
		const second = resultOf(await send(call(2, "add_qa", { chatbot_id: "cb_123", question: "Do you ship?", answer: "Yes." }), ctx));
		expect(second).not.toBe(first);
		expect(Object.isFrozen(second)).toBe(false);
	});
});

describe("tool arguments", () => {
	it("are flat in every tool's schema, so the validator's defaults never reach into the caller's objects", () => {
		for (const tool of TOOL_DEFINITIONS) {
			for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
				expect({ tool: tool.name, name, type: (property as { type?: string }).type }).toEqual({ tool: tool.name, name, type: expect.stringMatching(/^(string|number|integer|boolean)$/) });
			}
		}
	});

	it("are completed with defaults in a copy", () => {
		const args = { website_url: "https://example.com/" };
		const checked = validateToolArguments("create_chatbot", args);
		expect(checked).toEqual({ ok: true, value: { website_url: "https://example.com/", language: "en" } });
		expect(args).toEqual({ website_url: "https://example.com/" });
	});
});

describe("batches", () => {
	it.each([...SUPPORTED_VERSIONS])("answers a mixed batch in order, leaving out notifications (%s)", async version => {
		const { ctx } = context({ protocolVersion: version });
		const reply = await send(
			[
				rpc(1, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } }),
				note("notifications/initialized"),
				rpc("two", "tools/list"),
				{ jsonrpc: "2.0", id: 3 },
				call(4, "create_chatbot", { website_url: "https://example.com/" }),
				rpc(5, "nope"),
				call(6, "get_chatbot", {})
			],
			ctx
		);
		expect(reply.status).toBe(200);
		assertValidMcpMessage(version, reply.body);
		const responses = reply.body as JsonRpcResponse[];
		expect(responses.map(response => response.id)).toEqual([1, "two", 3, 4, 5, 6]);
		expect(responses.map(response => ("error" in response ? response.error.code : "ok"))).toEqual(["ok", "ok", -32600, "ok", -32601, -32602]);
	});

	it("answers a batch of only notifications with 202", async () => {
		const { ctx } = context();
		expect(await send([note("notifications/initialized"), note("notifications/cancelled")], ctx)).toEqual({ status: 202 });
	});

	it("answers a batch of invalid elements with one error each", async () => {
		const { ctx } = context();
		const reply = await send([1, "x", null], ctx);
		assertValidMcpMessage(ctx.protocolVersion, reply.body);
		expect((reply.body as JsonRpcResponse[]).map(response => ("error" in response ? response.error.code : 0))).toEqual([-32600, -32600, -32600]);
	});

	it("keeps answering the rest of a batch after a tool throws", async () => {
		const { ctx } = context({}, async ({ name }) => {
			if (name === "get_chatbot") throw new Error("boom");
			return toolSuccess(chatbot());
		});
		const reply = await send([call(1, "get_chatbot", { chatbot_id: "a" }), call(2, "create_chatbot", { website_url: "https://a.example" })], ctx);
		assertValidMcpMessage(ctx.protocolVersion, reply.body);
		const [first, second] = reply.body as JsonRpcResponse[];
		expect("error" in first && first.error.code).toBe(-32603);
		expect("result" in second && second.result.isError).toBe(false);
	});
});

describe("countToolCalls", () => {
	const create = (id: number) => call(id, "create_chatbot", { website_url: "https://a.example" });

	it("counts create_chatbot calls in a single body and in a batch", () => {
		expect(countToolCalls(JSON.stringify(create(1)), "create_chatbot")).toBe(1);
		expect(countToolCalls(JSON.stringify([create(1), create(2), call(3, "get_chatbot", { chatbot_id: "x" }), rpc(4, "tools/list")]), "create_chatbot")).toBe(2);
		expect(countToolCalls(JSON.stringify([create(1), call(3, "get_chatbot", { chatbot_id: "x" })]), "get_chatbot")).toBe(1);
	});

	it("ignores notifications and invalid elements, which never run", () => {
		const asNotification = { jsonrpc: "2.0", method: "tools/call", params: { name: "create_chatbot" } };
		expect(countToolCalls(JSON.stringify([asNotification, { ...create(1), jsonrpc: "1.0" }, create(2)]), "create_chatbot")).toBe(1);
	});

	it.each(["", "{", "null", "[]", "42", '"create_chatbot"', "[null, 1, {}]", '{"params":null}', JSON.stringify(rpc(1, "tools/call", [1]))])(
		"returns 0 without throwing for %p",
		raw => {
			expect(countToolCalls(raw, "create_chatbot")).toBe(0);
		}
	);
});
