/**
 * Validates HTTP requests and responses against an OpenAPI 3.0 document, for contract tests of
 * clients whose server cannot run here (Qdrant).
 *
 * A request must match a path template and a method of the document; its path parameters, query
 * parameters and JSON body are validated with ajv against the operation's schemas, `$ref`s
 * resolving into `components`. Responses are validated against the schema of their status code
 * (or `4XX` / `default`), so the emulation answering the client stays honest too.
 *
 * Two deliberate readings of the document:
 * - OpenAPI 3.0's `{ "nullable": true }` without a `type` (Qdrant's `anyOf: [X, {nullable: true}]`)
 *   means "null" here. Read literally it is an empty schema that accepts anything, which would
 *   make every such `anyOf` accept anything.
 * - Objects that list `properties` and say nothing about `additionalProperties` are closed: an
 *   unknown field fails. Qdrant silently ignores most unknown fields, so a misspelt option (say
 *   `is_tenent`) would otherwise pass the contract and do nothing in production.
 */
import Ajv, { ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Parameter {
	name: string;
	in: "path" | "query" | "header" | "cookie";
	required?: boolean;
	schema?: JsonObject;
}

interface Operation {
	operationId?: string;
	parameters?: Parameter[];
	requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonObject }> };
	responses?: Record<string, { content?: Record<string, { schema?: JsonObject }> }>;
}

export interface OpenApiDocument {
	openapi: string;
	paths: Record<string, Record<string, Operation>>;
	components?: { schemas?: Record<string, JsonObject> };
}

export interface MatchedOperation {
	method: string;
	template: string;
	operationId: string;
	operation: Operation;
	pathParams: Record<string, string>;
}

export interface RequestCheck {
	match?: MatchedOperation;
	/** Parsed JSON body, when there was one. */
	body?: unknown;
	errors: string[];
}

const DOCUMENT_ID = "openapi.json";
const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];
const NULLABLE_SIBLINGS = new Set(["nullable", "description", "default", "example"]);

/** Applies the two readings described in the file comment, on a deep copy. */
function tighten(node: Json): Json {
	if (Array.isArray(node)) return node.map(tighten);
	if (node === null || typeof node !== "object") return node;
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(node)) out[key] = tighten(value);
	if (out.nullable === true && out.type === undefined && Object.keys(out).every(k => NULLABLE_SIBLINGS.has(k))) {
		return { type: "null" };
	}
	const isObjectSchema = out.type === "object" && out.properties !== undefined && typeof out.properties === "object";
	if (isObjectSchema && out.additionalProperties === undefined && !out.anyOf && !out.oneOf && !out.allOf) {
		out.additionalProperties = false;
	}
	return out;
}

/** Rewrites local refs of operation-level schemas so they resolve inside the registered document. */
function anchorRefs(node: Json): Json {
	if (Array.isArray(node)) return node.map(anchorRefs);
	if (node === null || typeof node !== "object") return node;
	const out: JsonObject = {};
	for (const [key, value] of Object.entries(node)) {
		out[key] = key === "$ref" && typeof value === "string" && value.startsWith("#/") ? `${DOCUMENT_ID}${value}` : anchorRefs(value);
	}
	return out;
}

function integerFormat(min: number, max: number) {
	return { type: "number" as const, validate: (n: number) => Number.isInteger(n) && n >= min && n <= max };
}

function createAjv(): Ajv {
	const ajv = new Ajv({ strict: false, allErrors: true });
	addFormats(ajv);
	ajv.addFormat("uint", integerFormat(0, Number.MAX_SAFE_INTEGER));
	ajv.addFormat("uint8", integerFormat(0, 0xff));
	ajv.addFormat("uint32", integerFormat(0, 0xffffffff));
	ajv.addFormat("uint64", integerFormat(0, Number.MAX_SAFE_INTEGER));
	ajv.addFormat("int64", integerFormat(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER));
	ajv.addFormat("float", { type: "number", validate: (n: number) => Number.isFinite(n) });
	ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
	ajv.addFormat("partial-date-time", /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?/);
	ajv.addFormat("binary", true);
	return ajv;
}

/** Converts a query or path string to the type its schema expects, so the schema can judge it. */
function coerce(raw: string, schema: JsonObject | undefined): unknown {
	const type = schema?.type;
	if (type === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
	if ((type === "integer" || type === "number") && raw.trim() !== "" && !Number.isNaN(Number(raw))) return Number(raw);
	return raw;
}

export class OpenApiContract {
	private readonly ajv = createAjv();
	private readonly validators = new Map<string, ValidateFunction>();
	private readonly templates: Array<{ template: string; segments: string[]; literals: number }>;

	constructor(private readonly document: OpenApiDocument) {
		if (!document.openapi?.startsWith("3.0")) throw new Error(`Expected an OpenAPI 3.0 document, got ${document.openapi}`);
		this.ajv.addSchema(tighten(document as unknown as Json) as object, DOCUMENT_ID);
		this.templates = Object.keys(document.paths).map(template => {
			const segments = template.split("/").slice(1);
			return { template, segments, literals: segments.filter(s => !s.startsWith("{")).length };
		});
	}

	private validator(key: string, schema: JsonObject): ValidateFunction {
		let validate = this.validators.get(key);
		if (!validate) {
			validate = this.ajv.compile(anchorRefs(tighten(schema)) as object);
			this.validators.set(key, validate);
		}
		return validate;
	}

	private check(key: string, schema: JsonObject, value: unknown, where: string): string[] {
		const validate = this.validator(key, schema);
		if (validate(value)) return [];
		return (validate.errors ?? []).map(e => `${where}${e.instancePath} ${e.message ?? "is invalid"}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
	}

	/** The operation for a method and path; literal segments win over templated ones (`/points/query` over `/points/{id}`). */
	match(method: string, pathname: string): MatchedOperation | undefined {
		const segments = pathname.split("/").slice(1).map(decodeURIComponent);
		const candidates = this.templates
			.filter(t => t.segments.length === segments.length)
			.filter(t => t.segments.every((s, i) => s.startsWith("{") || s === segments[i]))
			.sort((a, b) => b.literals - a.literals);
		for (const candidate of candidates) {
			const operation = this.document.paths[candidate.template][method.toLowerCase()];
			if (!operation || !HTTP_METHODS.includes(method.toLowerCase())) continue;
			const pathParams: Record<string, string> = {};
			candidate.segments.forEach((s, i) => {
				if (s.startsWith("{")) pathParams[s.slice(1, -1)] = segments[i];
			});
			return { method: method.toUpperCase(), template: candidate.template, operationId: operation.operationId ?? candidate.template, operation, pathParams };
		}
		return undefined;
	}

	/** Validates a whole request; `errors` is empty when the document allows it. */
	checkRequest(method: string, url: URL, contentType: string | undefined, rawBody: string): RequestCheck {
		const match = this.match(method, url.pathname);
		if (!match) return { errors: [`${method} ${url.pathname} matches no operation of the document`] };
		const errors: string[] = [];
		const parameters = match.operation.parameters ?? [];
		for (const param of parameters.filter(p => p.in === "path")) {
			const raw = match.pathParams[param.name];
			if (raw === undefined) errors.push(`path parameter ${param.name} is missing`);
			else if (param.schema) errors.push(...this.check(`${match.operationId}:path:${param.name}`, param.schema, coerce(raw, param.schema), `path.${param.name}`));
		}
		const query = parameters.filter(p => p.in === "query");
		for (const name of new Set(url.searchParams.keys())) {
			const param = query.find(p => p.name === name);
			if (!param) {
				errors.push(`query parameter ${name} is not defined for ${match.operationId}`);
				continue;
			}
			const values = url.searchParams.getAll(name);
			if (values.length > 1) errors.push(`query parameter ${name} is repeated`);
			if (param.schema) errors.push(...this.check(`${match.operationId}:query:${name}`, param.schema, coerce(values[0], param.schema), `query.${name}`));
		}
		for (const param of query) if (param.required && !url.searchParams.has(param.name)) errors.push(`query parameter ${param.name} is required`);

		const bodySpec = match.operation.requestBody;
		const schema = bodySpec?.content?.["application/json"]?.schema;
		let body: unknown;
		if (rawBody.length > 0) {
			if (!bodySpec) errors.push(`${match.operationId} takes no request body`);
			else if (!contentType?.toLowerCase().startsWith("application/json")) errors.push(`content-type ${contentType ?? "(none)"} is not application/json`);
			try {
				body = JSON.parse(rawBody);
			} catch {
				errors.push("request body is not valid JSON");
			}
			if (schema && body !== undefined) errors.push(...this.check(`${match.operationId}:body`, schema, body, "body"));
		} else if (bodySpec?.required) {
			errors.push(`${match.operationId} requires a request body`);
		}
		return { match, body, errors };
	}

	/** Validates a JSON response body for the operation and status. */
	checkResponse(match: MatchedOperation, status: number, body: unknown): string[] {
		const responses = match.operation.responses ?? {};
		const documented = [String(status), `${String(status)[0]}XX`, "default"].find(code => responses[code] !== undefined);
		if (!documented) return [`${match.operationId} documents no response for status ${status}`];
		const schema = responses[documented].content?.["application/json"]?.schema;
		if (!schema) return [];
		const key = `${match.operationId}:response:${documented}`;
		return this.check(key, schema, body, `response ${status}`);
	}
}
