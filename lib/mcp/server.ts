/**
 * The tool server's dispatcher: one HTTP body in, the HTTP status and JSON-RPC answer out.
 *
 * It knows nothing of HTTP headers, authentication or services. The gateway checks the
 * `MCP-Protocol-Version` header and the API key first, then passes the negotiated revision, whether
 * the caller is authenticated, and a `callTool` function that runs a tool for that caller.
 *
 * Failure classes, kept apart as MCP asks:
 *   - protocol faults (bad JSON, bad message, unknown method or tool, bad arguments) → JSON-RPC errors;
 *   - a tool that ran and failed for a business reason (cap reached, chatbot not found)
 *     → a normal result with `isError: true`, so the agent's model reads the message and adapts;
 *   - anything unexpected → -32603 "Internal error", details only to `onInternalError`.
 */
import {
	internalErrorResponse,
	invalidParamsResponse,
	isPlainObject,
	JsonRpcRequest,
	JsonRpcResponse,
	JsonRpcSuccessResponse,
	methodNotFoundResponse,
	ParsedBody,
	ParsedMessage,
	parseJsonRpcBody,
	successResponse,
	echo
} from "./jsonrpc";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../http/json-depth";
import { atLeast, initializeResult, negotiateVersion, ProtocolVersion, ServerInfo } from "./protocol";
import { validateToolArguments, validateToolOutput } from "./tool-validation";
import { rememberedToolResult, rememberToolResult, toolListResult, withJson } from "./constant-results";
import { findTool, ToolName } from "./tools";
import type { ChatbotRead } from "../chatbots/changes";

/** A business failure a tool reports to the agent (not a protocol error). */
export interface ToolFailure {
	/** Stable machine code, e.g. `char_cap`, `not_found`. */
	code: string;
	/** What went wrong, in words the agent's model can act on. */
	message: string;
	/** What to do about it. */
	hint?: string;
}

export type ToolOutcome = { ok: true; data: object } | { ok: false; error: ToolFailure };

export function toolSuccess(data: object): ToolOutcome {
	return { ok: true, data };
}

export function toolFailure(code: string, message: string, hint?: string): ToolOutcome {
	return { ok: false, error: hint === undefined ? { code, message } : { code, message, hint } };
}

export interface McpRequestContext {
	/** From `checkProtocolHeader`: decides the shape of `tools/list` and `tools/call` results. */
	protocolVersion: ProtocolVersion;
	/** True when the request carried a valid API key (adds `list_chatbots`). */
	authenticated: boolean;
	serverInfo: ServerInfo;
	/**
	 * Runs a tool for this caller with validated arguments (defaults applied). Return
	 * `toolFailure(...)` for business failures; a throw becomes -32603 "Internal error".
	 */
	callTool: (name: ToolName, args: Record<string, unknown>) => Promise<ToolOutcome>;
	/** Receives what the client never sees: exceptions and results that break the output schema. */
	onInternalError?: (error: unknown, where: { method: string; tool?: ToolName }) => void;
}

export interface McpReply {
	/** 200 with a body when anything needs an answer; 202 and no body for notifications only. */
	status: 200 | 202;
	body?: JsonRpcResponse | JsonRpcResponse[];
	/**
	 * Set when the body was one successful `get_chatbot` call: the chatbot its result shows, which
	 * the gateway may answer the same call from until that chatbot changes (lib/cache/read-cache.ts).
	 */
	read?: ChatbotRead;
}

/** True for a reply of one response, a tool's success: the only kind `McpReply.read` may describe. */
export function isOneToolSuccess(reply: McpReply): reply is McpReply & { body: JsonRpcSuccessResponse } {
	const body = reply.body;
	return body !== undefined && !Array.isArray(body) && "result" in body && body.result.isError === false;
}

type MethodHandler = (request: JsonRpcRequest, params: Record<string, unknown>, ctx: McpRequestContext) => Promise<JsonRpcResponse>;

/** Thrown by a handler to report an internal fault that is not an exception of its own. */
class InternalFault extends Error {
	constructor(readonly detail: unknown) {
		super("internal fault");
	}
}

async function handleInitialize(request: JsonRpcRequest, params: Record<string, unknown>, ctx: McpRequestContext): Promise<JsonRpcResponse> {
	if (typeof params.protocolVersion !== "string") {
		return invalidParamsResponse(request.id, "Invalid params: initialize needs params.protocolVersion (string).", {
			errors: [{ field: "protocolVersion", message: "protocolVersion is required." }]
		});
	}
	for (const field of ["capabilities", "clientInfo"]) {
		if (params[field] !== undefined && !isPlainObject(params[field])) {
			return invalidParamsResponse(request.id, `Invalid params: ${field} must be an object.`, {
				errors: [{ field, message: `${field} must be an object.` }]
			});
		}
	}
	return successResponse(request.id, initializeResult(negotiateVersion(params.protocolVersion), ctx.serverInfo));
}

async function handlePing(request: JsonRpcRequest): Promise<JsonRpcResponse> {
	return successResponse(request.id, {});
}

async function handleListTools(request: JsonRpcRequest, _params: Record<string, unknown>, ctx: McpRequestContext): Promise<JsonRpcResponse> {
	// One page holds every tool, so a `cursor` has nothing to continue and is ignored.
	return successResponse(request.id, toolListResult(ctx.protocolVersion, ctx.authenticated));
}

function failureText(error: ToolFailure): string {
	const hint = error.hint ? `\nWhat to do: ${error.hint}` : "";
	return `Error (${error.code}): ${error.message}${hint}`;
}

async function handleCallTool(request: JsonRpcRequest, params: Record<string, unknown>, ctx: McpRequestContext): Promise<JsonRpcResponse> {
	const { name, arguments: rawArgs } = params;
	if (typeof name !== "string" || name === "") {
		return invalidParamsResponse(request.id, "Invalid params: tools/call needs params.name (string).", {
			errors: [{ field: "name", message: "name is required." }]
		});
	}
	const tool = findTool(name);
	if (!tool) return invalidParamsResponse(request.id, `Unknown tool: ${echo(name)}. Call tools/list to see the tools.`, { tool: echo(name) });
	if (tool.requiresAccount && !ctx.authenticated) {
		return invalidParamsResponse(request.id, `Unknown tool: ${tool.name} needs an API key (Authorization: Bearer <key>).`, { tool: tool.name });
	}
	if (rawArgs !== undefined && !isPlainObject(rawArgs)) {
		return invalidParamsResponse(request.id, "Invalid params: arguments must be an object.", {
			tool: tool.name,
			errors: [{ field: "arguments", message: "arguments must be an object." }]
		});
	}
	const args = validateToolArguments(tool.name, rawArgs ?? {});
	if (!args.ok) {
		const summary = args.problems.map(problem => problem.message).join(" ");
		return invalidParamsResponse(request.id, `Invalid arguments for ${tool.name}: ${summary}`, { tool: tool.name, errors: args.problems });
	}

	const outcome = await ctx.callTool(tool.name, args.value);
	if (!outcome.ok) {
		return successResponse(request.id, { content: [{ type: "text", text: failureText(outcome.error) }], isError: true });
	}
	// Round-trip through JSON so what we check is exactly what we send (undefined fields dropped);
	// the same text is then the structured part of the response, which is not serialised again.
	const json = JSON.stringify(outcome.data);
	const structured = atLeast(ctx.protocolVersion, "2025-06-18");
	const readOnly = tool.annotations.readOnlyHint;
	const remembered = readOnly ? rememberedToolResult(tool.name, structured, json) : undefined;
	if (remembered) return successResponse(request.id, remembered);
	const checked = validateToolOutput(tool.name, JSON.parse(json));
	if (!checked.ok) throw new InternalFault({ reason: "tool result does not match its outputSchema", problems: checked.problems });
	const result = toolCallResult(checked.value, json, structured);
	if (readOnly) rememberToolResult(tool.name, structured, json, result);
	return successResponse(request.id, result);
}

/**
 * A successful tool call's result: the data as pretty JSON text for any client, and as structured
 * content for revisions that have it. `json` is the data's compact JSON text; the result's own
 * text is remembered with it (constant-results.ts), byte for byte what JSON.stringify would write.
 */
export function toolCallResult(data: Record<string, unknown>, json: string, structured: boolean): Record<string, unknown> {
	const content = [{ type: "text", text: JSON.stringify(data, null, 2) }];
	const result: Record<string, unknown> = { content, isError: false };
	if (!structured) return withJson(result, `{"content":${JSON.stringify(content)},"isError":false}`);
	result.structuredContent = data;
	return withJson(result, `{"content":${JSON.stringify(content)},"isError":false,"structuredContent":${json}}`);
}

// A Map, not an object literal, so a method named "constructor" or "__proto__" finds nothing.
const METHODS = new Map<string, MethodHandler>([
	["initialize", handleInitialize],
	["ping", handlePing],
	["tools/list", handleListTools],
	["tools/call", handleCallTool]
]);

async function answerRequest(request: JsonRpcRequest, ctx: McpRequestContext): Promise<JsonRpcResponse> {
	const handler = METHODS.get(request.method);
	if (!handler) return methodNotFoundResponse(request.id, request.method);
	if (request.params !== undefined && !isPlainObject(request.params)) {
		return invalidParamsResponse(request.id, "Invalid params: params must be an object.", {
			errors: [{ field: "params", message: "params must be an object." }]
		});
	}
	// Validation copies and walks the arguments recursively; thousands of levels would overflow the
	// stack. No method takes more than a few levels, so anything past the bound is the caller's error.
	if (nestedDeeperThan(request.params, MAX_JSON_DEPTH)) {
		return invalidParamsResponse(request.id, `Invalid params: params nest more than ${MAX_JSON_DEPTH} levels deep.`, {
			errors: [{ field: "params", message: `params must not nest more than ${MAX_JSON_DEPTH} levels deep.` }]
		});
	}
	try {
		return await handler(request, request.params ?? {}, ctx);
	} catch (error) {
		const toolName = request.method === "tools/call" && isPlainObject(request.params) ? request.params.name : undefined;
		const tool = typeof toolName === "string" ? findTool(toolName)?.name : undefined;
		try {
			ctx.onInternalError?.(error instanceof InternalFault ? error.detail : error, { method: request.method, tool });
		} catch {
			// A failing logger must not turn one bad call into an unanswered body.
		}
		return internalErrorResponse(request.id);
	}
}

/** The response to one element, or undefined for a notification (never answered, never run). */
async function answerElement(element: ParsedMessage, ctx: McpRequestContext): Promise<JsonRpcResponse | undefined> {
	switch (element.kind) {
		case "invalid":
			return element.response;
		case "notification":
			// notifications/initialized, notifications/cancelled, ...: a stateless server has nothing to update.
			return undefined;
		case "request":
			return answerRequest(element.message, ctx);
	}
}

/** Answers one `POST /mcp` body, as text or as `parseJsonRpcBody` read it. Never throws. */
export async function handleMcpBody(body: string | ParsedBody, ctx: McpRequestContext): Promise<McpReply> {
	const parsed = typeof body === "string" ? parseJsonRpcBody(body) : body;
	if (parsed.kind === "rejected") return { status: 200, body: parsed.response };
	if (parsed.kind === "single") {
		const response = await answerElement(parsed.element, ctx);
		return response ? { status: 200, body: response } : { status: 202 };
	}
	// In order, one after another: a batch may add knowledge and then read the chatbot.
	const responses: JsonRpcResponse[] = [];
	for (const element of parsed.elements) {
		const response = await answerElement(element, ctx);
		if (response) responses.push(response);
	}
	return responses.length > 0 ? { status: 200, body: responses } : { status: 202 };
}

/**
 * The tool names of the `tools/call` requests a body holds, in order (for the rate budgets: each
 * call is charged, and `create_chatbot` also against its own budget). Counts only well-formed
 * requests with an id and a string name, the ones that would run; none for junk.
 */
export function toolCallNames(body: string | ParsedBody): string[] {
	const parsed = typeof body === "string" ? parseJsonRpcBody(body) : body;
	const elements = parsed.kind === "batch" ? parsed.elements : parsed.kind === "single" ? [parsed.element] : [];
	const names: string[] = [];
	for (const element of elements) {
		if (element.kind !== "request" || element.message.method !== "tools/call" || !isPlainObject(element.message.params)) continue;
		const name = element.message.params.name;
		if (typeof name === "string") names.push(name);
	}
	return names;
}

/** How many `tools/call` requests for `toolName` a body holds. */
export function countToolCalls(rawBody: string, toolName: string): number {
	return toolCallNames(rawBody).filter(name => name === toolName).length;
}
