/**
 * Checks live HTTP responses against an OpenAPI 3.1 document, the way a generated client would read
 * it: the request must match a documented path and method, the status must be documented for that
 * operation, a body's media type must be one the response lists, and a JSON body must validate
 * (JSON Schema 2020-12, ajv) against the schema documented for that status and media type.
 * `#/components/...` references resolve inside the same document.
 *
 * Objects that list `properties` and say nothing of `additionalProperties` are read as closed, so a
 * field the service sends but the document does not describe fails the check: the document must
 * describe everything that is served.
 */
import Ajv2020, { ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface MediaTypeObject {
	schema?: JsonObject;
}
interface ResponseObject {
	content?: Record<string, MediaTypeObject>;
	$ref?: string;
}
export interface Operation {
	operationId: string;
	responses: Record<string, ResponseObject>;
}
export interface OpenApi31 {
	openapi: string;
	paths: Record<string, Record<string, Operation>>;
	components: { schemas: Record<string, JsonObject>; responses?: Record<string, ResponseObject> };
}

export interface LiveResponse {
	method: string;
	/** Path without query string. */
	path: string;
	status: number;
	contentType: string | null;
	body: string;
}

function closeObjects(node: Json): Json {
	if (Array.isArray(node)) return node.map(closeObjects);
	if (node === null || typeof node !== "object") return node;
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(node)) out[key] = key === "properties" && value && typeof value === "object" && !Array.isArray(value) ? closeProperties(value as JsonObject) : closeObjects(value);
	const isObjectSchema = out.type === "object" && out.properties !== undefined;
	if (isObjectSchema && out.additionalProperties === undefined && !out.oneOf && !out.anyOf && !out.allOf) out.additionalProperties = false;
	return out;
}

/** Property names are names, not schemas: only their values are walked. */
function closeProperties(props: JsonObject): JsonObject {
	return Object.fromEntries(Object.entries(props).map(([name, schema]) => [name, closeObjects(schema)]));
}

/** `/docs/{category}/{slug}.md` → a regex with one group per parameter. */
function templateRegex(template: string): RegExp {
	const source = template
		.split(/(\{[^}]+\})/)
		.map(part => (part.startsWith("{") ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
		.join("");
	return new RegExp(`^${source}$`);
}

export class LiveOpenApiChecker {
	private readonly ajv: Ajv2020;
	private readonly validators = new Map<string, ValidateFunction>();
	private readonly templates: Array<{ template: string; re: RegExp; params: number }>;
	/** operationId → statuses seen, for coverage reports. */
	readonly seen = new Map<string, Set<number>>();

	constructor(private readonly doc: OpenApi31) {
		this.ajv = new Ajv2020({ strict: false, allErrors: true });
		addFormats(this.ajv);
		this.templates = Object.keys(doc.paths)
			.map(template => ({ template, re: templateRegex(template), params: (template.match(/\{/g) ?? []).length }))
			// Literal paths win over templated ones, as they do in the gateway.
			.sort((a, b) => a.params - b.params);
	}

	operation(method: string, path: string): { template: string; operation: Operation } | undefined {
		for (const t of this.templates) {
			if (!t.re.test(path)) continue;
			const operation = this.doc.paths[t.template][method.toLowerCase()];
			if (operation) return { template: t.template, operation };
		}
		return undefined;
	}

	private response(operation: Operation, status: number): ResponseObject | undefined {
		const found = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses.default;
		if (found?.$ref) {
			const name = found.$ref.replace("#/components/responses/", "");
			return this.doc.components.responses?.[name];
		}
		return found;
	}

	private validator(key: string, schema: JsonObject): ValidateFunction {
		let validate = this.validators.get(key);
		if (!validate) {
			// The components travel with the schema so that `#/components/schemas/X` resolves from its root.
			validate = this.ajv.compile({ ...(closeObjects(schema) as JsonObject), components: closeObjects(this.doc.components as unknown as Json) } as object);
			this.validators.set(key, validate);
		}
		return validate;
	}

	/** Problems with one live response; empty when the document allows it. */
	check(res: LiveResponse): string[] {
		const where = `${res.method} ${res.path} → ${res.status}`;
		const match = this.operation(res.method, res.path);
		if (!match) return [`${where}: no documented operation`];
		const { operation } = match;
		const statuses = this.seen.get(operation.operationId) ?? new Set<number>();
		statuses.add(res.status);
		this.seen.set(operation.operationId, statuses);
		const response = this.response(operation, res.status);
		if (!response) return [`${where}: ${operation.operationId} documents no ${res.status} response`];
		if (res.body.length === 0) return [];
		const mediaType = (res.contentType ?? "").split(";")[0].trim().toLowerCase();
		const content = response.content ?? {};
		if (!content[mediaType]) return [`${where}: media type ${mediaType || "(none)"} is not documented (documented: ${Object.keys(content).join(", ") || "no body"})`];
		if (mediaType !== "application/json") return [];
		const schema = content[mediaType].schema;
		if (!schema) return [];
		let parsed: unknown;
		try {
			parsed = JSON.parse(res.body);
		} catch {
			return [`${where}: body is not JSON`];
		}
		const validate = this.validator(`${operation.operationId}:${res.status}:${mediaType}`, schema);
		if (validate(parsed)) return [];
		return (validate.errors ?? []).map(e => `${where}: ${e.instancePath || "(body)"} ${e.message ?? "is invalid"} ${JSON.stringify(e.params)}`);
	}
}

/** Performs a request and returns what the checker needs, plus the parsed parts. */
export async function liveRequest(
	baseUrl: string,
	method: string,
	path: string,
	init: { headers?: Record<string, string>; body?: string } = {}
): Promise<LiveResponse & { headers: Headers }> {
	const res = await fetch(baseUrl + path, { method, headers: init.headers, body: init.body });
	const body = await res.text();
	return { method, path: path.split("?")[0], status: res.status, contentType: res.headers.get("content-type"), body, headers: res.headers };
}
