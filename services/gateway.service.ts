/**
 * gateway: every HTTP route (moleculer-web), built from the route table in lib/http/routes.
 *
 * Cross-cutting rules live here once: API-Version and Link headers on every response, the
 * deprecation table, client IP, rate limits, request validation, the JSON error body for every
 * failure, and content-negotiated 404s. Routes map onto other services' actions, or onto a few
 * gateway-local handlers for raw bodies and streams.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import Redis from "ioredis";
import type { Context, Service, ServiceSchema } from "moleculer";
import ApiGateway, { ApiSettingsSchema } from "moleculer-web";
import type { AppConfig } from "../config";
import { clientIp } from "../lib/http/client-ip";
import { renderError } from "../lib/http/error-body";
import { createRateLimiter, RateLimiter } from "../lib/http/rate-limiter";
import { RATE_POLICIES, RatePolicy, RatePolicyName } from "../lib/http/rate-policies";
import { createValidatorFactory } from "../lib/http/request-validator";
import { ROUTES } from "../lib/http/routes";
import type { GatewayHandlerName, RouteDef } from "../lib/http/routes/types";
import { API_VERSION, DEPRECATIONS, DeprecationEntry, deprecationHeaders, findDeprecation, linkHeader } from "../lib/http/versioning";
import type { GatewayDeps, GatewayHandler, GatewayRequest } from "./gateway/context";
import { sendJson } from "./gateway/context";
import { optionsAnswerer, PUBLIC_CORS } from "./gateway/cors";
import { gatewayHandlers } from "./gateway/handlers";
import { sendNotFound } from "./gateway/not-found";
import { rateLimitMiddleware } from "./gateway/rate-limit";

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

type Middleware = (req: GatewayRequest, res: ServerResponse, next: (err?: unknown) => void) => void;

type GatewayThis = Service & {
	redis?: Redis;
};

function aliasPath(path: string): string {
	return path.replace(/\{(\w+)\}/g, ":$1");
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
		aliases[`${route.method} ${aliasPath(route.path)}`] = chain;
	}
	return aliases;
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
	const deps: GatewayDeps = {
		config,
		limiter: { consume: (policy, key, points) => (limiter as RateLimiter).consume(policy, key, points) },
		call: (action, params, opts) => service().broker.call(action, params ?? {}, opts ?? {}),
		logger: {
			info: (...args) => service().logger.info(...args),
			warn: (...args) => service().logger.warn(...args),
			error: (...args) => service().logger.error(...args)
		}
	};

	const onBeforeCall = (ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest) => {
		ctx.meta.clientIp = req.$clientIp;
		ctx.meta.headers = {
			accept: req.headers.accept,
			"if-none-match": req.headers["if-none-match"],
			cookie: req.headers.cookie,
			authorization: req.headers.authorization,
			origin: req.headers.origin,
			"user-agent": req.headers["user-agent"],
			"content-type": req.headers["content-type"]
		};
	};
	const aliases = buildAliases(deps, routes);
	const rawAliases: Record<string, unknown> = {};
	const parsedAliases: Record<string, unknown> = {};
	const corsAliases: Record<string, unknown> = {};
	for (const route of routes) {
		const key = `${route.method} ${aliasPath(route.path)}`;
		(route.cors ? corsAliases : wantsRawBody(route) ? rawAliases : parsedAliases)[key] = aliases[key];
	}
	const moleculerRoutes = [
		{ name: "raw", path: "", mappingPolicy: "restrict", autoAliases: false, bodyParsers: false, aliases: rawAliases, onBeforeCall },
		{
			name: "parsed",
			path: "",
			mappingPolicy: "restrict",
			autoAliases: false,
			bodyParsers: {
				json: { strict: false, limit: JSON_BODY_LIMIT },
				urlencoded: { extended: false, limit: JSON_BODY_LIMIT }
			},
			aliases: parsedAliases,
			onBeforeCall
		},
		// Routes marked `cors` (JSON bodies): CORS headers on every response, preflights answered.
		{
			name: "cors",
			path: "",
			mappingPolicy: "restrict",
			autoAliases: false,
			bodyParsers: { json: { strict: false, limit: JSON_BODY_LIMIT } },
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
				if (res.headersSent) {
					res.destroy();
					return;
				}
				sendJson(res, rendered.status, rendered.body, rendered.headers);
			}
		},
		methods: {
			async httpHandler(this: GatewayThis, req: IncomingMessage, res: ServerResponse, next?: () => void) {
				const greq = req as GatewayRequest;
				greq.$path = (req.url ?? "/").split("?")[0];
				// HEAD is answered as GET: Node's response already knows the request was HEAD and
				// drops the body while keeping the headers (ETag, Content-Length).
				if (req.method === "HEAD") req.method = "GET";
				greq.$clientIp = clientIp(req.socket.remoteAddress, req.headers["x-forwarded-for"], config.trustProxy);
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
				const base = (ApiGateway.methods as Record<string, (...args: unknown[]) => Promise<unknown>>).httpHandler;
				return base.call(this, req, res, next);
			},
			send404(this: GatewayThis, req: IncomingMessage, res: ServerResponse) {
				const greq = req as GatewayRequest;
				sendNotFound(res, greq.$path ?? (req.url ?? "/").split("?")[0], req.headers.accept, config.publicUrl);
			}
		},
		created(this: GatewayThis) {
			self = this;
			if (config.redisUrl) {
				this.redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
				this.redis.on("error", (err: Error) => this.logger.warn("Redis:", err.message));
				limiter = createRateLimiter(policies, this.redis);
			} else {
				limiter = createRateLimiter(policies);
			}
		},
		async stopped(this: GatewayThis) {
			if (this.redis) this.redis.disconnect();
		}
	};
	return schema;
}
