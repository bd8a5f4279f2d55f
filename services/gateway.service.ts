/**
 * gateway: every HTTP route (moleculer-web), built from the route table in lib/http/routes.
 *
 * Cross-cutting rules live here once: API-Version and Link headers on every response, the
 * deprecation table, client IP, rate limits, request validation, the JSON error body for every
 * failure, and content-negotiated 404s. Routes map onto other services' actions, or onto a few
 * gateway-local handlers for raw bodies and streams.
 */
import * as http from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type Redis from "ioredis";
import type { Context, Service, ServiceSchema } from "moleculer";
import ApiGateway, { ApiSettingsSchema } from "moleculer-web";
import type { AppConfig } from "../config";
import type { Duplex } from "node:stream";
import { CHATBOT_CHANGED_EVENT } from "../lib/chatbots/changes";
import { pageCallTimeoutMs } from "../lib/crawl/deadline";
import { clientIp, clientNetwork } from "../lib/http/client-ip";
import { clientErrorResponse } from "../lib/http/client-error";
import { renderError } from "../lib/http/error-body";
import { createRateLimiter, RateLimiter } from "../lib/http/rate-limiter";
import { RATE_POLICIES, RatePolicy, RatePolicyName } from "../lib/http/rate-policies";
import { createValidatorFactory } from "../lib/http/request-validator";
import { ROUTES } from "../lib/http/routes";
import { CounterSeries, DURATION_BUCKETS, processMetrics } from "../lib/ops/metrics";
import type { GatewayHandlerName, RouteDef } from "../lib/http/routes/types";
import { API_VERSION, DEPRECATIONS, DeprecationEntry, deprecationHeaders, findDeprecation, linkHeader } from "../lib/http/versioning";
import type { GatewayDeps, GatewayHandler, GatewayRequest } from "./gateway/context";
import { sendJson } from "./gateway/context";
import { bodyParsing } from "./gateway/body";
import { optionsAnswerer, PUBLIC_CORS } from "./gateway/cors";
import { ActionCalls, actionRoutes, callAction, endpointAvailable, matchActionRoute, mergeParams } from "./gateway/direct-actions";
import { ChainErrors, directRoutes, Middleware, requestIdOf, runChain } from "./gateway/direct-routes";
import { gatewayHandlers } from "./gateway/handlers";
import { sendNotFound } from "./gateway/not-found";
import { rateLimitMiddleware } from "./gateway/rate-limit";
import { GatewayReads } from "./gateway/reads";
import { endNowIfWaiting, TurnBatchedResponse } from "./gateway/turn-batched-response";

export interface GatewayOptions {
	/** The deprecation table; production uses the (empty) built-in one. */
	deprecations?: readonly DeprecationEntry[];
	/** Policy overrides, for deployments that need other budgets. */
	ratePolicies?: Partial<Record<RatePolicyName, RatePolicy>>;
	/** Extra routes (served like the table's). */
	extraRoutes?: RouteDef[];
}

/** Upper bound of a JSON or form body: a 50,000-character text escaped as \\uXXXX fits well inside. */
const JSON_BODY_LIMIT = "512kb";

const httpRequests = processMetrics.counter("http_requests_total", "HTTP requests answered by the gateway, by method and status.");
const httpDurations = processMetrics.histogram("http_request_duration_seconds", "Time to answer an HTTP request at the gateway.", DURATION_BUCKETS).labelled({});
/** `GET 200` → its series: the counter's label set is found once per method and status, not per request. */
const requestCounts = new Map<string, CounterSeries>();
const STARTED = Symbol("started");
const SLASH = 0x2f;

/** Counts and times the response when it finishes; one shared listener, so no closure per request. */
function countOnFinish(res: ServerResponse): void {
	(res as ServerResponse & { [STARTED]: number })[STARTED] = performance.now();
	res.once("finish", countFinished);
}

function countFinished(this: ServerResponse & { [STARTED]: number }): void {
	const method = this.req.method ?? "GET";
	const key = `${method} ${this.statusCode}`;
	let series = requestCounts.get(key);
	if (!series) requestCounts.set(key, (series = httpRequests.labelled({ method, status: String(this.statusCode) })));
	series.inc();
	httpDurations.observe((performance.now() - this[STARTED]) / 1000);
}

/** How often a draining gateway closes the keep-alive connections that went idle. */
const IDLE_SWEEP_MS = 100;

type GatewayThis = Service & {
	redis?: Redis;
	server?: Server;
	/** Set once the listener is closing (drain). */
	closing?: Promise<void>;
	/** The method below (optional here: Moleculer types `this` in lifecycle handlers without it). */
	beginDrain?(): Promise<void>;
};

function aliasPath(path: string): string {
	return path.replace(/\{(\w+)\}/g, ":$1");
}

/** The key of a route's alias in moleculer-web's alias table, and in the one `buildAliases` returns. */
function aliasKey(route: RouteDef): string {
	return `${route.method} ${aliasPath(route.path)}`;
}

function buildAliases(deps: GatewayDeps, routes: readonly RouteDef[]): Record<string, unknown[]> {
	const handlers = gatewayHandlers(deps.config);
	const makeValidator = createValidatorFactory();
	const aliases: Record<string, unknown[]> = {};
	for (const route of routes) {
		const chain: unknown[] = [];
		// mcpPost charges its budgets itself, after reading the body (create_chatbot calls cost extra).
		if (route.rateLimit && route.handler !== "mcpPost") chain.push(rateLimitMiddleware(deps, route.rateLimit));
		// A handler that reads its raw body validates it itself; only path parameters are checked here.
		const validator = makeValidator(wantsRawBody(route) ? { ...route, body: undefined } : route);
		if (validator) {
			const validate: Middleware = (req, _res, next) => {
				try {
					const pathParams: Record<string, unknown> = {};
					for (const p of route.params ?? []) if (p.in === "path") pathParams[p.name] = req.$params?.[p.name];
					validator.validate({ body: req.body, pathParams });
					next();
				} catch (err) {
					next(err);
				}
			};
			chain.push(validate);
		}
		if (route.action) {
			chain.push(route.action);
		} else if (route.handler) {
			const handler: GatewayHandler | undefined = handlers[route.handler as GatewayHandlerName];
			if (!handler) throw new Error(`Route ${route.operationId} names an unknown gateway handler "${route.handler}"`);
			const run: Middleware = (req, res, next) => {
				handler(deps, req, res, route).catch(next);
			};
			chain.push(run);
		} else {
			throw new Error(`Route ${route.operationId} has neither an action nor a handler`);
		}
		aliases[aliasKey(route)] = chain;
	}
	return aliases;
}

/**
 * HTTP/1.1 servers must accept a request target in absolute form (`GET http://host/api`, RFC 9112
 * §3.2.2); Node passes it on as the URL, which no route would match. Reduce it to path and query.
 */
function originForm(url: string): string {
	if (!/^https?:\/\//i.test(url)) return url;
	try {
		const parsed = new URL(url);
		return `${parsed.pathname}${parsed.search}`;
	} catch {
		return url;
	}
}

/** Routes whose handlers read the raw request stream themselves. */
function wantsRawBody(route: RouteDef): boolean {
	return route.body?.kind === "raw" || route.handler === "mcpPost" || route.handler === "uploadPut";
}

export default function createGatewayService(config: Readonly<AppConfig>, options: GatewayOptions = {}): ServiceSchema<ApiSettingsSchema> {
	const deprecations = options.deprecations ?? DEPRECATIONS;
	const policies = { ...RATE_POLICIES, ...(options.ratePolicies ?? {}) };
	const routes = [...ROUTES, ...(options.extraRoutes ?? [])];
	const link = linkHeader(config.publicUrl);
	const answerOptions = optionsAnswerer(routes);

	// Route middlewares are built before moleculer-web reads `settings.routes` (in its own
	// `created`, which runs before ours), so `deps` binds to the service instance late.
	let self: GatewayThis | undefined;
	let limiter: RateLimiter | undefined;
	const service = () => {
		if (!self) throw new Error("gateway used before it was created");
		return self;
	};
	const reads = new GatewayReads();
	const deps: GatewayDeps = {
		config,
		reads,
		limiter: { consume: (policy, key, points) => (limiter as RateLimiter).consume(policy, key, points) },
		call: (action, params, opts) => service().broker.call(action, params ?? {}, opts ?? {}),
		logger: {
			info: (...args) => service().logger.info(...args),
			warn: (...args) => service().logger.warn(...args),
			error: (...args) => service().logger.error(...args)
		}
	};

	/** What an action learns of the request it answers: the client and the headers it may read. */
	const requestMeta = (req: GatewayRequest): Record<string, unknown> => ({
		clientIp: req.$clientIp,
		clientNetwork: req.$clientNetwork,
		headers: {
			accept: req.headers.accept,
			"if-none-match": req.headers["if-none-match"],
			cookie: req.headers.cookie,
			authorization: req.headers.authorization,
			origin: req.headers.origin,
			"user-agent": req.headers["user-agent"],
			"content-type": req.headers["content-type"]
		}
	});
	const onBeforeCall = (ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest) => {
		Object.assign(ctx.meta, requestMeta(req));
	};
	// The demo API's add-URL reads a page during the request: gateway → demo-session → chatbots → crawler.
	const parsedCallOptions = { timeout: pageCallTimeoutMs(config.crawl.timeoutMs, 3) };
	const aliases = buildAliases(deps, routes);
	const parsedBodies = bodyParsing({ limit: JSON_BODY_LIMIT, forms: true });
	const direct = directRoutes(
		routes,
		route => aliases[aliasKey(route)] as Middleware[],
		route => (wantsRawBody(route) ? [] : [parsedBodies])
	);
	const actionCalls: ActionCalls = { broker: () => service().broker, meta: requestMeta, callOptions: parsedCallOptions, reads };
	// The alias's own steps (rate limit, validation) between moleculer-web's before and after them.
	const actions = actionRoutes(routes, route => [
		parsedBodies,
		mergeParams,
		endpointAvailable(route.action as string, actionCalls),
		...aliases[aliasKey(route)].filter((step): step is Middleware => typeof step === "function"),
		callAction(route.action as string, actionCalls)
	]);
	const rawAliases: Record<string, unknown> = {};
	const parsedAliases: Record<string, unknown> = {};
	const corsAliases: Record<string, unknown> = {};
	for (const route of routes) {
		const key = aliasKey(route);
		(route.cors ? corsAliases : wantsRawBody(route) ? rawAliases : parsedAliases)[key] = aliases[key];
	}
	const moleculerRoutes = [
		{ name: "raw", path: "", mappingPolicy: "restrict", autoAliases: false, bodyParsers: false, aliases: rawAliases, onBeforeCall },
		{
			name: "parsed",
			path: "",
			mappingPolicy: "restrict",
			autoAliases: false,
			bodyParsers: false,
			use: [parsedBodies],
			aliases: parsedAliases,
			callOptions: parsedCallOptions,
			onBeforeCall
		},
		// Routes marked `cors` (JSON bodies): CORS headers on every response, preflights answered.
		{
			name: "cors",
			path: "",
			mappingPolicy: "restrict",
			autoAliases: false,
			bodyParsers: false,
			use: [bodyParsing({ limit: JSON_BODY_LIMIT, forms: false })],
			cors: PUBLIC_CORS,
			aliases: corsAliases,
			onBeforeCall
		}
	] as unknown as ApiSettingsSchema["routes"]; // our middlewares take the request type the gateway extends

	const schema: ServiceSchema<ApiSettingsSchema> = {
		name: "gateway",
		mixins: [ApiGateway],
		settings: {
			port: config.port,
			ip: config.host,
			log4XXResponses: false,
			logRequest: null,
			logResponse: null,
			logRouteRegistration: "debug",
			routes: moleculerRoutes,
			onError(this: GatewayThis, req: IncomingMessage, res: ServerResponse, err: unknown) {
				const rendered = renderError(err, config.publicUrl);
				if (rendered.unexpected) this.logger.error("Unexpected error on", req.method, req.url, err);
				else if (rendered.status >= 500) this.logger.warn(`${req.method} ${req.url}: ${rendered.status} ${rendered.body.code}: ${rendered.body.message}`);
				if (res.headersSent) {
					// Also when the response's end is waiting for the turn's end (turn-batched-response.ts).
					res.destroy();
					return;
				}
				sendJson(res, rendered.status, rendered.body, rendered.headers);
			}
		},
		methods: {
			httpHandler(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next?: () => void) {
				const greq = req as GatewayRequest;
				countOnFinish(res);
				let url = req.url ?? "/";
				if (url.charCodeAt(0) !== SLASH) req.url = url = originForm(url);
				const query = url.indexOf("?");
				greq.$path = query === -1 ? url : url.slice(0, query);
				// HEAD is answered as GET: Node's response already knows the request was HEAD and
				// drops the body while keeping the headers (ETag, Content-Length).
				if (req.method === "HEAD") req.method = "GET";
				greq.$clientIp = clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"], config.trustProxy);
				greq.$clientNetwork = clientNetwork(greq.$clientIp);
				res.setHeader("API-Version", API_VERSION);
				const deprecation = findDeprecation(greq.$path, deprecations);
				if (deprecation) {
					const h = deprecationHeaders(deprecation);
					res.setHeader("Deprecation", h.Deprecation);
					res.setHeader("Sunset", h.Sunset);
					res.setHeader("Link", [link, h.Link].join(", "));
				} else {
					res.setHeader("Link", link);
				}
				if (req.method === "OPTIONS") {
					// Never let moleculer-web run a route's action for an OPTIONS request (see cors.ts).
					const answer = answerOptions(greq.$path, req.headers["access-control-request-method"] !== undefined);
					if (answer.kind === "not_found") return sendNotFound(res, greq.$path, req.headers.accept, config.publicUrl);
					if (answer.kind === "allow") {
						res.writeHead(204, { Allow: answer.allow });
						res.end();
						return;
					}
				}
				let chain = direct.get(`${req.method} ${greq.$path}`);
				const action = chain || query !== -1 ? undefined : matchActionRoute(actions, req.method ?? "GET", greq.$path);
				if (action) {
					greq.$params = action.params;
					chain = action.entry.chain;
				}
				if (chain) {
					res.setHeader("X-Request-ID", requestIdOf(greq, () => this.broker.generateUid()));
					return runChain(chain, greq, res, this as GatewayThis & ChainErrors);
				}
				const base = (ApiGateway.methods as Record<string, (...args: unknown[]) => Promise<unknown>>).httpHandler;
				return base.call(this, req, res, next);
			},
			/**
			 * moleculer-web logs every 5xx with its stack before rendering it, expected conditions
			 * (503 global_cap, unavailable) included; `onError` logs only what is really unexpected.
			 */
			errorHandler(this: GatewayThis, req: IncomingMessage, res: ServerResponse, err: unknown) {
				(this as GatewayThis & { sendError(req: IncomingMessage, res: ServerResponse, err: unknown): void }).sendError(req, res, err);
			},
			/**
			 * Stops accepting connections and resolves once the requests in flight have finished
			 * (keep-alive connections are closed as they go idle); whatever still runs at the drain
			 * deadline is cut. Called by the drain before any service stops, and by `stopped`.
			 * moleculer-web's own `stopped` then finds the server closed.
			 */
			beginDrain(this: GatewayThis): Promise<void> {
				const server = this.server;
				if (this.closing) return this.closing;
				if (!server?.listening) return (this.closing = Promise.resolve());
				const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
				const cut = setTimeout(() => server.closeAllConnections(), config.ops.drainTimeoutSeconds * 1000);
				cut.unref();
				this.closing = new Promise<void>(resolve =>
					server.close(() => {
						clearInterval(sweep);
						clearTimeout(cut);
						resolve();
					})
				);
				return this.closing;
			},
			/** moleculer-web's server, with the response class that ends the responses of a turn together. */
			createServer(this: GatewayThis & { httpHandler(req: IncomingMessage, res: ServerResponse): void }) {
				if (this.server) return;
				const server = http.createServer({ ServerResponse: TurnBatchedResponse }, this.httpHandler);
				server.requestTimeout = (this.settings as ApiSettingsSchema & { requestTimeout: number }).requestTimeout;
				this.server = server;
			},
			send404(this: GatewayThis, req: IncomingMessage, res: ServerResponse) {
				const greq = req as GatewayRequest;
				sendNotFound(res, greq.$path ?? (req.url ?? "/").split("?")[0], req.headers.accept, config.publicUrl);
			}
		},
		events: {
			/** A chatbot's documents changed: forget the replies that showed it. */
			[CHATBOT_CHANGED_EVENT](ctx: Context<unknown>) {
				reads.invalidate(GatewayReads.changedIds(ctx.params));
			},
			/** Changes sent while the bus was down were lost: forget every reply. */
			"$transporter.connected"() {
				reads.invalidate(null);
			}
		},
		created(this: GatewayThis) {
			self = this;
			// Requests Node's parser refuses (bad request line or header, headers over 16 KB) never
			// reach a route; answer them with the Error body instead of Node's bodiless reply.
			this.server?.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
				const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
				// An answer already decided (a 415 before a broken chunk) goes out before the socket closes.
				endNowIfWaiting(inFlight);
				if (err.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
					socket.destroy();
					return;
				}
				// As Node itself does: write the answer, then destroy the socket with the error, so a
				// request whose body broke off mid-way is aborted rather than handled as complete.
				socket.write(clientErrorResponse(err.code, config.publicUrl));
				socket.destroy(err);
			});
			if (config.redisUrl) {
				// Required only with REDIS_URL: an embedded start need not hold the client.
				const RedisClient = require("ioredis") as typeof Redis;
				this.redis = new RedisClient(config.redisUrl, { maxRetriesPerRequest: 1 });
				this.redis.on("error", (err: Error) => this.logger.warn("Redis:", err.message));
				limiter = createRateLimiter(policies, this.redis);
			} else {
				limiter = createRateLimiter(policies);
			}
		},
		/** Drain: the listener closes first (services/ops/drain.ts), then Redis goes. */
		async stopped(this: GatewayThis) {
			await (this.closing ?? this.beginDrain?.());
			if (this.redis) this.redis.disconnect();
		}
	};
	return schema;
}
