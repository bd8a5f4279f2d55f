/**
 * Results that never change for a given protocol revision and caller kind (`tools/list`), built
 * and serialised once, and the JSON writer that reuses that text instead of serialising the same
 * few kilobytes of tool schemas on every request. Each cached result is a frozen copy, so the text
 * kept for it cannot drift from the object handed out.
 */
import type { JsonRpcResponse } from "./jsonrpc";
import type { ProtocolVersion } from "./protocol";
import { toolsForVersion } from "./tools";

const serialised = new WeakMap<object, string>();

function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}

/** A frozen copy of `value` whose JSON text is remembered for `responseJson`. */
export function constantResult<T extends object>(value: T): T {
	const text = JSON.stringify(value);
	const copy = deepFreeze(JSON.parse(text) as T);
	serialised.set(copy, text);
	return copy;
}

const toolLists = new Map<string, { tools: Record<string, unknown>[] }>();

/** The `tools/list` result for a revision and caller kind: the same frozen object every time. */
export function toolListResult(version: ProtocolVersion, authenticated: boolean): { tools: Record<string, unknown>[] } {
	const key = `${version} ${authenticated}`;
	let result = toolLists.get(key);
	if (!result) {
		result = constantResult({ tools: toolsForVersion(version, { authenticated }) });
		toolLists.set(key, result);
	}
	return result;
}

function oneResponseJson(response: JsonRpcResponse): string {
	if ("result" in response && response.id !== undefined) {
		const text = serialised.get(response.result);
		const keys = Object.keys(response);
		// Exactly what JSON.stringify writes for `successResponse`'s {jsonrpc, id, result}.
		if (text !== undefined && keys.length === 3 && keys[0] === "jsonrpc" && keys[1] === "id" && keys[2] === "result") {
			return `{"jsonrpc":${JSON.stringify(response.jsonrpc)},"id":${JSON.stringify(response.id)},"result":${text}}`;
		}
	}
	return JSON.stringify(response);
}

/** The JSON text of a reply body, byte for byte what JSON.stringify writes, reusing remembered results. */
export function responseJson(body: JsonRpcResponse | JsonRpcResponse[]): string {
	return Array.isArray(body) ? `[${body.map(oneResponseJson).join(",")}]` : oneResponseJson(body);
}
