/**
 * `GET /api` (ApiIndex, SPEC §2.8): built from the route table, the rate-limit policies and the
 * deprecation table the gateway runs on, so it lists exactly what is served.
 */
import { API_KEY_PREFIX } from "../accounts/api-keys";
import { appError } from "../errors";
import { ErrorBody, renderError } from "../http/error-body";
import { RATE_LIMIT_HEADERS, RatePolicy } from "../http/rate-policies";
import type { HttpMethod, RouteDef } from "../http/routes/types";
import { API_MAJOR, API_VERSION, DeprecationEntry } from "../http/versioning";
import { SUPPORTED_VERSIONS } from "../mcp/protocol";
import { discoveryUrls, SERVICE_DESCRIPTION, SERVICE_NAME, termsOfService } from "./service-info";

export interface EndpointSummary {
	path: string;
	method: HttpMethod;
	operation_id: string;
	summary: string;
	tags: string[];
}

export interface ApiIndex {
	name: string;
	version: string;
	description: string;
	documentation_url: string;
	openapi_url: string;
	openapi_yaml_url: string;
	status_url: string;
	contact_email?: string;
	terms_of_service: string;
	versioning: {
		scheme: "url-path";
		current: string;
		major: number;
		policy_url: string;
		deprecations: Array<{ path_prefix: string; deprecated_at: string; sunset_at: string; successor: string }>;
		deprecation_headers: string[];
	};
	rate_limits: {
		description: string;
		headers: string[];
		policies: Array<{ name: string; scope: string; limit: number; window_seconds: number }>;
	};
	errors: { description: string; media_type: "application/json"; schema_url: string; example: ErrorBody };
	endpoints: EndpointSummary[];
	authentication: { type: "bearer"; required: false; description: string; instructions_url: string; token_prefix: string };
	mcp: { url: string; transport: "streamable-http"; protocol_versions: string[]; manifest_url: string; server_card_url: string };
}

export interface ApiIndexInput {
	publicUrl: string;
	routes: readonly RouteDef[];
	ratePolicies: readonly RatePolicy[];
	deprecations: readonly DeprecationEntry[];
	/** Lifetime of a demo session (config), quoted in the terms. */
	demoTtlHours: number;
	/** Omitted from the index when the deployment has none. */
	contactEmail?: string;
}

/**
 * Inbound webhooks (SPEC §6) are served but are not caller endpoints; SPEC puts them all under
 * `/webhooks/`, so the prefix is what tells them apart.
 */
export function isInboundWebhook(route: RouteDef): boolean {
	return route.path === "/webhooks" || route.path.startsWith("/webhooks/");
}

/** The routes a caller may call: documented ones, never inbound webhooks. */
export function callableRoutes(routes: readonly RouteDef[]): RouteDef[] {
	return routes.filter(route => route.documented && !isInboundWebhook(route));
}

export function buildApiIndex(input: ApiIndexInput): ApiIndex {
	const urls = discoveryUrls(input.publicUrl);
	const example = renderError(appError("expired", "No live demo session has this id."), input.publicUrl).body;
	const index: ApiIndex = {
		name: SERVICE_NAME,
		version: API_VERSION,
		description: SERVICE_DESCRIPTION,
		documentation_url: urls.docs,
		openapi_url: urls.openApiJson,
		openapi_yaml_url: urls.openApiYaml,
		status_url: urls.health,
		terms_of_service: termsOfService(input.demoTtlHours),
		versioning: {
			scheme: "url-path",
			current: API_VERSION,
			major: API_MAJOR,
			policy_url: urls.versioningPolicy,
			deprecations: input.deprecations.map(d => ({
				path_prefix: d.pathPrefix,
				deprecated_at: d.deprecatedAt.toISOString(),
				sunset_at: d.sunsetAt.toISOString(),
				successor: d.successor
			})),
			deprecation_headers: ["Deprecation", "Sunset", "Link"]
		},
		rate_limits: {
			description:
				"Budgets are counted per client IP in fixed windows. Every response on a limited path carries the RateLimit headers; " +
				"a refused request answers 429 `rate_limited` with Retry-After. A tools/call of create_chatbot counts against both `mcp` and `mcp-create-chatbot`.",
			headers: [...RATE_LIMIT_HEADERS],
			policies: input.ratePolicies.map(p => ({ name: p.name, scope: p.scope, limit: p.limit, window_seconds: p.windowSeconds }))
		},
		errors: {
			description:
				"Every failure answers an Error body as application/json, whatever the Accept header: branch on the stable `code`; `hint` says whether to retry, change an input or stop.",
			media_type: "application/json",
			schema_url: `${urls.openApiJson}#/components/schemas/Error`,
			example
		},
		endpoints: callableRoutes(input.routes).map(route => ({
			path: route.path,
			method: route.method,
			operation_id: route.operationId,
			summary: route.summary,
			tags: [...route.tags]
		})),
		authentication: {
			type: "bearer",
			required: false,
			description:
				"No key is needed anywhere. An account API key, sent as `Authorization: Bearer <key>`, is accepted only by POST /mcp, " +
				"where it selects the account's chatbots under its plan limits instead of an anonymous sandbox.",
			instructions_url: urls.authentication,
			token_prefix: API_KEY_PREFIX
		},
		mcp: {
			url: urls.mcp,
			transport: "streamable-http",
			protocol_versions: [...SUPPORTED_VERSIONS],
			manifest_url: urls.mcpManifest,
			server_card_url: urls.mcpServerCard
		}
	};
	if (input.contactEmail) index.contact_email = input.contactEmail;
	return index;
}
