/**
 * Checks tool arguments against each tool's `inputSchema` and tool results against its
 * `outputSchema`, with validators compiled once per process.
 */
import Ajv, { ErrorObject, ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { TOOL_DEFINITIONS, ToolName } from "./tools";

export interface FieldProblem {
	/** Argument path with dots (`website_url`, `pages.found`); empty for the object itself. */
	field: string;
	message: string;
}

export type ValidationOutcome<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

interface CompiledTool {
	input: ValidateFunction;
	output: ValidateFunction;
}

let compiled: Map<ToolName, CompiledTool> | undefined;

function validators(): Map<ToolName, CompiledTool> {
	if (compiled) return compiled;
	// useDefaults fills `language: "en"` so the service receives complete arguments.
	const inputAjv = new Ajv({ allErrors: true, strict: true, useDefaults: true });
	const outputAjv = new Ajv({ allErrors: true, strict: true });
	addFormats(inputAjv);
	addFormats(outputAjv);
	compiled = new Map(
		TOOL_DEFINITIONS.map(tool => [tool.name, { input: inputAjv.compile(tool.inputSchema), output: outputAjv.compile(tool.outputSchema) }])
	);
	return compiled;
}

function fieldOf(error: ErrorObject): string {
	const path = error.instancePath.replace(/^\//, "").split("/").filter(Boolean).join(".");
	const params = error.params as { missingProperty?: string; additionalProperty?: string };
	const child = params.missingProperty ?? params.additionalProperty;
	return [path, child].filter(Boolean).join(".");
}

function describe(error: ErrorObject, field: string): string {
	const params = error.params as { allowedValues?: unknown[]; format?: string; limit?: number };
	const name = field || "arguments";
	switch (error.keyword) {
		case "required":
			return `${name} is required.`;
		case "additionalProperties":
			return `${name} is not an accepted argument.`;
		case "enum":
			return `${name} must be one of: ${(params.allowedValues ?? []).join(", ")}.`;
		case "format":
			return `${name} must be a valid ${params.format}.`;
		case "pattern":
			return field.endsWith("url") ? `${name} must start with http:// or https://.` : `${name} has characters that are not allowed.`;
		case "maxLength":
			return `${name} must have at most ${params.limit} characters.`;
		case "minLength":
			return `${name} must not be empty.`;
		default:
			return `${name} ${error.message ?? "is not valid"}.`;
	}
}

function problemsOf(errors: ErrorObject[] | null | undefined): FieldProblem[] {
	const problems = (errors ?? []).map(error => {
		const field = fieldOf(error);
		return { field, message: describe(error, field) };
	});
	// allErrors can report one field twice (format and pattern of a bad URL); keep the first.
	return problems.filter((problem, index) => problems.findIndex(other => other.field === problem.field) === index);
}

/**
 * Validates (and completes with defaults) a copy of `args`. Every tool's arguments are flat (a test
 * holds the schemas to that), so the defaults land on the top level and a shallow copy keeps the
 * caller's object as it was, for a fraction of a deep copy's cost.
 */
export function validateToolArguments(name: ToolName, args: Record<string, unknown>): ValidationOutcome<Record<string, unknown>> {
	const tool = validators().get(name);
	if (!tool) return { ok: false, problems: [{ field: "", message: "Unknown tool." }] };
	const copy: Record<string, unknown> = { ...args };
	return tool.input(copy) ? { ok: true, value: copy } : { ok: false, problems: problemsOf(tool.input.errors) };
}

/** Checks a success result against the tool's `outputSchema`. */
export function validateToolOutput(name: ToolName, data: unknown): ValidationOutcome<Record<string, unknown>> {
	const tool = validators().get(name);
	if (!tool) return { ok: false, problems: [{ field: "", message: "Unknown tool." }] };
	if (!tool.output(data)) return { ok: false, problems: problemsOf(tool.output.errors) };
	return { ok: true, value: data as Record<string, unknown> };
}
