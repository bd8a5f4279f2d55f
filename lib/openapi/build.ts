/**
 * Builds the OpenAPI 3.1 document from the route table and the named schemas — the same objects
 * the gateway serves and validates with — so the description cannot drift from what is served.
 */
import { ERROR_CODES } from "../errors";
import { RATE_POLICIES } from "../http/rate-policies";
import type { RouteDef } from "../http/routes/types";
import { API_VERSION } from "../http/versioning";
import type { JsonSchema } from "../http/routes/types";

export interface OpenApiDocument {
	openapi: "3.1.0";
	info: Record<string, unknown>;
	servers: Array<{ url: string }>;
	tags: Array<{ name: string; description: string }>;
	paths: Record<string, Record<string, unknown>>;
	components: Record<string, unknown>;
	[key: string]: unknown;
}

const TAGS: Record<string, string> = {
	Demo: "The keyless demo-tool API: a session, its sources, training. Authorized by the opaque session_id in the path.",
	MCP: "The tool server: JSON-RPC 2.0 over the Streamable HTTP transport.",
	Chat: "Chat with a trained chatbot (the chat page and the widget use these).",
	Accounts: "Account sign-up, log-in and API keys, in JSON for programs.",
	Dashboard: "A chatbot's owner dashboard: status and progress, sources, training, deletion; pages for browsers, JSON for programs (session cookie).",
	Sandbox: "The home page's visitor flow: a sandbox chatbot built from a website with no account, its progress, and its claim link.",
	Channels: "A chatbot's messaging channels (Telegram, Crisp): connect and disconnect, in JSON for programs.",
	Discovery: "Documents that describe the service to people and programs.",
	Widget: "The website widget's usage beacons.",
	Operations: "Health of the running service."
};

const HEADERS: Record<string, { description: string; schema: JsonSchema }> = {
	"API-Version": { description: "Version of the API contract.", schema: { type: "string", const: API_VERSION } },
	Link: {
		description: 'Discovery links: rel="service-desc" (this document), rel="service-doc" (documentation), rel="deprecation-policy"; plus rel="successor-version" on a deprecated surface.',
		schema: { type: "string" }
	},
	Deprecation: { description: "Present only on a deprecated surface (RFC 9745): `@` and the Unix time of deprecation.", schema: { type: "string" } },
	Sunset: { description: "Present only on a deprecated surface (RFC 8594): HTTP-date after which it stops answering.", schema: { type: "string" } },
	"RateLimit-Limit": { description: "Requests allowed in the window.", schema: { type: "integer" } },
	"RateLimit-Remaining": { description: "Requests left in the window.", schema: { type: "integer" } },
	"RateLimit-Reset": { description: "Seconds until the window rolls over (a delta).", schema: { type: "integer" } },
	RateLimit: { description: "Structured form: `limit=<n>, remaining=<n>, reset=<n>`.", schema: { type: "string" } },
	"RateLimit-Policy": { description: 'Structured form: `"<policy>"; q=<quota>; w=<window seconds>`.', schema: { type: "string" } },
	"Retry-After": { description: "Seconds to wait before retrying; equals RateLimit-Reset on a 429.", schema: { type: "integer" } },
	ETag: { description: "Strong entity tag; send it back in If-None-Match for a 304.", schema: { type: "string" } },
	"Cache-Control": { description: "How long caches may reuse the response before revalidating it.", schema: { type: "string" } },
	Vary: { description: "Request headers that select the representation (`Accept` on pages and not-found answers).", schema: { type: "string" } },
	Allow: { description: "The methods the path supports.", schema: { type: "string" } },
	Location: { description: "Where the created resource, or the next page, is.", schema: { type: "string" } },
	"Set-Cookie": { description: "The `cb_session` login cookie: HttpOnly, SameSite=Lax, Path=/, Secure over https.", schema: { type: "string" } },
	"WWW-Authenticate": { description: 'The refused credential\'s scheme and reason (RFC 6750), e.g. `Bearer realm="mcp", error="invalid_token"`.', schema: { type: "string" } }
};

/** A header a route names that the table above does not describe still gets a component, so no `$ref` dangles. */
function headerComponents(routes: readonly RouteDef[]): Record<string, { description: string; schema: JsonSchema }> {
	const out = { ...HEADERS };
	for (const route of routes) {
		for (const def of Object.values(route.responses)) {
			for (const name of def.headers ?? []) out[name] ??= { description: `The \`${name}\` response header.`, schema: { type: "string" } };
		}
	}
	return out;
}

const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit", "RateLimit-Policy"];
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function responseFor(route: RouteDef, status: string): Record<string, unknown> {
	const def = route.responses[status];
	const names = ["API-Version", "Link", "Deprecation", "Sunset", ...(def.headers ?? [])];
	if (route.rateLimit) names.push(...RATE_HEADERS);
	if (status === "429" || (status === "503" && route.rateLimit)) names.push("Retry-After");
	const headers = Object.fromEntries([...new Set(names)].map(n => [n, headerRef(n)]));
	const out: Record<string, unknown> = { description: def.description, headers };
	if (def.content) {
		out.content = Object.fromEntries(Object.entries(def.content).map(([type, schema]) => [type, { schema }]));
	}
	return out;
}

function operationFor(route: RouteDef): Record<string, unknown> {
	const op: Record<string, unknown> = {
		operationId: route.operationId,
		summary: route.summary,
		tags: route.tags
	};
	if (route.description) op.description = route.description;
	if (route.params?.length) {
		op.parameters = route.params.map(p => ({ name: p.name, in: p.in, required: p.in === "path" ? true : p.required, description: p.description, schema: p.schema }));
	}
	if (route.body) {
		if (route.body.kind === "json") {
			op.requestBody = { required: route.body.required, description: route.body.description, content: { "application/json": { schema: route.body.schema } } };
		} else if (route.body.kind === "form") {
			op.requestBody = {
				required: true,
				description: route.body.description,
				content: { "application/x-www-form-urlencoded": { schema: route.body.schema }, "application/json": { schema: route.body.schema } }
			};
		} else {
			op.requestBody = {
				required: true,
				description: route.body.description,
				content: Object.fromEntries(route.body.contentTypes.map(t => [t, { schema: { type: "string", contentMediaType: t } }]))
			};
		}
	}
	const statuses = Object.keys(route.responses);
	if (route.rateLimit && !statuses.includes("429")) statuses.push("429");
	op.responses = Object.fromEntries(
		statuses.map(status =>
			route.responses[status]
				? [status, responseFor(route, status)]
				: [status, { $ref: "#/components/responses/RateLimited" }]
		)
	);
	if (route.rateLimit) op["x-rate-limit-policy"] = route.rateLimit;
	op.security = route.security === "bearer-optional" ? [{}, { bearerAuth: [] }] : [];
	return op;
}

export interface OpenApiOptions {
	/** Published as `info.contact.email` when the deployment has one. */
	contactEmail?: string;
}

export function buildOpenApi(routes: readonly RouteDef[], schemas: Record<string, JsonSchema>, publicUrl: string, options: OpenApiOptions = {}): OpenApiDocument {
	const paths: Record<string, Record<string, unknown>> = {};
	const usedTags = new Set<string>();
	for (const route of routes.filter(r => r.documented)) {
		paths[route.path] ??= {};
		paths[route.path][route.method.toLowerCase()] = operationFor(route);
		route.tags.forEach(t => usedTags.add(t));
	}
	const errorExample = (schemas.Error?.examples as unknown[] | undefined)?.[0];
	return {
		openapi: "3.1.0",
		jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
		info: {
			title: "Chatbot Builder API",
			version: API_VERSION,
			summary: "Build chatbots trained on your own content: a keyless demo-tool API and an MCP tool server.",
			description:
				"Every response carries `API-Version` and `Link` headers; every failure answers the `Error` schema as `application/json`. " +
				`Rate limits: ${Object.values(RATE_POLICIES).map(p => `\`${p.name}\` ${p.limit}/${p.windowSeconds}s (${p.scope})`).join("; ")}.`,
			contact: { name: "Chatbot Builder developers", url: `${publicUrl}/developers`, ...(options.contactEmail ? { email: options.contactEmail } : {}) }
		},
		servers: [{ url: publicUrl }],
		tags: [...usedTags].map(name => ({ name, description: TAGS[name] ?? name })),
		paths,
		components: {
			schemas,
			headers: Object.fromEntries(Object.entries(headerComponents(routes)).map(([name, h]) => [name, { description: h.description, schema: h.schema }])),
			responses: {
				RateLimited: {
					description: "`rate_limited`: the budget is exhausted; wait Retry-After seconds.",
					headers: Object.fromEntries(["API-Version", "Link", ...RATE_HEADERS, "Retry-After"].map(n => [n, headerRef(n)])),
					content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, example: { ...(errorExample as object), code: "rate_limited", error: "rate_limited", status: 429 } } }
				}
			},
			securitySchemes: {
				bearerAuth: { type: "http", scheme: "bearer", description: "An account API key; accepted only by POST /mcp. Optional: without it the caller is anonymous." }
			}
		},
		"x-error-codes": Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, { status: v.status, hint: v.hint }]))
	};
}
