/**
 * What gateway-local handlers get: configuration, a way to call other services over the bus, and
 * the rate limiter. They never import other services' files.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppConfig } from "../../config";
import type { RateLimiter } from "../../lib/http/rate-limiter";
import type { RouteDef } from "../../lib/http/routes/types";
import type { GatewayReads } from "./reads";

export interface GatewayRequest extends IncomingMessage {
	/** Client IP after the TRUST_PROXY rule. */
	$clientIp: string;
	/** What budgets count: the IPv4 address, or the /64 of an IPv6 one (`clientNetwork`). */
	$clientNetwork: string;
	/** Path without the query string. */
	$path: string;
	/** Parsed body (JSON routes) after the body parser. */
	body?: unknown;
	/** Path parameters, query and body merged by moleculer-web. */
	$params?: Record<string, unknown>;
	query?: Record<string, unknown>;
}

export interface GatewayDeps {
	config: Readonly<AppConfig>;
	limiter: RateLimiter;
	call<T = unknown>(action: string, params?: Record<string, unknown>, opts?: { timeout?: number; meta?: Record<string, unknown> }): Promise<T>;
	logger: { info(...args: unknown[]): void; warn(...args: unknown[]): void; error(...args: unknown[]): void };
	/** Replies remembered per chatbot (reads.ts); without it every read crosses the bus. */
	reads?: GatewayReads;
}

export type GatewayHandler = (deps: GatewayDeps, req: GatewayRequest, res: ServerResponse, route: RouteDef) => Promise<void>;

/** A request header as one string (a repeated header's values joined, as RFC 9110 allows for lists). */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value.join(", ") : value;
}

/** Writes a complete response in one go; the gateway's common headers are already set. */
export function send(res: ServerResponse, status: number, body: string | Buffer, contentType: string, headers: Record<string, string> = {}): void {
	for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
	sendChunks(res, status, [body], contentType);
}

/**
 * Writes a response made of pieces (strings as UTF-8) as one: the response is corked (`end` uncorks
 * it fully), so the head and every piece leave in one write, and no piece is copied into a joined
 * buffer first.
 */
export function sendChunks(res: ServerResponse, status: number, chunks: ReadonlyArray<string | Buffer>, contentType: string): void {
	let length = 0;
	for (const chunk of chunks) length += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length;
	res.setHeader("Content-Type", contentType);
	res.setHeader("Content-Length", length);
	res.statusCode = status;
	res.cork();
	for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
	res.end(chunks[chunks.length - 1]);
}

export const JSON_TYPE = "application/json; charset=utf-8";

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	send(res, status, JSON.stringify(body), JSON_TYPE, headers);
}
