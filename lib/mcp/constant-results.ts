/**
 * Results whose JSON text is known when they are made, and the JSON writer that reuses that text
 * instead of serialising the result again:
 *
 * - results that never change for a protocol revision and caller kind (`tools/list`), built and
 *   serialised once: each is a frozen copy, so the text kept for it cannot drift from the object;
 * - a tool call's result, whose structured part was serialised anyway to be checked against the
 *   tool's output schema (lib/mcp/server.ts): handed over as final, never changed afterwards.
 *
 * The text is kept beside the object in process only; a result that crosses the bus is serialised
 * as any other.
 */
import { RecentMap } from "../cache/recent-map";
import { GzipPrefix } from "../http/gzip-prefix";
import type { JsonRpcResponse } from "./jsonrpc";
import type { ProtocolVersion } from "./protocol";
import { toolsForVersion } from "./tools";

/**
 * A result's JSON text; for a constant one the same text as UTF-8 bytes, ready for the socket, and
 * once asked for, its gzip prefix.
 */
const serialised = new WeakMap<object, { text: string; bytes?: Buffer; gzip?: GzipPrefix }>();

/** Remembers `text`, which must be exactly `JSON.stringify(result)`, for a result nobody changes afterwards. */
export function withJson<T extends object>(result: T, text: string): T {
	serialised.set(result, { text });
	return result;
}

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
	return keepAsConstant(JSON.parse(text) as T, text);
}

/** `result` as a constant: itself when it already is one (a result made in this process), else a frozen copy. */
export function asConstant<T extends object>(result: T): T {
	return serialised.get(result)?.bytes !== undefined ? result : constantResult(result);
}

/** Makes `result`, whose JSON text is exactly `text`, a constant: frozen, its text and bytes remembered. */
function keepAsConstant<T extends object>(result: T, text: string): T {
	deepFreeze(result);
	serialised.set(result, { text, bytes: Buffer.from(text, "utf8") });
	return result;
}

/**
 * Checked and formatted results of read-only tools, by tool, revision kind and the result's
 * compact JSON. An agent polls `get_chatbot` every 10-20 s and most polls find the chatbot as it
 * was; the result's check against the output schema, its pretty text and that text escaped into
 * the response are then the same work on the same input. A hit hands over the constant made the
 * first time (the same bytes that work would write); the least recently used go beyond the bound.
 */
const readResults = new Map<string, RecentMap<string, Record<string, unknown>>>();
/** Results kept per tool and revision kind. Longer results (a long list of chatbots) are not kept: these stay within a few MB. */
const REMEMBERED_PER_KIND = 256;
const MAX_REMEMBERED_JSON = 4096;

/** Keyed by the JSON text itself (not a key built from it, which would copy those characters per lookup). */
function resultsOf(tool: string, structured: boolean): RecentMap<string, Record<string, unknown>> {
	const kind = structured ? tool : `${tool} unstructured`;
	let results = readResults.get(kind);
	if (!results) readResults.set(kind, (results = new RecentMap(REMEMBERED_PER_KIND)));
	return results;
}

export function rememberedToolResult(tool: string, structured: boolean, json: string): Record<string, unknown> | undefined {
	return json.length <= MAX_REMEMBERED_JSON ? resultsOf(tool, structured).get(json) : undefined;
}

/** Keeps `result` (frozen from now on), the checked result of a read-only tool whose data's JSON is `json`. */
export function rememberToolResult(tool: string, structured: boolean, json: string, result: Record<string, unknown>): void {
	const kept = serialised.get(result);
	if (kept && json.length <= MAX_REMEMBERED_JSON) resultsOf(tool, structured).set(json, keepAsConstant(result, kept.text));
}

/** By revision: the anonymous list, then the one with an API key. */
const toolLists = new Map<ProtocolVersion, Array<{ tools: Record<string, unknown>[] }>>();

/** The `tools/list` result for a revision and caller kind: the same frozen object every time. */
export function toolListResult(version: ProtocolVersion, authenticated: boolean): { tools: Record<string, unknown>[] } {
	let lists = toolLists.get(version);
	if (!lists) toolLists.set(version, (lists = []));
	return (lists[authenticated ? 1 : 0] ??= constantResult({ tools: toolsForVersion(version, { authenticated }) }));
}

/** The remembered serialisation of a `successResponse`-shaped {jsonrpc, id, result} whose result is constant. */
function rememberedResult(response: JsonRpcResponse): { head: string; kept: { text: string; bytes?: Buffer; gzip?: GzipPrefix } } | undefined {
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
	return replyChunks(body, () => false).chunks;
}

/** Constant results at least this long are worth sending compressed (the anonymous `tools/list` is 21 KB). */
const GZIP_MIN_BYTES = 4096;

/** A reply body as pieces to write in order, and how it is coded. */
export interface ReplyChunks {
	chunks: Array<string | Buffer>;
	/** The body could have been gzip-coded, so the response varies by Accept-Encoding. */
	varies: boolean;
	gzip: boolean;
}

/**
 * `responseChunks`, or for one response whose result is a constant of `GZIP_MIN_BYTES` or more and a
 * client that takes gzip (`acceptsGzip` is asked only then), the gzip body made with nothing
 * compressed per request (lib/http/gzip-prefix.ts). The coded JSON puts the result first,
 * `{"result":…,"jsonrpc":"2.0","id":…}`, so that only the id at the end differs between requests;
 * a JSON object's members have no order.
 */
export function replyChunks(body: JsonRpcResponse | JsonRpcResponse[], acceptsGzip: () => boolean): ReplyChunks {
	const remembered = Array.isArray(body) ? undefined : rememberedResult(body);
	if (!remembered) return { chunks: [responseJson(body)], varies: false, gzip: false };
	const { kept } = remembered;
	const plain = [remembered.head, kept.bytes ?? kept.text, "}"];
	const varies = kept.bytes !== undefined && kept.bytes.length >= GZIP_MIN_BYTES;
	if (!varies || !acceptsGzip() || Array.isArray(body) || !("result" in body)) return { chunks: plain, varies, gzip: false };
	kept.gzip ??= new GzipPrefix(Buffer.concat([Buffer.from('{"result":'), kept.bytes as Buffer]));
	const coded = kept.gzip.body(`,"jsonrpc":${JSON.stringify(body.jsonrpc)},"id":${JSON.stringify(body.id)}}`);
	return coded ? { chunks: coded, varies, gzip: true } : { chunks: plain, varies, gzip: false };
}
