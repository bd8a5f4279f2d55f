/**
 * Request generator for the HTTP fuzz test: from a seeded PRNG, requests against every route of
 * the route table and against unknown paths, with malformed JSON, wrong types, odd encodings and
 * media types, huge and deep bodies, odd headers, JSON-RPC batches for /mcp, and raw byte streams
 * that Node's HTTP parser itself refuses. Everything goes to loopback.
 */
import * as zlib from "node:zlib";
import { ROUTES } from "../../lib/http/routes";
import type { RouteDef } from "../../lib/http/routes/types";
import { prng } from "../../lib/random/prng";

export interface FuzzTargets {
	/** Live demo session ids the fuzz may aim at (and whose state is checked on refusal). */
	sessionIds: string[];
	/** Slugs of live chatbots. */
	slugs: string[];
	/** A sandbox chatbot's id for MCP tool calls. */
	sandboxId: string;
}

export interface FuzzRequest {
	/** Which generator made it, for failure messages. */
	label: string;
	method: string;
	/** Path and query. */
	path: string;
	headers: Record<string, string>;
	body?: Buffer;
	/** Bytes to send as they are over a fresh socket instead of an HTTP client request. */
	raw?: Buffer;
	route?: RouteDef;
	/** Index into `sessionIds` when the request aims at a live demo session. */
	session?: number;
}

type Rng = () => number;

const TOOL_NAMES = ["create_chatbot", "get_chatbot", "add_knowledge_url", "add_knowledge_text", "add_qa", "list_chatbots", "nope", "__proto__", "constructor", ""];
/** URLs that are refused before any network traffic leaves the machine (private, loopback, bad schemes). */
const REFUSED_URLS = [
	"http://127.0.0.1:1/",
	"http://10.0.0.1/page",
	"http://[::1]/",
	"http://169.254.169.254/latest/meta-data/",
	"http://0.0.0.0/",
	"ftp://files.example/x",
	"javascript:alert(1)",
	"file:///etc/passwd",
	"not a url",
	"http://",
	`http://127.0.0.1/${"a".repeat(3000)}`
];
const CONTENT_TYPES = [
	"application/json",
	"application/json; charset=utf-8",
	"application/json; charset=latin1",
	"application/json; charset=utf-16",
	"text/plain",
	"application/x-www-form-urlencoded",
	"multipart/form-data; boundary=xyz",
	"application/xml",
	"garbage",
	"application/json;;;charset=",
	"*/*",
	"application/pdf",
	"text/markdown"
];
const ACCEPTS = ["application/json", "text/html", "*/*", "text/markdown", "text/event-stream", "garbage/", "application/json;q=0, text/html", "text/plain"];

/** encodeURIComponent refuses lone surrogates; the fuzz text has them on purpose. */
function encode(text: string): string {
	return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, "\ufffd"));
}

function pick<T>(r: Rng, items: readonly T[]): T {
	return items[Math.floor(r() * items.length)];
}

function chance(r: Rng, p: number): boolean {
	return r() < p;
}

function randomText(r: Rng, max: number): string {
	const alphabets = ["abcdefghijklmnopqrstuvwxyz ", "áéíóúñ¿¡ ", "日本語中文 ", "🙂🚀👍🏽 ", "\u200b\u202e\u0000\u0007\t\n", "<>&\"'`\\/{}[]%$", "\ud800\udfff"];
	const alphabet = pick(r, alphabets);
	const length = Math.floor(r() * max);
	let out = "";
	for (let i = 0; i < length; i++) out += alphabet[Math.floor(r() * alphabet.length)];
	return out;
}

function junkString(r: Rng): string {
	return pick(r, [
		() => "",
		() => " ",
		() => randomText(r, 40),
		() => "x".repeat(50_001 + Math.floor(r() * 1000)),
		() => "../../etc/passwd",
		() => "%2e%2e%2f%00",
		() => "__proto__",
		() => "<script>alert(1)</script>",
		() => "' OR 1=1 --",
		() => pick(r, REFUSED_URLS),
		() => "\ud800",
		() => "es",
		() => "application/pdf"
	])();
}

function nested(r: Rng, depth: number): unknown {
	let value: unknown = chance(r, 0.5) ? 1 : "x";
	for (let i = 0; i < depth; i++) value = chance(r, 0.5) ? [value] : { a: value };
	return value;
}

function junkValue(r: Rng, depth = 0): unknown {
	const kinds: Array<() => unknown> = [
		() => junkString(r),
		() => pick(r, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 10_000_001, 4.2e-7]),
		() => chance(r, 0.5),
		() => null
	];
	if (depth < 3) {
		kinds.push(() => Array.from({ length: Math.floor(r() * 4) }, () => junkValue(r, depth + 1)));
		kinds.push(() => ({ [junkString(r).slice(0, 20) || "k"]: junkValue(r, depth + 1), constructor: { prototype: 1 } }));
		kinds.push(() => nested(r, 5 + Math.floor(r() * 60)));
	}
	return pick(r, kinds)();
}

/** A plausible value for a field this API knows, or junk. */
function fieldValue(r: Rng, name: string, targets: FuzzTargets): unknown {
	if (chance(r, 0.35)) return junkValue(r);
	switch (name) {
		case "url":
		case "website_url":
			return pick(r, REFUSED_URLS);
		case "text":
		case "answer":
		case "message":
			return chance(r, 0.8) ? randomText(r, 300) : "t".repeat(50_001);
		case "question":
			return randomText(r, 100);
		case "filename":
		case "file_name":
			return pick(r, ["notes.txt", "../x.pdf", "a".repeat(300), "", "файл.md"]);
		case "content_type":
		case "file_content_type":
			return pick(r, ["text/plain", "application/pdf", "application/x-msdownload", "TEXT/PLAIN ", ""]);
		case "size":
		case "file_size":
			return pick(r, [0, 10, 10_000_001, -5, 1.5]);
		case "file_s3_key":
			return pick(r, ["demo/x/y/z.txt", "demo/../../etc/passwd", "k", `demo/${targets.sandboxId}/a/b.txt`]);
		case "locale":
		case "language":
			return pick(r, ["en", "es", "fr", ""]);
		case "chatbot_id":
			return chance(r, 0.6) ? targets.sandboxId : junkString(r);
		case "conversation_id":
			return randomText(r, 40);
		default:
			return junkValue(r);
	}
}

function objectFor(r: Rng, schema: Record<string, unknown> | undefined, targets: FuzzTargets): Record<string, unknown> {
	const properties = (schema?.properties ?? {}) as Record<string, unknown>;
	const out: Record<string, unknown> = {};
	for (const name of Object.keys(properties)) if (chance(r, 0.8)) out[name] = fieldValue(r, name, targets);
	if (chance(r, 0.2)) out[junkString(r).slice(0, 30) || "extra"] = junkValue(r);
	// An own "__proto__" key, as JSON.parse would make it (a plain assignment would set the prototype).
	if (chance(r, 0.05)) Object.defineProperty(out, "__proto__", { value: { polluted: true }, enumerable: true });
	return out;
}

/** Turns a JSON text into one of the ways bodies go wrong. */
function mangle(r: Rng, json: string): Buffer {
	return pick<() => Buffer>(r, [
		() => Buffer.from(json),
		() => Buffer.from(json),
		() => Buffer.from(json.slice(0, Math.floor(r() * json.length))),
		() => Buffer.from(`${json},`),
		() => Buffer.from(json.replace(/"/g, "'")),
		() => Buffer.from(`\ufeff${json}`),
		() => Buffer.from(`/* c */${json}`),
		() => Buffer.from(pick(r, ["", "null", "[]", '"string"', "12", "NaN", "{", "}", "{}}", '{"a":1e400}', '{"a":1,"a":2}'])),
		() => Buffer.concat([Buffer.from('{"text":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]),
		() => Buffer.from(`{"pad":"${"p".repeat(600_000)}"}`),
		() => {
			const depth = 40 + Math.floor(r() * 20_000);
			return Buffer.from(`${"[".repeat(depth)}${"]".repeat(depth)}`);
		},
		() => Buffer.from(`{"text":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`)
	])();
}

function formBody(r: Rng): Buffer {
	return Buffer.from(
		pick(r, [
			() => `email=${encode(randomText(r, 30))}&password=${encode(randomText(r, 12))}`,
			() => "email=a%40b.example&password=short",
			() => `csrf=${randomText(r, 20)}&name=${encode(randomText(r, 40))}`,
			() => "a[b][c][d][e][f]=1&a[b]=2",
			() => Array.from({ length: 1500 }, (_, i) => `k${i}=v`).join("&"),
			() => "%zz%=%",
			() => ""
		])()
	);
}

function rpcMessage(r: Rng, targets: FuzzTargets): unknown {
	const id = pick<unknown>(r, [1, 2, "abc", 0, -7, 1.5, null, { a: 1 }, [1], undefined]);
	const method = pick(r, ["initialize", "ping", "tools/list", "tools/call", "tools/call", "tools/call", "notifications/initialized", "resources/list", "", "constructor", "__proto__"]);
	const base: Record<string, unknown> = { jsonrpc: chance(r, 0.9) ? "2.0" : pick(r, ["1.0", 2, null]), method };
	if (id !== undefined) base.id = id;
	if (method === "tools/call") {
		const name = pick(r, TOOL_NAMES);
		const args: Record<string, unknown> = {};
		for (const field of ["chatbot_id", "website_url", "url", "text", "question", "answer", "language"]) if (chance(r, 0.4)) args[field] = fieldValue(r, field, targets);
		base.params = chance(r, 0.9) ? { name, arguments: chance(r, 0.9) ? args : junkValue(r) } : junkValue(r);
		if (chance(r, 0.05)) base.params = { name, arguments: DEEP_ARGUMENTS };
	} else if (method === "initialize") {
		base.params = chance(r, 0.7) ? { protocolVersion: pick(r, ["2025-06-18", "2024-11-05", "1999", 5]), capabilities: junkValue(r), clientInfo: { name: "fuzz", version: "0" } } : junkValue(r);
	} else if (chance(r, 0.3)) {
		base.params = junkValue(r);
	}
	return base;
}

/** Stands for arguments nested 5,000 deep, spliced in as text: JSON.stringify itself would overflow. */
const DEEP_ARGUMENTS = "__deep_arguments__";
const DEEP_TEXT = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;

function mcpBody(r: Rng, targets: FuzzTargets): string {
	return mcpBodyShape(r, targets).split(`"${DEEP_ARGUMENTS}"`).join(DEEP_TEXT);
}

function mcpBodyShape(r: Rng, targets: FuzzTargets): string {
	const shape = r();
	if (shape < 0.45) return JSON.stringify(rpcMessage(r, targets));
	if (shape < 0.8) return JSON.stringify(Array.from({ length: 1 + Math.floor(r() * 8) }, () => (chance(r, 0.9) ? rpcMessage(r, targets) : junkValue(r))));
	return pick(r, [
		() => "[]",
		() => JSON.stringify(Array.from({ length: 51 }, () => ({ jsonrpc: "2.0", id: 1, method: "ping" }))),
		() => JSON.stringify([[{ jsonrpc: "2.0", id: 1, method: "ping" }]]),
		() => JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "get_chatbot", arguments: { chatbot_id: targets.sandboxId } } }))),
		() => JSON.stringify(junkValue(r)),
		() => `{"jsonrpc":"2.0","id":1,"method":"ping","pad":"${"p".repeat(1_000_100)}"}`
	])();
}

function pathParam(r: Rng, name: string, targets: FuzzTargets): { value: string; session?: number } {
	if (name === "session_id" && chance(r, 0.6)) {
		const session = Math.floor(r() * targets.sessionIds.length);
		return { value: targets.sessionIds[session], session };
	}
	if (name === "slug" && chance(r, 0.5)) return { value: pick(r, targets.slugs) };
	if (name === "category" && chance(r, 0.5)) return { value: pick(r, ["api", "reference", "mcp", "guides"]) };
	return {
		value: encode(
			pick(r, [
				() => randomText(r, 20) || "x",
				() => "..",
				() => "%2e%2e",
				() => "a".repeat(3000),
				() => Buffer.from(randomText(r, 30)).toString("base64url"),
				() => "__proto__",
				() => "errors"
			])()
		)
	};
}

function headersFor(r: Rng, route: RouteDef | undefined): Record<string, string> {
	const headers: Record<string, string> = {};
	// Mostly a fresh client network per request, so budgets bind only where a test means them to.
	headers["X-Forwarded-For"] = pick(r, [
		() => `10.${Math.floor(r() * 250)}.${Math.floor(r() * 250)}.${Math.floor(r() * 250)}`,
		() => `2001:db8:${Math.floor(r() * 65535).toString(16)}:${Math.floor(r() * 65535).toString(16)}::${Math.floor(r() * 65535).toString(16)}`,
		() => `::ffff:172.16.${Math.floor(r() * 250)}.${Math.floor(r() * 250)}`,
		() => "not-an-ip",
		() => Array.from({ length: 40 }, () => "1.2.3.4").join(", ")
	])();
	if (chance(r, 0.7)) headers.Accept = pick(r, ACCEPTS);
	if (route?.path === "/mcp") {
		if (chance(r, 0.85)) headers["Content-Type"] = chance(r, 0.85) ? "application/json" : pick(r, CONTENT_TYPES);
		if (chance(r, 0.5)) headers["MCP-Protocol-Version"] = pick(r, ["2025-06-18", "2025-03-26", "2024-11-05", "2099-01-01", "garbage"]);
		if (chance(r, 0.1)) headers.Authorization = pick(r, ["Bearer cbk_live_" + "a".repeat(40), "Bearer junk", "Basic dXNlcjpwYXNz", "Bearer", ""]);
		if (chance(r, 0.1)) headers.Origin = pick(r, ["https://evil.example", "null", "http://127.0.0.1"]);
		if (chance(r, 0.1)) headers["Mcp-Session-Id"] = randomText(r, 50).replace(/[^\x21-\x7e]/g, "x") || "s";
	} else if (chance(r, 0.85)) {
		headers["Content-Type"] = route?.body?.kind === "form" && chance(r, 0.6) ? "application/x-www-form-urlencoded" : route?.body?.kind === "json" && chance(r, 0.6) ? "application/json" : pick(r, CONTENT_TYPES);
	}
	if (chance(r, 0.08)) headers["If-None-Match"] = pick(r, ['"abc"', "*", "W/\"x\", \"y\"", "garbage"]);
	if (chance(r, 0.05)) headers.Cookie = `session=${"c".repeat(Math.floor(r() * 4000))}; ${randomText(r, 20).replace(/[^\x21-\x7e]/g, "x")}`;
	if (chance(r, 0.03)) headers["X-Filler"] = "f".repeat(8000);
	if (chance(r, 0.03)) headers.Range = "bytes=0-1";
	return headers;
}

function encodeBody(r: Rng, body: Buffer, headers: Record<string, string>): Buffer {
	if (!chance(r, 0.12)) return body;
	const [encoding, encoded] = pick<[string, () => Buffer]>(r, [
		["gzip", () => zlib.gzipSync(body)],
		["gzip", () => body],
		["deflate", () => body],
		["br", () => body],
		["br", () => zlib.brotliCompressSync(body)],
		["identity", () => body],
		["x-unknown", () => body],
		["gzip, gzip", () => zlib.gzipSync(zlib.gzipSync(body))]
	]);
	headers["Content-Encoding"] = encoding;
	return encoded();
}

/** Raw byte streams, most of which Node's HTTP parser refuses before any route runs. */
function rawRequest(r: Rng): Buffer {
	return Buffer.from(
		pick(r, [
			"GET /api HTTP/1.1\r\nHost: x\r\nThis is not a header\r\nConnection: close\r\n\r\n",
			"GET /api HTTP/1.1\r\nHost: x\r\nBad Name: y\r\nConnection: close\r\n\r\n",
			`GET /api HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(17_000)}\r\nConnection: close\r\n\r\n`,
			"HELLO\r\n\r\n",
			"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
			"GET /api HTTP/1.0\r\n\r\n",
			"GET http://127.0.0.1/api HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
			"POST /api/tools/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{}",
			"POST /api/tools/sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\nConnection: close\r\n\r\n0\r\n\r\n",
			"POST /api/tools/sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n",
			"GET /a b c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
			"GET /api HTTP/1.1\nHost: x\nConnection: close\n\n",
			"GET /api HTTP/9.9\r\nHost: x\r\nConnection: close\r\n\r\n",
			`GET /${"p".repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
			"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\nConnection: close\r\n\r\n"
		])
	);
}

const UNKNOWN_PATHS = ["/api/nope", "/api/tools", "/api/tools/sessions/x/y/z", "/mcp/extra", "/.well-known/nope", "/uploads", "/nope", "/%00", "/..%2f..%2fetc/passwd", "/api/../mcp", "/docs/../../x", "//api", "/api?x=%zz"];

/** Routes weighted toward those that take bodies: they have more ways to go wrong. */
function weightedRoutes(): RouteDef[] {
	const weighted: RouteDef[] = [];
	for (const route of ROUTES) {
		const weight = route.path === "/mcp" && route.method === "POST" ? 12 : route.body ? 3 : 1;
		for (let i = 0; i < weight; i++) weighted.push(route);
	}
	return weighted;
}

export function createFuzzer(seed: number, targets: FuzzTargets): () => FuzzRequest {
	const r = prng(seed);
	const routes = weightedRoutes();
	return () => {
		const roll = r();
		if (roll < 0.04) return { label: "raw", method: "RAW", path: "", headers: {}, raw: rawRequest(r) };
		if (roll < 0.1) {
			const path = pick(r, UNKNOWN_PATHS);
			const method = pick(r, ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]);
			return { label: "unknown-path", method, path, headers: headersFor(r, undefined), body: method === "GET" ? undefined : mangle(r, JSON.stringify(junkValue(r))) };
		}
		const route = pick(r, routes);
		let session: number | undefined;
		let path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
			const param = pathParam(r, name, targets);
			if (param.session !== undefined) session = param.session;
			return param.value;
		});
		if (chance(r, 0.15)) path += `?${pick(r, ["a=1", "next=https://evil.example", "x=%zz", `q=${"q".repeat(5000)}`, "ct=text/plain&max=1&expires=1&sig=x"])}`;
		const method = chance(r, 0.88) ? route.method : pick(r, ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);
		const headers = headersFor(r, route);
		let body: Buffer | undefined;
		if (method !== "GET" && method !== "HEAD") {
			if (route.path === "/mcp") body = chance(r, 0.85) ? Buffer.from(mcpBody(r, targets)) : mangle(r, mcpBody(r, targets));
			else if (route.body?.kind === "form") body = chance(r, 0.7) ? formBody(r) : mangle(r, JSON.stringify(objectFor(r, undefined, targets)));
			else if (route.body?.kind === "raw") body = Buffer.from(randomText(r, 2000));
			else if (route.body?.kind === "json") body = mangle(r, JSON.stringify(chance(r, 0.85) ? objectFor(r, route.body.schema, targets) : junkValue(r)));
			else if (chance(r, 0.5)) body = mangle(r, JSON.stringify(junkValue(r)));
			if (body) body = encodeBody(r, body, headers);
		}
		return { label: `${route.method} ${route.path}`, method, path, headers, body, route, session };
	};
}
