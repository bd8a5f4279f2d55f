/**
 * The route table: one definition per HTTP operation. The gateway builds its aliases, body
 * validation and rate limits from it; the OpenAPI document and the API index are built from the
 * same objects, so what is served and what is documented cannot drift apart.
 */
import type { RatePolicyName } from "../rate-policies";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A JSON Schema (2020-12 dialect, as OpenAPI 3.1 uses it). */
export type JsonSchema = { [keyword: string]: unknown };

/** A reference to a named schema in `lib/http/schemas.ts`. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export interface ResponseDef {
	description: string;
	/** Media type → schema. Omit for an empty body. */
	content?: Record<string, JsonSchema>;
	/** Extra response header names documented on this response (beyond the ones every response has). */
	headers?: string[];
}

export type BodyDef =
	| { kind: "json"; schema: JsonSchema; required: boolean; description?: string }
	| { kind: "form"; schema: JsonSchema; description?: string }
	| { kind: "raw"; contentTypes: string[]; description: string };

export interface ParamDef {
	name: string;
	in: "path" | "query" | "header";
	required: boolean;
	description: string;
	schema: JsonSchema;
}

/** Gateway-local handlers, for routes that need the raw request or response (streams, raw bodies). */
export type GatewayHandlerName =
	| "health"
	| "mcpPost"
	| "mcpGet"
	| "uploadPut"
	| "chatMessage"
	| "chatPage"
	| "staticAsset"
	| "telegramWebhook"
	| "crispWebhook"
	| "stripeWebhook";

export interface RouteDef {
	operationId: string;
	method: HttpMethod;
	/** OpenAPI path template, e.g. `/api/tools/sessions/{session_id}`. */
	path: string;
	summary: string;
	description?: string;
	tags: string[];
	/** Moleculer action that answers; it receives path params, query and body merged into its params. */
	action?: string;
	/** Or a gateway-local handler. */
	handler?: GatewayHandlerName;
	body?: BodyDef;
	params?: ParamDef[];
	/** Status code → response. */
	responses: Record<string, ResponseDef>;
	rateLimit?: RatePolicyName;
	/**
	 * Callable from web pages on any origin (the widget runs on other sites): every response carries
	 * `Access-Control-Allow-Origin: *` (never credentials) and OPTIONS preflights are answered.
	 */
	cors?: boolean;
	/** `bearer-optional`: an API key may be sent (only /mcp). */
	security?: "bearer-optional";
	/**
	 * Whether this operation belongs to the machine surface: listed in `/api` endpoints and in the
	 * OpenAPI document. HTML pages and assets are served but not listed.
	 */
	documented: boolean;
}
