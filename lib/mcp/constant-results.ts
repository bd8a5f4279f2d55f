/**
 * Results that never change for a given protocol revision and caller kind (`tools/list`), built
 * and serialised once, and the JSON writer that reuses that text instead of serialising the same
 * few kilobytes of tool schemas on every request. Each cached result is a frozen copy, so the text
 * kept for it cannot drift from the object handed out.
 */
import type { JsonRpcResponse } from "./jsonrpc";
import type { ProtocolVersion } from "./protocol";
import { toolsForVersion } from "./tools";

/** A constant result's JSON text, and the same text as UTF-8 bytes, ready for the socket. */
const serialised = new WeakMap<object, { text: string; bytes: Buffer }>();

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
	serialised.set(copy, { text, bytes: Buffer.from(text, "utf8") });
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

/** The remembered serialisation of a `successResponse`-shaped {jsonrpc, id, result} whose result is constant. */
function rememberedResult(response: JsonRpcResponse): { head: string; kept: { text: string; bytes: Buffer } } | undefined {
	if (!("result" in response) || response.id === undefined) return undefined;
	const kept = serialised.get(response.result);
	const keys = Object.keys(response);
	if (kept === undefined || keys.length !== 3 || keys[0] !== "jsonrpc" || keys[1] !== "id" || keys[2] !== "result") return undefined;
	// Exactly what JSON.stringify writes before the result.
	return { head: `{"jsonrpc":${JSON.stringify(response.jsonrpc)},"id":${JSON.stringify(response.id)},"result":`, kept };
}

function oneResponseJson(response: JsonRpcResponse): string {
	const remembered = rememberedResult(response);
	return remembered ? `${remembered.head}${remembered.kept.text}}` : JSON.stringify(response);
}

/** The JSON text of a reply body, byte for byte what JSON.stringify writes, reusing remembered results. */
export function responseJson(body: JsonRpcResponse | JsonRpcResponse[]): string {
	return Array.isArray(body) ? `[${body.map(oneResponseJson).join(",")}]` : oneResponseJson(body);
}

/**
 * The same text as pieces to write in order. A single response with a remembered result hands over
 * the remembered bytes themselves between its head and closing brace: the anonymous `tools/list` is
 * 21 KB, and encoding or copying it into a new buffer per request cost more than everything else the
 * request did (a fresh 21 KB buffer per request halved a bare server's throughput in the GC alone).
 */
export function responseChunks(body: JsonRpcResponse | JsonRpcResponse[]): Array<string | Buffer> {
	const remembered = Array.isArray(body) ? undefined : rememberedResult(body);
	return remembered ? [remembered.head, remembered.kept.bytes, "}"] : [responseJson(body)];
}
