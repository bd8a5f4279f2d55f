/**
 * Direct dispatch of the rate-limited JSON action routes (the demo API): the same middleware chain
 * as their moleculer-web alias (body parsing, rate limit, validation), then the action called with
 * the params moleculer-web would merge (body, then path parameters) and its result sent as
 * moleculer-web's `sendResponse` would. Profiling showed moleculer-web's alias
 * machinery (the `rest` action's context, alias resolution, composition, response rendering)
 * costing more than the demo API's own work on `GET /api/tools/sessions/{id}`.
 *
 * Only what matches exactly is dispatched here: a rate-limited route whose responses are all JSON,
 * with no query parameters and a JSON body or none; a request without a query string, literal
 * segments in the table's own case and path parameters that decode. Anything else (other case, a
 * trailing slash, a query string, a malformed escape) goes to moleculer-web, which answers it as
 * before. The discovery documents stay with moleculer-web too: they answer conditional requests,
 * which its freshness check takes part in.
 */
import type { ServerResponse } from "node:http";
import { Errors, ServiceBroker } from "moleculer";
import ApiGateway from "moleculer-web";
import type { RouteDef } from "../../lib/http/routes/types";
import type { ChatbotRead } from "../../lib/chatbots/changes";
import { JSON_TYPE, type GatewayRequest } from "./context";
import type { CachedActionReply, GatewayReads } from "./reads";
import type { Middleware } from "./direct-routes";

type Segment = { literal: string } | { param: string };

export interface ActionRoute {
	route: RouteDef;
	segments: readonly Segment[];
	/** The alias's middlewares, then the action call. */
	chain: readonly Middleware[];
}

/** Method → the action routes of that method. */
export type ActionRoutes = ReadonlyMap<string, readonly ActionRoute[]>;

function jsonOnly(route: RouteDef): boolean {
	return Object.values(route.responses).every(response => Object.keys(response.content ?? {}).every(type => type === "application/json"));
}

export function isDirectActionRoute(route: RouteDef): boolean {
	return (
		route.action !== undefined &&
		route.rateLimit !== undefined &&
		!route.cors &&
		route.documented &&
		(route.body === undefined || route.body.kind === "json") &&
		!(route.params ?? []).some(param => param.in === "query") &&
		jsonOnly(route)
	);
}

function segmentsOf(path: string): Segment[] {
	return path
		.split("/")
		.slice(1)
		.map(part => (part.startsWith("{") && part.endsWith("}") ? { param: part.slice(1, -1) } : { literal: part }));
}

export function actionRoutes(routes: readonly RouteDef[], chainOf: (route: RouteDef) => Middleware[]): ActionRoutes {
	const table = new Map<string, ActionRoute[]>();
	for (const route of routes) {
		if (!isDirectActionRoute(route)) continue;
		const list = table.get(route.method) ?? [];
		list.push({ route, segments: segmentsOf(route.path), chain: chainOf(route) });
		table.set(route.method, list);
	}
	return table;
}

/** The action route `path` (no query string) names exactly, with its decoded path parameters. */
export function matchActionRoute(table: ActionRoutes, method: string, path: string): { entry: ActionRoute; params: Record<string, string> } | undefined {
	const candidates = table.get(method);
	if (!candidates) return undefined;
	const parts = path.split("/").slice(1);
	for (const entry of candidates) {
		if (entry.segments.length !== parts.length) continue;
		const params: Record<string, string> = {};
		let matched = true;
		for (let i = 0; i < parts.length && matched; i++) {
			const segment = entry.segments[i];
			if ("literal" in segment) {
				matched = segment.literal === parts[i];
				continue;
			}
			if (parts[i] === "") return undefined;
			try {
				params[segment.param] = decodeURIComponent(parts[i]);
			} catch {
				return undefined;
			}
		}
		if (matched) return { entry, params };
	}
	return undefined;
}

/** What an action may put on its context's meta for the HTTP reply (middlewares/http-reply.middleware.ts). */
export interface ReplyMeta {
	$statusCode?: number;
	$statusMessage?: string;
	$responseType?: string;
	$responseHeaders?: Record<string, string | string[]>;
	$location?: string;
	/**
	 * Set by an action whose reply shows one chatbot and depends on nothing but the request's path
	 * and that chatbot's documents (getDemoSession and the demo API's writes, which answer the same
	 * view): a GET reply is kept in the gateway's read cache (reads.ts) until the chatbot changes,
	 * and any other reply makes the gateway forget what it kept of that chatbot.
	 */
	$chatbotRead?: ChatbotRead;
}

/** The reply part of an action's meta: what `sendActionResult` reads, and all a kept reply needs. */
function replyPart(meta: ReplyMeta): ReplyMeta {
	const { $statusCode, $statusMessage, $responseType, $responseHeaders, $location } = meta;
	return { $statusCode, $statusMessage, $responseType: $responseType ?? JSON_TYPE, $responseHeaders, $location };
}

/**
 * An action's result as moleculer-web's `sendResponse` writes it, for what these actions return (no
 * streams; no ETag of moleculer-web's own, which the gateway does not turn on).
 */
export function sendActionResult(res: ServerResponse, meta: ReplyMeta, data: unknown): void {
	if (meta.$statusCode) res.statusCode = meta.$statusCode;
	if (meta.$statusMessage) res.statusMessage = meta.$statusMessage;
	const redirecting = res.statusCode === 201 || (res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304);
	if (redirecting && meta.$location) res.setHeader("Location", meta.$location);
	let responseType = meta.$responseType;
	for (const [name, value] of Object.entries(meta.$responseHeaders ?? {})) {
		if (name === "Content-Type" && !responseType) responseType = String(value);
		else res.setHeader(name, value);
	}
	if (data === null || data === undefined) {
		res.end();
		return;
	}
	let body: string | Buffer;
	if (Buffer.isBuffer(data)) {
		res.setHeader("Content-Type", responseType ?? "application/octet-stream");
		res.setHeader("Content-Length", data.length);
		body = data;
	} else if (typeof data === "object" || !responseType) {
		res.setHeader("Content-Type", responseType ?? JSON_TYPE);
		body = JSON.stringify(data);
	} else {
		res.setHeader("Content-Type", responseType);
		body = String(data);
	}
	if (res.statusCode === 204 || res.statusCode === 304) {
		res.removeHeader("Content-Type");
		res.removeHeader("Content-Length");
		res.removeHeader("Transfer-Encoding");
		body = "";
	}
	res.end(body);
}

/** How the gateway calls actions: its broker (bound once the service exists), the request's meta, the call options. */
export interface ActionCalls {
	broker(): ServiceBroker;
	meta(req: GatewayRequest): Record<string, unknown>;
	callOptions: { timeout?: number };
	/** Where replies marked `$chatbotRead` are kept; without it every request calls the action. */
	reads?: GatewayReads;
}

/** Path parameters (on `$params` once matched), over the body, as moleculer-web merges them. */
export const mergeParams: Middleware = (req, _res, next) => {
	const body = req.body;
	req.$params = { ...(typeof body === "object" && body !== null ? body : {}), ...req.$params };
	next();
};

/** As moleculer-web does before the alias's middlewares: a service nobody runs is its typeless 503, charged to no budget. */
export function endpointAvailable(action: string, calls: ActionCalls): Middleware {
	return (_req, _res, next) => {
		const endpoint = calls.broker().findNextActionEndpoint(action, calls.callOptions);
		if (!(endpoint instanceof Error)) return next();
		next(endpoint instanceof Errors.ServiceNotFoundError ? new ApiGateway.Errors.ServiceUnavailableError(undefined as unknown as string) : endpoint);
	};
}

/**
 * Calls the action with the merged params and the request's meta, and sends what it answers; a GET
 * whose reply was kept (`$chatbotRead`) and whose chatbot has not changed since is answered with it.
 */
export function callAction(action: string, calls: ActionCalls): Middleware {
	return (req, res, next) => {
		const replies = calls.reads?.actionReplies;
		// The path names the action and all its params (these routes take no query string).
		const key = replies && req.method === "GET" ? req.$path : undefined;
		const kept = key === undefined ? undefined : replies?.get(key);
		if (kept) return sendActionResult(res, kept.meta, kept.body);
		const mark = replies?.mark() ?? 0;
		const meta = calls.meta(req) as Record<string, unknown> & ReplyMeta;
		const requestID = String(res.getHeader("X-Request-ID"));
		calls
			.broker()
			.call(action, req.$params, { ...calls.callOptions, meta, requestID })
			.then(data => {
				const read = meta.$chatbotRead;
				if (read && key !== undefined && typeof data === "object" && data !== null && !Buffer.isBuffer(data)) {
					const reply: CachedActionReply = { meta: replyPart(meta), body: Buffer.from(JSON.stringify(data)) };
					replies?.set(key, read.chatbot_id, reply, read.until, mark);
					return sendActionResult(res, reply.meta, reply.body);
				}
				// A write's reply: what this client changed it reads back changed.
				if (read) calls.reads?.invalidate([read.chatbot_id]);
				sendActionResult(res, meta, data);
			}, next);
	};
}
