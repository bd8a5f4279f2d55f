/**
 * POST /mcp and GET /mcp: the transport side of the tool server (SPEC §4.2, §5), before any
 * JSON-RPC handling. In order:
 *
 *   1. read the raw body, at most MCP_MAX_BODY_BYTES;
 *   2. rate limits: `mcp` on every POST, plus `mcp-create-chatbot` charged one point per
 *      create_chatbot call in the body; the scarcer decision sets the headers, a refusal is 429;
 *   3. 413 for an oversized body;
 *   4. Origin, when present, must be ours or allowed (DNS-rebinding defence) → 403;
 *   5. Content-Type must be application/json (UTF-8, no content coding) → 415;
 *   6. MCP-Protocol-Version, when present, must be supported → 400;
 *   7. Authorization: Bearer <key> must name a live key → 401 with WWW-Authenticate;
 *
 * then the mcp service answers the body: 200 application/json (one response or an array), or 202
 * with no body when it held only notifications. Mcp-Session-Id is accepted, ignored, never issued.
 */
import type { ServerResponse } from "node:http";
import { readBearerApiKey } from "../../lib/accounts/api-keys";
import { appError } from "../../lib/errors";
import { MCP_MAX_BODY_BYTES } from "../../lib/http/routes/mcp";
import { checkProtocolHeader, ProtocolVersion } from "../../lib/mcp/protocol";
import { countToolCalls, McpReply } from "../../lib/mcp/server";
import type { GatewayDeps, GatewayHandler, GatewayRequest } from "./context";
import { sendJson } from "./context";
import { enforceRateLimits } from "./rate-limit";

/** Long enough for a tool that fetches a page in a browser (crawler timeouts are 15 s per page). */
const MCP_CALL_TIMEOUT_MS = 90_000;

const WWW_AUTHENTICATE_REALM = 'Bearer realm="mcp"';

type BodyRead = { ok: true; text: string } | { ok: false; reason: "too_large" | "encoding" };

function header(req: GatewayRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value.join(", ") : value;
}

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
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) {
				chunks.push(chunk);
				return;
			}
			req.off("data", onData);
			req.resume();
			resolve({ ok: false, reason: "too_large" });
		};
		req.on("data", onData);
		req.on("end", () => {
			if (size > limit) return;
			try {
				// Invalid UTF-8 → 415 below, rather than JSON.parse seeing replacement characters.
				resolve({ ok: true, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks)) });
			} catch {
				resolve({ ok: false, reason: "encoding" });
			}
		});
		req.on("error", reject);
	});
}

/** Origins that may call: the service's own, plus MCP_ALLOWED_ORIGINS. */
export function allowedOrigins(deps: GatewayDeps): Set<string> {
	const origins = new Set<string>([new URL(deps.config.publicUrl).origin]);
	for (const origin of deps.config.mcpAllowedOrigins) {
		try {
			origins.add(new URL(origin).origin);
		} catch {
			origins.add(origin);
		}
	}
	return origins;
}

function checkOrigin(deps: GatewayDeps, origin: string | undefined): void {
	if (origin === undefined) return;
	if (!allowedOrigins(deps).has(origin.trim())) {
		throw appError("forbidden", `Requests from the origin ${origin.slice(0, 200)} are not allowed.`, {
			hint: "Call /mcp from a server-side client (no Origin header), or ask the operator to add your origin to MCP_ALLOWED_ORIGINS."
		});
	}
}

function checkMediaType(contentType: string | undefined, contentEncoding: string | undefined): void {
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
	const creates = body.ok ? countToolCalls(body.text, "create_chatbot") : 0;
	await enforceRateLimits(deps, req, res, [{ policy: "mcp" }, ...(creates > 0 ? [{ policy: "mcp-create-chatbot" as const, points: creates }] : [])]);
	if (!body.ok && body.reason === "too_large") {
		res.setHeader("Connection", "close");
		throw appError("payload_too_large", `A POST /mcp body may have at most ${MCP_MAX_BODY_BYTES} bytes.`, {
			hint: "Send smaller messages, or split a batch into several requests."
		});
	}
	checkOrigin(deps, header(req, "origin"));
	checkMediaType(header(req, "content-type"), header(req, "content-encoding"));
	if (!body.ok) throw appError("unsupported_media_type", "The body is not valid UTF-8.", { hint: "Send the JSON body encoded as UTF-8." });
	const version = checkProtocolHeader(req.headers["mcp-protocol-version"]);
	if (!version.ok) throw appError(version.error.code, version.error.message, { hint: version.error.hint });
	const account = await authenticate(deps, header(req, "authorization"));

	const reply = await deps.call<McpReply>(
		"mcp.handle",
		{ body: body.text, protocol_version: version.version satisfies ProtocolVersion, account },
		{ timeout: MCP_CALL_TIMEOUT_MS }
	);
	res.setHeader("Cache-Control", "no-store");
	if (reply.status === 202 || reply.body === undefined) {
		res.statusCode = 202;
		res.setHeader("Content-Length", 0);
		res.end();
		return;
	}
	sendJson(res, 200, reply.body);
};

/** GET /mcp (and other methods): no server-initiated stream is offered (SPEC §4.2). */
export const mcpGet: GatewayHandler = async (_deps, req) => {
	req.resume();
	throw appError("method_not_allowed", `${req.method ?? "This method"} is not supported on /mcp: the tool server offers no event stream. Send JSON-RPC messages with POST.`, {
		hint: "Use POST /mcp with a JSON-RPC body.",
		headers: { Allow: "POST" }
	});
};
