/**
 * Raw HTTP access to the tool server and the account endpoints for tests: every JSON-RPC message the
 * server sends back is checked against the published MCP schema of the revision in use.
 */
import { assertValidMcpMessage } from "./mcp-schema";

export interface RawReply {
	status: number;
	headers: Headers;
	text: string;
	/** Parsed JSON body, when there is one. */
	body: unknown;
}

export interface PostOptions {
	headers?: Record<string, string>;
	/** Client IP (the app runs with TRUST_PROXY=1) to keep per-IP budgets apart. */
	ip?: string;
	/** API key sent as a Bearer credential. */
	key?: string;
	/** MCP-Protocol-Version header; `null` sends none. Default 2025-06-18. */
	version?: string | null;
}

let ipCounter = 0;
/** A fresh documentation-range client address per call site. */
export function nextIp(): string {
	ipCounter++;
	return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

export async function rawRequest(url: string, init: RequestInit): Promise<RawReply> {
	const res = await fetch(url, init);
	const text = await res.text();
	let body: unknown;
	try {
		body = text ? JSON.parse(text) : undefined;
	} catch {
		body = undefined;
	}
	return { status: res.status, headers: res.headers, text, body };
}

/** An initialize result is shaped by the revision it negotiates, whatever the request header said. */
function negotiated(body: unknown): string | undefined {
	const version = (body as { result?: { protocolVersion?: unknown } } | undefined)?.result?.protocolVersion;
	return typeof version === "string" ? version : undefined;
}

/** POSTs a body to /mcp; a JSON-RPC answer (200) is validated against the schema of `version`. */
export async function mcpPost(baseUrl: string, body: unknown, options: PostOptions = {}): Promise<RawReply> {
	const version = options.version === undefined ? "2025-06-18" : options.version;
	const headers: Record<string, string> = { "Content-Type": "application/json", "X-Forwarded-For": options.ip ?? nextIp(), ...options.headers };
	if (version !== null) headers["MCP-Protocol-Version"] = version;
	if (options.key) headers.Authorization = `Bearer ${options.key}`;
	const reply = await rawRequest(`${baseUrl}/mcp`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
	if (reply.status === 200) assertValidMcpMessage(negotiated(reply.body) ?? version ?? "2024-11-05", reply.body);
	return reply;
}

let requestId = 0;

export interface ToolCallResult {
	isError: boolean;
	text: string;
	structured?: Record<string, unknown>;
	/** The JSON of the text content (success results carry the data as JSON text too). */
	data?: Record<string, unknown>;
}

/** Calls a tool; returns its result (business failures included). Throws on a JSON-RPC error. */
export async function callTool(baseUrl: string, name: string, args: Record<string, unknown>, options: PostOptions = {}): Promise<ToolCallResult> {
	const reply = await mcpPost(baseUrl, { jsonrpc: "2.0", id: ++requestId, method: "tools/call", params: { name, arguments: args } }, options);
	if (reply.status !== 200) throw new Error(`tools/call ${name} answered HTTP ${reply.status}: ${reply.text}`);
	const message = reply.body as { result?: { isError?: boolean; content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown> }; error?: unknown };
	if (!message.result) throw new Error(`tools/call ${name} failed: ${JSON.stringify(message.error)}`);
	const text = message.result.content[0]?.text ?? "";
	const isError = message.result.isError === true;
	return { isError, text, structured: message.result.structuredContent, data: isError ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

/** Signs up through the JSON form; returns the session cookie (`name=value`). */
export async function signUp(baseUrl: string, email: string, password = "correct horse battery staple"): Promise<{ cookie: string; account: Record<string, unknown> }> {
	const reply = await rawRequest(`${baseUrl}/account/signup`, {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: "application/json" },
		body: JSON.stringify({ email, password })
	});
	if (reply.status !== 201) throw new Error(`sign-up answered ${reply.status}: ${reply.text}`);
	return { cookie: sessionCookie(reply.headers), account: (reply.body as { account: Record<string, unknown> }).account };
}

/** The `cb_session=...` pair from a response's Set-Cookie headers. */
export function sessionCookie(headers: Headers): string {
	const cookie = headers.getSetCookie().find(value => value.startsWith("cb_session="));
	if (!cookie) throw new Error("no session cookie was set");
	return cookie.split(";")[0];
}

/** Creates an API key with a session cookie, through the JSON form. */
export async function createApiKey(baseUrl: string, cookie: string): Promise<string> {
	const reply = await rawRequest(`${baseUrl}/account/api-keys`, {
		method: "POST",
		headers: { "Content-Type": "application/json", Cookie: cookie },
		body: JSON.stringify({ name: "test agent" })
	});
	if (reply.status !== 201) throw new Error(`key creation answered ${reply.status}: ${reply.text}`);
	return (reply.body as { key: string }).key;
}
