/**
 * 404 for paths nothing serves (SPEC §7.3): JSON under the machine prefixes whatever the client
 * accepts; elsewhere the body follows `Accept` — HTML for browsers, the Error body for JSON
 * clients, and a short Markdown pointer document for everything else, `*\/*` included.
 */
import type { ServerResponse } from "node:http";
import { explicitlyAccepts, negotiate } from "../../lib/http/negotiate";
import { renderError } from "../../lib/http/error-body";
import { appError } from "../../lib/errors";
import { notFoundHtml, notFoundMarkdown } from "../../lib/site/not-found";
import { send, sendJson } from "./context";

const JSON_PREFIXES = ["/api", "/mcp", "/.well-known"];

export function isJsonSurface(path: string): boolean {
	return JSON_PREFIXES.some(p => path === p || path.startsWith(`${p}/`));
}

export function sendNotFound(res: ServerResponse, path: string, accept: string | undefined, publicUrl: string): void {
	const headers = { "Cache-Control": "no-store", Vary: "Accept" };
	const jsonError = () => {
		const rendered = renderError(appError("not_found", `Nothing lives at ${path}.`), publicUrl);
		sendJson(res, 404, rendered.body, headers);
	};
	if (isJsonSurface(path)) return jsonError();
	// A browser names text/html explicitly; `*/*` alone must get the Markdown document.
	if (explicitlyAccepts(accept, "text/html") && negotiate(accept, ["text/html", "application/json", "text/markdown"]) === "text/html") {
		return send(res, 404, notFoundHtml(publicUrl, path), "text/html; charset=utf-8", headers);
	}
	if (explicitlyAccepts(accept, "application/json") && negotiate(accept, ["application/json", "text/markdown"]) === "application/json") {
		return jsonError();
	}
	send(res, 404, notFoundMarkdown(publicUrl, path), "text/markdown; charset=utf-8", headers);
}
