/**
 * Direct dispatch of gateway-local routes on a fixed path (`GET /v2/health`, `POST /mcp`,
 * `GET /widget.js`, …). For these moleculer-web would open a broker context for its `rest` action,
 * run the action middlewares and resolve the alias, only to run the middleware chain built here;
 * profiling showed that detour costing more than the handlers themselves. One Map lookup finds the
 * same chain (the route group's `use` middlewares, then the alias's: rate limit, validation,
 * handler), and failures go to the same error renderer. Routes with path parameters, CORS or a
 * broker action stay with moleculer-web.
 */
import type { ServerResponse } from "node:http";
import type { RouteDef } from "../../lib/http/routes/types";
import type { GatewayRequest } from "./context";

export type Middleware = (req: GatewayRequest, res: ServerResponse, next: (err?: unknown) => void) => void;

/** `METHOD /path` → the middlewares to run, in order. */
export type DirectRoutes = ReadonlyMap<string, readonly Middleware[]>;

export function isDirectRoute(route: RouteDef): boolean {
	return route.handler !== undefined && route.action === undefined && !route.cors && !route.path.includes("{");
}

export function directRoutes(routes: readonly RouteDef[], aliasChain: (route: RouteDef) => Middleware[], groupUse: (route: RouteDef) => Middleware[]): DirectRoutes {
	const table = new Map<string, readonly Middleware[]>();
	for (const route of routes) {
		if (isDirectRoute(route)) table.set(`${route.method} ${route.path}`, [...groupUse(route), ...aliasChain(route)]);
	}
	return table;
}

/** Renders a failure of the chain (the gateway's error handler). */
export interface ChainErrors {
	errorHandler(req: GatewayRequest, res: ServerResponse, err: unknown): void;
}

/**
 * Runs the chain as moleculer-web's compose does: each middleware calls `next` to go on, or with an
 * error to stop. A class rather than nested named functions: this runs for every request, and the
 * only function made per step is the `next` handed to the middleware.
 */
class ChainRun {
	constructor(
		private readonly chain: readonly Middleware[],
		private readonly req: GatewayRequest,
		private readonly res: ServerResponse,
		private readonly errors: ChainErrors
	) {}

	step(index: number, err?: unknown): void {
		if (err) return this.errors.errorHandler(this.req, this.res, err);
		const middleware = this.chain[index];
		if (!middleware) return;
		try {
			middleware(this.req, this.res, failure => this.step(index + 1, failure));
		} catch (thrown) {
			this.errors.errorHandler(this.req, this.res, thrown);
		}
	}
}

export function runChain(chain: readonly Middleware[], req: GatewayRequest, res: ServerResponse, errors: ChainErrors): void {
	new ChainRun(chain, req, res, errors).step(0);
}

/** The request id moleculer-web would report in `X-Request-ID`: the caller's correlation or request id, else a new one. */
export function requestIdOf(req: GatewayRequest, generate: () => string): string {
	const given = req.headers["x-correlation-id"] ?? req.headers["x-request-id"];
	return (Array.isArray(given) ? given[0] : given) || generate();
}
