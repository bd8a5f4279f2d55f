/**
 * JSON-RPC 2.0 framing for the tool server: parse a request body into a single message or a batch,
 * classify each element, and build error responses.
 *
 * Error messages are fixed sentences or echo only the caller's own input (a method or tool name,
 * truncated); nothing from our side (exception text, stack, internal ids) ever reaches them.
 */

/** MCP narrows JSON-RPC ids to strings and integers (no null, no fractions). */
export type JsonRpcId = string | number;

export type JsonRpcParams = Record<string, unknown> | unknown[];

export interface JsonRpcRequest {
	jsonrpc: "2.0";
	id: JsonRpcId;
	method: string;
	params?: JsonRpcParams;
}

export interface JsonRpcNotification {
	jsonrpc: "2.0";
	method: string;
	params?: JsonRpcParams;
}

export interface JsonRpcErrorObject {
	code: number;
	message: string;
	data?: Record<string, unknown>;
}

export interface JsonRpcSuccessResponse {
	jsonrpc: "2.0";
	id: JsonRpcId;
	result: Record<string, unknown>;
}

export interface JsonRpcErrorResponse {
	jsonrpc: "2.0";
	/** null only when the request's id could not be read (parse error, invalid request). */
	id: JsonRpcId | null;
	error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

export const JSONRPC_ERROR_CODES = {
	parseError: -32700,
	invalidRequest: -32600,
	methodNotFound: -32601,
	invalidParams: -32602,
	internalError: -32603
} as const;

/**
 * Largest batch we answer. JSON-RPC sets no bound, but every element may start work (a crawl, a
 * training run) behind a single rate-limit hit, so one body must not carry hundreds of them.
 */
export const MAX_BATCH_LENGTH = 50;

/** One element of a body, classified. */
export type ParsedMessage =
	| { kind: "request"; message: JsonRpcRequest }
	| { kind: "notification"; message: JsonRpcNotification }
	| { kind: "invalid"; response: JsonRpcErrorResponse };

export type ParsedBody =
	| { kind: "single"; element: ParsedMessage }
	| { kind: "batch"; elements: ParsedMessage[] }
	/** The body as a whole is unusable (not JSON, empty or oversized batch): answer this one response. */
	| { kind: "rejected"; response: JsonRpcErrorResponse };

const ECHO_LIMIT = 100;

/** Caller input quoted back in an error message, cut short so a huge name cannot bloat the response. */
export function echo(value: string): string {
	return value.length > ECHO_LIMIT ? `${value.slice(0, ECHO_LIMIT)}…` : value;
}

function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: Record<string, unknown>): JsonRpcErrorResponse {
	const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
	return { jsonrpc: "2.0", id, error };
}

export function parseErrorResponse(): JsonRpcErrorResponse {
	return errorResponse(null, JSONRPC_ERROR_CODES.parseError, "Parse error: the body is not valid JSON.");
}

export function invalidRequestResponse(id: JsonRpcId | null, reason: string): JsonRpcErrorResponse {
	return errorResponse(id, JSONRPC_ERROR_CODES.invalidRequest, `Invalid request: ${reason}`);
}

export function methodNotFoundResponse(id: JsonRpcId, method: string): JsonRpcErrorResponse {
	return errorResponse(id, JSONRPC_ERROR_CODES.methodNotFound, `Method not found: ${echo(method)}`);
}

export function invalidParamsResponse(id: JsonRpcId, message: string, data?: Record<string, unknown>): JsonRpcErrorResponse {
	return errorResponse(id, JSONRPC_ERROR_CODES.invalidParams, message, data);
}

/** Always the same text: whatever went wrong inside stays in our logs. */
export function internalErrorResponse(id: JsonRpcId): JsonRpcErrorResponse {
	return errorResponse(id, JSONRPC_ERROR_CODES.internalError, "Internal error");
}

export function successResponse(id: JsonRpcId, result: Record<string, unknown>): JsonRpcSuccessResponse {
	return { jsonrpc: "2.0", id, result };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isValidId(value: unknown): value is JsonRpcId {
	return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

function invalidMessage(id: JsonRpcId | null, reason: string): ParsedMessage {
	return { kind: "invalid", response: invalidRequestResponse(id, reason) };
}

/** Classifies one element of a body (a whole single body, or one batch entry). */
export function classifyMessage(value: unknown): ParsedMessage {
	if (!isPlainObject(value)) {
		return { kind: "invalid", response: invalidRequestResponse(null, "each message must be a JSON object.") };
	}
	const hasId = Object.prototype.hasOwnProperty.call(value, "id");
	// Answer with the caller's id whenever it is a usable one, so they can match the error.
	const id = hasId && isValidId(value.id) ? value.id : null;

	if (value.jsonrpc !== "2.0") return invalidMessage(id, '"jsonrpc" must be "2.0".');
	if (typeof value.method !== "string" || value.method === "") return invalidMessage(id, '"method" must be a non-empty string.');
	if (hasId && id === null) return invalidMessage(id, '"id" must be a string or an integer.');
	const params = value.params;
	if (params !== undefined && typeof params !== "object") return invalidMessage(id, '"params" must be an object.');
	if (params === null) return invalidMessage(id, '"params" must be an object.');

	const base = { jsonrpc: "2.0" as const, method: value.method };
	const withParams = params === undefined ? base : { ...base, params: params as JsonRpcParams };
	if (id === null) return { kind: "notification", message: withParams };
	return { kind: "request", message: { ...withParams, id } };
}

/** Parses a raw body. Never throws. */
export function parseJsonRpcBody(rawBody: string): ParsedBody {
	let value: unknown;
	try {
		value = JSON.parse(rawBody);
	} catch {
		return { kind: "rejected", response: parseErrorResponse() };
	}
	if (!Array.isArray(value)) return { kind: "single", element: classifyMessage(value) };
	if (value.length === 0) return { kind: "rejected", response: invalidRequestResponse(null, "an empty batch is not a request.") };
	if (value.length > MAX_BATCH_LENGTH) {
		return {
			kind: "rejected",
			response: invalidRequestResponse(null, `a batch may hold at most ${MAX_BATCH_LENGTH} messages.`)
		};
	}
	return { kind: "batch", elements: value.map(classifyMessage) };
}
