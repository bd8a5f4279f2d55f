/**
 * Validates messages the tool server emits against the published MCP JSON Schema of the protocol
 * revision in use (`test/fixtures/mcp-schema-<rev>.json`, copied from the published schema).
 *
 *   assertValidMcpMessage("2025-06-18", body, "ListToolsResult");
 *
 * Two deliberate differences from validating against the raw schema:
 *
 * 1. The published definitions leave objects open so that newer fields pass old validators. That
 *    would let us send `outputSchema` or `structuredContent` to a 2024-11-05 client unnoticed, so
 *    the definitions we emit (listed in CLOSED_DEFINITIONS) are closed here: a field the revision
 *    does not define fails. Open-by-design parts (`Result`, `_meta`, `ServerCapabilities`, the JSON
 *    Schemas inside a tool) stay open.
 * 2. These revisions type `id` as string | integer, while JSON-RPC 2.0 (and SPEC §2.9) require
 *    `id: null` when the request's id could not be read. Such an error response is accepted only
 *    for -32700 and -32600, with the error object checked against the revision's definition.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv, { ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/** Copies of the published schemas, kept in the repository so the tests stand alone. */
export const MCP_REFERENCE_DIR = path.resolve(__dirname, "../fixtures");

export type McpResultDefinition = "InitializeResult" | "ListToolsResult" | "CallToolResult" | "EmptyResult";

const CLOSED_DEFINITIONS = [
	"JSONRPCResponse",
	"JSONRPCError",
	"InitializeResult",
	"Implementation",
	"ListToolsResult",
	"Tool",
	"ToolAnnotations",
	"CallToolResult",
	"TextContent"
];

type Schema = Record<string, unknown> & { definitions: Record<string, Record<string, unknown>> };

interface VersionValidators {
	get(definition: string): ValidateFunction;
	nullIdError: ValidateFunction;
	hasBatchResponse: boolean;
}

const cache = new Map<string, VersionValidators>();

function loadSchema(version: string): Schema {
	const file = path.join(MCP_REFERENCE_DIR, `mcp-schema-${version}.json`);
	if (!fs.existsSync(file)) throw new Error(`No MCP schema for revision ${version} at ${file}`);
	const schema = JSON.parse(fs.readFileSync(file, "utf8")) as Schema;
	for (const name of CLOSED_DEFINITIONS) {
		const definition = schema.definitions[name];
		if (definition && definition.additionalProperties === undefined) definition.additionalProperties = false;
	}
	const errorObject = schema.definitions.JSONRPCError?.properties as Record<string, Record<string, unknown>> | undefined;
	if (errorObject?.error && errorObject.error.additionalProperties === undefined) errorObject.error.additionalProperties = false;
	return schema;
}

function validatorsFor(version: string): VersionValidators {
	const cached = cache.get(version);
	if (cached) return cached;
	const schema = loadSchema(version);
	const key = `mcp-${version}`;
	const ajv = new Ajv({ allErrors: true, strict: false });
	addFormats(ajv);
	ajv.addSchema({ ...schema, $id: key });
	const compiled = new Map<string, ValidateFunction>();
	const validators: VersionValidators = {
		get(definition) {
			if (!schema.definitions[definition]) throw new Error(`Revision ${version} has no definition ${definition}`);
			let validate = compiled.get(definition);
			if (!validate) {
				validate = ajv.compile({ $ref: `${key}#/definitions/${definition}` });
				compiled.set(definition, validate);
			}
			return validate;
		},
		nullIdError: ajv.compile({
			type: "object",
			required: ["jsonrpc", "id", "error"],
			additionalProperties: false,
			properties: {
				jsonrpc: { const: "2.0" },
				id: { type: "null" },
				error: { $ref: `${key}#/definitions/JSONRPCError/properties/error` }
			}
		}),
		hasBatchResponse: Boolean(schema.definitions.JSONRPCBatchResponse)
	};
	cache.set(version, validators);
	return validators;
}

function check(validate: ValidateFunction, value: unknown, label: string): string[] {
	if (validate(value)) return [];
	return (validate.errors ?? []).map(error => `${label}${error.instancePath || "/"} ${error.message ?? "invalid"} ${JSON.stringify(error.params)}`);
}

function inferResultDefinition(result: Record<string, unknown>): McpResultDefinition {
	if ("protocolVersion" in result) return "InitializeResult";
	if ("tools" in result) return "ListToolsResult";
	if ("content" in result) return "CallToolResult";
	return "EmptyResult";
}

function singleMessageErrors(validators: VersionValidators, message: unknown, expected: McpResultDefinition | undefined, label: string): string[] {
	if (typeof message !== "object" || message === null || Array.isArray(message)) return [`${label} is not a JSON object`];
	const record = message as Record<string, unknown>;
	if ("error" in record) {
		if (record.id === null) {
			const code = (record.error as { code?: unknown } | undefined)?.code;
			const problems = check(validators.nullIdError, record, label);
			if (code !== -32700 && code !== -32600) problems.push(`${label} has id null with error code ${String(code)} (only -32700 and -32600 may)`);
			return problems;
		}
		return check(validators.get("JSONRPCError"), record, label);
	}
	const problems = check(validators.get("JSONRPCResponse"), record, label);
	if (problems.length > 0) return problems;
	const result = record.result as Record<string, unknown>;
	return check(validators.get(expected ?? inferResultDefinition(result)), result, `${label}.result`);
}

/**
 * Problems of a response (or batch of responses) under `version`; empty when valid. `expected`
 * names the result definition of a success response; without it the definition is inferred from
 * the result's fields (for batches mixing several kinds).
 */
export function mcpMessageErrors(version: string, message: unknown, expected?: McpResultDefinition): string[] {
	const validators = validatorsFor(version);
	if (!Array.isArray(message)) return singleMessageErrors(validators, message, expected, "message");
	if (message.length === 0) return ["an empty array is not a batch response"];
	// 2025-06-18 dropped batches from its schema, so each element is checked on its own; 2025-03-26
	// also defines the batch as a whole.
	const problems = message.flatMap((element, index) => singleMessageErrors(validators, element, expected, `message[${index}]`));
	if (validators.hasBatchResponse && message.every(element => (element as { id?: unknown })?.id !== null)) {
		problems.push(...check(validators.get("JSONRPCBatchResponse"), message, "batch"));
	}
	return problems;
}

/** Throws, listing every problem, when `message` is not a valid MCP response under `version`. */
export function assertValidMcpMessage(version: string, message: unknown, expected?: McpResultDefinition): void {
	const problems = mcpMessageErrors(version, message, expected);
	if (problems.length > 0) {
		throw new Error(`Invalid MCP ${version} message:\n  ${problems.join("\n  ")}\n${JSON.stringify(message, null, 2).slice(0, 4000)}`);
	}
}
