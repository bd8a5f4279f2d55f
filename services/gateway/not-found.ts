/**
 * 404 for paths nothing serves (SPEC §7.3): JSON under the machine prefixes whatever the client
 * accepts; elsewhere the body follows `Accept` — the same choice the site makes for a missing
 * documentation page (`notFoundReply`), so both 404s are one rule.
 */
import type { ServerResponse } from "node:http";
import { notFoundReply, NOT_FOUND_HEADERS } from "../../lib/discovery/site-replies";
import { renderError } from "../../lib/http/error-body";
import { appError } from "../../lib/errors";
import { send, sendJson } from "./context";

const JSON_PREFIXES = ["/api", "/mcp", "/.well-known"];

export function isJsonSurface(path: string): boolean {
	return JSON_PREFIXES.some(p => path === p || path.startsWith(`${p}/`));
}

export function sendNotFound(res: ServerResponse, path: string, accept: string | undefined, publicUrl: string): void {
	const reply = isJsonSurface(path) ? undefined : notFoundReply(path, accept, publicUrl);
	if (reply?.kind === "reply") return send(res, 404, reply.reply.body ?? "", reply.reply.contentType ?? "text/plain; charset=utf-8", reply.reply.headers);
	const rendered = renderError(appError("not_found", `Nothing lives at ${path}.`), publicUrl);
	sendJson(res, 404, rendered.body, NOT_FOUND_HEADERS);
}
