import { constantResult, responseChunks, responseJson, toolListResult } from "../../lib/mcp/constant-results";
import { successResponse, methodNotFoundResponse } from "../../lib/mcp/jsonrpc";
import { SUPPORTED_VERSIONS } from "../../lib/mcp/protocol";
import { toolCallResult } from "../../lib/mcp/server";
import { toolsForVersion } from "../../lib/mcp/tools";

describe("tools/list results built once", () => {
	it.each([...SUPPORTED_VERSIONS])("holds the tools of %s for each kind of caller, the same object every time", version => {
		for (const authenticated of [false, true]) {
			const result = toolListResult(version, authenticated);
			expect(result).toEqual({ tools: toolsForVersion(version, { authenticated }) });
			expect(toolListResult(version, authenticated)).toBe(result);
			expect(Object.isFrozen(result.tools[0])).toBe(true);
		}
	});
});

describe("responseJson", () => {
	const list = toolListResult("2025-06-18", false);

	it.each([1, "abc", 0, "quote\"d \u2028 id"])("writes exactly what JSON.stringify writes for id %p", id => {
		const response = successResponse(id, list);
		expect(responseJson(response)).toBe(JSON.stringify(response));
	});

	it("writes batches and ordinary responses as JSON.stringify does", () => {
		const batch = [successResponse(1, list), methodNotFoundResponse(2, "nope"), successResponse(3, { other: true })];
		expect(responseJson(batch)).toBe(JSON.stringify(batch));
	});

	it("falls back to JSON.stringify for a response shaped differently", () => {
		const odd = { jsonrpc: "2.0" as const, result: constantResult({ a: 1 }), id: 7 };
		expect(responseJson(odd)).toBe(JSON.stringify(odd));
	});
});

describe("tool call results serialised once", () => {
	const data = { chatbot_id: "c1", name: 'quote"d \u2028 näme </script>', pages: { found: 0, limit: 5 }, ready: false, tags: ["a", "b"] };
	const joined = (chunks: Array<string | Buffer>) => chunks.map(chunk => chunk.toString()).join("");

	it.each([true, false])("writes exactly what JSON.stringify writes (structured content: %p)", structured => {
		const result = toolCallResult(data, JSON.stringify(data), structured);
		expect(result.content).toEqual([{ type: "text", text: JSON.stringify(data, null, 2) }]);
		expect("structuredContent" in result).toBe(structured);
		const response = successResponse(9, result);
		expect(responseJson(response)).toBe(JSON.stringify(response));
		expect(joined(responseChunks(response))).toBe(JSON.stringify(response));
	});

	it("uses the remembered text, not the object, for the structured part", () => {
		// Proves the text is reused: a different text for the same data shows up in the response.
		const response = successResponse(1, toolCallResult(data, '{"marker":true}', true));
		expect(responseJson(response)).toContain('"structuredContent":{"marker":true}}');
	});
});
