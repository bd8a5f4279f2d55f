/**
 * JSON-RPC framing of the tool server: parsing, classification and the error responses, each
 * emitted response checked against the MCP schema of every supported revision.
 */
import {
	classifyMessage,
	internalErrorResponse,
	invalidParamsResponse,
	invalidRequestResponse,
	JSONRPC_ERROR_CODES,
	MAX_BATCH_LENGTH,
	methodNotFoundResponse,
	parseErrorResponse,
	parseJsonRpcBody,
	ParsedBody,
	ParsedMessage,
	successResponse
} from "../../lib/mcp/jsonrpc";
import { SUPPORTED_VERSIONS } from "../../lib/mcp/protocol";
import { assertValidMcpMessage, mcpMessageErrors } from "../helpers/mcp-schema";

function expectValidEverywhere(message: unknown): void {
	for (const version of SUPPORTED_VERSIONS) assertValidMcpMessage(version, message);
}

function rejected(body: ParsedBody) {
	if (body.kind !== "rejected") throw new Error(`expected a rejected body, got ${body.kind}`);
	expectValidEverywhere(body.response);
	return body.response;
}

function invalid(element: ParsedMessage) {
	if (element.kind !== "invalid") throw new Error(`expected an invalid element, got ${element.kind}`);
	expectValidEverywhere(element.response);
	return element.response;
}

describe("parseJsonRpcBody", () => {
	it.each(["", "{", "not json", '{"jsonrpc":"2.0",}', "[1,2"])("answers -32700 with id null for %p", raw => {
		const response = rejected(parseJsonRpcBody(raw));
		expect(response).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
	});

	it("answers an empty batch with a single -32600, not an array", () => {
		const response = rejected(parseJsonRpcBody("[]"));
		expect(response.id).toBeNull();
		expect(response.error.code).toBe(JSONRPC_ERROR_CODES.invalidRequest);
	});

	it("refuses a batch longer than MAX_BATCH_LENGTH as a whole", () => {
		const batch = Array.from({ length: MAX_BATCH_LENGTH + 1 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }));
		const response = rejected(parseJsonRpcBody(JSON.stringify(batch)));
		expect(response.error.code).toBe(-32600);
		expect(response.error.message).toContain(String(MAX_BATCH_LENGTH));
	});

	it("accepts a batch of exactly MAX_BATCH_LENGTH", () => {
		const batch = Array.from({ length: MAX_BATCH_LENGTH }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }));
		const parsed = parseJsonRpcBody(JSON.stringify(batch));
		expect(parsed.kind).toBe("batch");
		if (parsed.kind === "batch") expect(parsed.elements.every(element => element.kind === "request")).toBe(true);
	});

	it("parses a single request, keeping id, method and params", () => {
		const parsed = parseJsonRpcBody(JSON.stringify({ jsonrpc: "2.0", id: "a-1", method: "tools/list", params: { cursor: "x" } }));
		expect(parsed).toEqual({
			kind: "single",
			element: { kind: "request", message: { jsonrpc: "2.0", id: "a-1", method: "tools/list", params: { cursor: "x" } } }
		});
	});

	it("classifies each batch element on its own", () => {
		const parsed = parseJsonRpcBody(
			JSON.stringify([
				{ jsonrpc: "2.0", id: 1, method: "ping" },
				{ jsonrpc: "2.0", method: "notifications/initialized" },
				42,
				{ jsonrpc: "1.0", id: 7, method: "ping" }
			])
		);
		if (parsed.kind !== "batch") throw new Error("expected a batch");
		expect(parsed.elements.map(element => element.kind)).toEqual(["request", "notification", "invalid", "invalid"]);
		expect(invalid(parsed.elements[2]).id).toBeNull();
		expect(invalid(parsed.elements[3]).id).toBe(7);
	});
});

describe("classifyMessage", () => {
	it("treats a message without id as a notification", () => {
		expect(classifyMessage({ jsonrpc: "2.0", method: "notifications/initialized" })).toEqual({
			kind: "notification",
			message: { jsonrpc: "2.0", method: "notifications/initialized" }
		});
	});

	it("accepts string and integer ids, including 0", () => {
		expect(classifyMessage({ jsonrpc: "2.0", id: 0, method: "ping" }).kind).toBe("request");
		expect(classifyMessage({ jsonrpc: "2.0", id: "", method: "ping" }).kind).toBe("request");
	});

	it.each([
		["a primitive", "hello", null],
		["null", null, null],
		["an array inside a batch", [1], null],
		["a missing jsonrpc", { id: 3, method: "ping" }, 3],
		["a wrong jsonrpc", { jsonrpc: 2, id: "x", method: "ping" }, "x"],
		["a missing method", { jsonrpc: "2.0", id: 4 }, 4],
		["an empty method", { jsonrpc: "2.0", id: 4, method: "" }, 4],
		["a numeric method", { jsonrpc: "2.0", id: 5, method: 12 }, 5],
		["an id of null", { jsonrpc: "2.0", id: null, method: "ping" }, null],
		["a fractional id", { jsonrpc: "2.0", id: 1.5, method: "ping" }, null],
		["a boolean id", { jsonrpc: "2.0", id: true, method: "ping" }, null],
		["an object id", { jsonrpc: "2.0", id: { a: 1 }, method: "ping" }, null],
		["string params", { jsonrpc: "2.0", id: 6, method: "ping", params: "x" }, 6],
		["null params", { jsonrpc: "2.0", id: 8, method: "ping", params: null }, 8],
		["a client response", { jsonrpc: "2.0", id: 9, result: {} }, 9]
	])("answers -32600 for %s, with the id when readable", (_label, value, expectedId) => {
		const response = invalid(classifyMessage(value));
		expect(response.error.code).toBe(-32600);
		expect(response.id).toBe(expectedId);
		expect(response.error.message).toMatch(/^Invalid request: /);
	});

	it("lets array params through to the method, which decides (-32602)", () => {
		expect(classifyMessage({ jsonrpc: "2.0", id: 1, method: "ping", params: [] }).kind).toBe("request");
	});
});

describe("error helpers", () => {
	it("builds each standard error with its code", () => {
		const all = [
			parseErrorResponse(),
			invalidRequestResponse(null, "x."),
			methodNotFoundResponse(3, "nope"),
			invalidParamsResponse("q", "Invalid params: y.", { errors: [{ field: "y", message: "y is required." }] }),
			internalErrorResponse(4)
		];
		expect(all.map(response => response.error.code)).toEqual([-32700, -32600, -32601, -32602, -32603]);
		for (const response of all) expectValidEverywhere(response);
	});

	it("never puts anything but a fixed sentence in an internal error", () => {
		expect(internalErrorResponse(1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
	});

	it("truncates a huge method name echoed back", () => {
		const response = methodNotFoundResponse(1, "m".repeat(10_000));
		expect(response.error.message.length).toBeLessThan(150);
	});

	it("builds a success response", () => {
		const response = successResponse(2, {});
		expect(response).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
		expectValidEverywhere(response);
	});
});

describe("schema helper", () => {
	it("rejects id null on errors other than -32700 and -32600", () => {
		const response = { jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } };
		expect(mcpMessageErrors("2025-06-18", response).join()).toMatch(/id null/);
	});

	it("rejects a response with both result and error, and unknown top-level fields", () => {
		expect(mcpMessageErrors("2025-03-26", { jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "x" } })).not.toEqual([]);
		expect(mcpMessageErrors("2025-03-26", { jsonrpc: "2.0", id: 1, result: {}, extra: true })).not.toEqual([]);
	});

	it("has no schema for an unsupported revision", () => {
		expect(() => mcpMessageErrors("2023-01-01", {})).toThrow(/No MCP schema/);
	});
});
