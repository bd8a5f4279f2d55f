/**
 * POST /mcp and GET /mcp: the transport side of the tool server (SPEC §4.2, §5), before any
 * JSON-RPC handling. In order:
 *
 *   1. read the raw body, at most MCP_MAX_BODY_BYTES;
 *   2. rate limits: `mcp` charged one point per `tools/call` in the body (at least one per POST,
 *      so a batch of 50 tool calls costs what 50 requests cost), plus `mcp-create-chatbot` one
 *      point per create_chatbot call; the scarcer decision sets the headers, a refusal is 429;
 *   3. 413 for an oversized body;
 *   4. Origin, when present, must be ours or allowed (DNS-rebinding defence) → 403;
 *   5. Content-Type must be application/json (UTF-8, no content coding) → 415;
 *   6. MCP-Protocol-Version, when present, must be supported → 400;
 *   7. Authorization: Bearer <key> must name a live key → 401 with WWW-Authenticate;
 *
 * then the body is answered (by the mcp service when it holds a `tools/call`, here otherwise, with the
 * same lib/mcp dispatcher): 200 application/json (one response or an array), or 202
 * with no body when it held only notifications. Mcp-Session-Id is accepted, ignored, never issued.
 */
import { isUtf8 } from "node:buffer";
import type { ServerResponse } from "node:http";
import type { AppConfig } from "../../config";
import { readBearerApiKey } from "../../lib/accounts/api-keys";
import { pageCallTimeoutMs } from "../../lib/crawl/deadline";
import { appError } from "../../lib/errors";
import { MCP_MAX_BODY_BYTES } from "../../lib/http/routes/mcp";
import { acceptsGzip } from "../../lib/http/compression";
import { chatbotsCalledOn, soleGetChatbot } from "../../lib/mcp/chatbot-calls";
import { asConstant, replyChunks } from "../../lib/mcp/constant-results";
import { ParsedBody, parseJsonRpcBody, successResponse } from "../../lib/mcp/jsonrpc";
import { checkProtocolHeader, ProtocolVersion } from "../../lib/mcp/protocol";
import { handleMcpBody, isOneToolSuccess, McpReply, McpRequestContext, toolCallNames } from "../../lib/mcp/server";
import { MCP_SERVER_INFO } from "../../lib/mcp/server-info";
import type { GatewayDeps, GatewayHandler, GatewayRequest } from "./context";
import { headerValue as header, JSON_TYPE, sendChunks } from "./context";
import { enforceRateLimits } from "./rate-limit";

const WWW_AUTHENTICATE_REALM = 'Bearer realm="mcp"';

type BodyRead = { ok: true; text: string } | { ok: false; reason: "too_large" | "encoding" | "aborted" };

/**
 * Reads the request body up to `limit` bytes. Past the limit it answers at once and stops keeping
 * data; the 413 goes out with `Connection: close`, so the rest of an oversized upload is not read.
 */
function readBody(req: GatewayRequest, limit: number): Promise<BodyRead> {
	const declared = Number(req.headers["content-length"] ?? NaN);
	if (Number.isFinite(declared) && declared > limit) {
		req.resume();
		return Promise.resolve({ ok: false, reason: "too_large" });
	}
	return new Promise(resolve => {
		const chunks: Buffer[] = [];
		let size = 0;
		// Past the limit the listener stays and only counts, so the rest flows by without being kept.
		req.on("data", (chunk: Buffer) => {
			const before = size;
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
			else if (before <= limit) resolve({ ok: false, reason: "too_large" });
		});
		req.on("end", () => {
			if (size > limit) return;
			const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
			// Invalid UTF-8 → 415 below, rather than JSON.parse seeing replacement characters. A BOM is
			// kept as a character (and then refused by JSON.parse), as a non-BOM-eating decoder would.
			resolve(isUtf8(bytes) ? { ok: true, text: bytes.toString("utf8") } : { ok: false, reason: "encoding" });
		});
		// The client went away or the body's framing broke (Node then destroys the request).
		req.on("error", () => resolve({ ok: false, reason: "aborted" }));
		req.on("close", () => {
			if (!req.complete) resolve({ ok: false, reason: "aborted" });
		});
	});
}

/** Allowed origins by configuration: parsed once, not on every request that carries an Origin. */
const originsByConfig = new WeakMap<Readonly<AppConfig>, ReadonlySet<string>>();

/** Origins that may call: the service's own, plus MCP_ALLOWED_ORIGINS. */
function allowedOrigins(config: Readonly<AppConfig>): ReadonlySet<string> {
	const known = originsByConfig.get(config);
	if (known) return known;
	const origins = new Set<string>([new URL(config.publicUrl).origin]);
	for (const origin of config.mcpAllowedOrigins) {
		try {
			origins.add(new URL(origin).origin);
		} catch {
			origins.add(origin);
		}
	}
	originsByConfig.set(config, origins);
	return origins;
}

function checkOrigin(deps: GatewayDeps, origin: string | undefined): void {
	if (origin === undefined) return;
	if (!allowedOrigins(deps.config).has(origin.trim())) {
		throw appError("forbidden", `Requests from the origin ${origin.slice(0, 200)} are not allowed.`, {
			hint: "Call /mcp from a server-side client (no Origin header), or ask the operator to add your origin to MCP_ALLOWED_ORIGINS."
		});
	}
}

function checkMediaType(contentType: string | undefined, contentEncoding: string | undefined): void {
	// What nearly every client sends, accepted without taking the header apart.
	if (contentType === "application/json" && contentEncoding === undefined) return;
	const [type, ...parameters] = (contentType ?? "").split(";").map(part => part.trim().toLowerCase());
	const charset = parameters.find(p => p.startsWith("charset="))?.slice("charset=".length).replace(/"/g, "");
	if (type !== "application/json" || (charset !== undefined && charset !== "utf-8" && charset !== "utf8")) {
		throw appError("unsupported_media_type", "POST /mcp takes a JSON-RPC message as Content-Type: application/json.", {
			hint: "Send the body as UTF-8 JSON with Content-Type: application/json."
		});
	}
	if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== "identity") {
		throw appError("unsupported_media_type", `Content-Encoding ${contentEncoding.slice(0, 40)} is not accepted on /mcp.`, {
			hint: "Send the body uncompressed."
		});
	}
}

function invalidToken(message: string, description: string) {
	return appError("unauthorized", message, {
		hint: "Send a valid API key (it starts with cbk_live_), or no Authorization header to work anonymously in a sandbox.",
		headers: { "WWW-Authenticate": `${WWW_AUTHENTICATE_REALM}, error="invalid_token", error_description="${description}"` }
	});
}

/** The key's account, or null when anonymous; throws 401 for a present but unusable credential. */
async function authenticate(deps: GatewayDeps, authorization: string | undefined): Promise<{ account_id: string; plan: string } | null> {
	const key = readBearerApiKey(authorization);
	if (key === undefined) return null;
	if (key === null) throw invalidToken("The Authorization header is not a Bearer API key.", "malformed credential");
	try {
		return await deps.call<{ account_id: string; plan: string }>("accounts.verifyApiKey", { key });
	} catch (err) {
		if ((err as { type?: unknown }).type === "unauthorized") throw invalidToken("The API key is unknown or revoked.", "unknown or revoked key");
		throw err;
	}
}

export const mcpPost: GatewayHandler = async (deps, req, res: ServerResponse) => {
	const body = await readBody(req, MCP_MAX_BODY_BYTES);
	if (!body.ok && body.reason === "aborted") {
		throw appError("validation_failed", "The request body ended before it was complete.", { hint: "Send the whole JSON-RPC message again." });
	}
	// Read once: the names charge the budgets, and a body without a tool call is answered from it here.
	const parsed = body.ok ? parseJsonRpcBody(body.text) : undefined;
	const calls = parsed ? toolCallNames(parsed) : [];
	const creates = calls.filter(name => name === "create_chatbot").length;
	await enforceRateLimits(deps, req, res, [
		{ policy: "mcp", points: Math.max(1, calls.length) },
		...(creates > 0 ? [{ policy: "mcp-create-chatbot" as const, points: creates }] : [])
	]);
	if (!body.ok && body.reason === "too_large") {
		res.setHeader("Connection", "close");
		throw appError("payload_too_large", `A POST /mcp body may have at most ${MCP_MAX_BODY_BYTES} bytes.`, {
			hint: "Send smaller messages, or split a batch into several requests."
		});
	}
	checkOrigin(deps, header(req, "origin"));
	checkMediaType(header(req, "content-type"), header(req, "content-encoding"));
	if (!body.ok || !parsed) throw appError("unsupported_media_type", "The body is not valid UTF-8.", { hint: "Send the JSON body encoded as UTF-8." });
	const version = checkProtocolHeader(req.headers["mcp-protocol-version"]);
	if (!version.ok) throw appError(version.error.code, version.error.message, { hint: version.error.hint });
	const account = await authenticate(deps, header(req, "authorization"));

	// A lone get_chatbot of a chatbot unchanged since it was last shown to this caller: the same result.
	const reads = deps.reads?.toolResults;
	const sole = reads ? soleGetChatbot(parsed) : undefined;
	const readKey = sole && `${version.version} ${account?.account_id ?? "anonymous"} ${sole.chatbotId}`;
	const remembered = readKey ? reads?.get(readKey) : undefined;
	if (sole && remembered) {
		res.setHeader("Cache-Control", "no-store");
		return sendReply(req, res, successResponse(sole.id, remembered));
	}
	const mark = reads?.mark() ?? 0;

	// A batch runs its calls one after another: long enough for each page it reads (gateway → mcp →
	// chatbots → crawler), and for the rest.
	const pageReads = calls.filter(name => name === "add_knowledge_url").length;
	const reply =
		calls.length === 0
			? await answerWithoutTools(deps, parsed, version.version, account !== null)
			: await deps.call<McpReply>(
					"mcp.handle",
					{ body: body.text, protocol_version: version.version satisfies ProtocolVersion, account },
					{ timeout: Math.max(1, pageReads) * pageCallTimeoutMs(deps.config.crawl.timeoutMs, 3) }
				);
	if (readKey && reply.read && isOneToolSuccess(reply)) reads?.set(readKey, reply.read.chatbot_id, asConstant(reply.body.result), reply.read.until, mark);
	// What this client changed it reads back changed, even before the chatbots service's event arrives.
	if (calls.length > 0) deps.reads?.invalidate(chatbotsCalledOn(parsed));
	res.setHeader("Cache-Control", "no-store");
	if (reply.status === 202 || reply.body === undefined) {
		res.statusCode = 202;
		res.setHeader("Content-Length", 0);
		res.end();
		return;
	}
	sendReply(req, res, reply.body);
};

/**
 * A long constant result (`tools/list`) goes gzip-compressed to a client that accepts it, as the
 * official SDK's fetch and Python's httpx both say they do: a ninth of the bytes, prepared once.
 * Such responses say they vary by Accept-Encoding, whichever form they take.
 */
function sendReply(req: GatewayRequest, res: ServerResponse, body: NonNullable<McpReply["body"]>): void {
	const reply = replyChunks(body, () => acceptsGzip(header(req, "accept-encoding")));
	if (reply.varies) res.setHeader("Vary", "Accept-Encoding");
	if (reply.gzip) res.setHeader("Content-Encoding", "gzip");
	sendChunks(res, 200, reply.chunks, JSON_TYPE);
}

/**
 * A body without a tool call (initialize, ping, tools/list, notifications, malformed messages)
 * needs nothing from any service: it is answered here by the same dispatcher the mcp service runs,
 * which saves a bus round trip on the calls an agent makes first and most often. `callTool` is
 * never reached, since `toolCallNames` found no `tools/call` to run.
 */
function answerWithoutTools(deps: GatewayDeps, parsed: ParsedBody, protocolVersion: ProtocolVersion, authenticated: boolean): Promise<McpReply> {
	return handleMcpBody(parsed, contextWithoutTools(deps, protocolVersion, authenticated));
}

async function noToolToCall(): Promise<never> {
	throw new Error("a body without tools/call ran a tool");
}

/**
 * The dispatcher's context for bodies without a tool call, made once per revision and caller kind
 * rather than per request: its functions were the per-request cost of the busiest path (profiled).
 */
const contextsWithoutTools = new WeakMap<GatewayDeps, Map<ProtocolVersion, McpRequestContext[]>>();

function contextWithoutTools(deps: GatewayDeps, protocolVersion: ProtocolVersion, authenticated: boolean): McpRequestContext {
	let byVersion = contextsWithoutTools.get(deps);
	if (!byVersion) contextsWithoutTools.set(deps, (byVersion = new Map()));
	let contexts = byVersion.get(protocolVersion);
	if (!contexts) byVersion.set(protocolVersion, (contexts = []));
	return (contexts[authenticated ? 1 : 0] ??= {
		protocolVersion,
		authenticated,
		serverInfo: MCP_SERVER_INFO,
		callTool: noToolToCall,
		onInternalError: (error, where) => deps.logger.error("MCP internal error in", where.method, where.tool ?? "", error)
	});
}

/** GET /mcp (and other methods): no server-initiated stream is offered (SPEC §4.2). */
export const mcpGet: GatewayHandler = async (_deps, req) => {
	req.resume();
	throw appError("method_not_allowed", `${req.method ?? "This method"} is not supported on /mcp: the tool server offers no event stream. Send JSON-RPC messages with POST.`, {
		hint: "Use POST /mcp with a JSON-RPC body.",
		headers: { Allow: "POST" }
	});
};
