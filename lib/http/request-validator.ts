/**
 * Validates request bodies and path parameters against the route table's JSON Schemas (the same
 * schemas the OpenAPI document publishes), answering field-level detail for the Error body.
 */
import Ajv2020, { ErrorObject, ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { appError, ErrorCode } from "../errors";
import { SCHEMAS } from "./schemas";
import type { JsonSchema, RouteDef } from "./routes/types";

export interface RouteValidator {
	/** Throws a `validation_failed` error naming every bad field. */
	validate(input: { body: unknown; pathParams: Record<string, unknown> }): void;
}

function fieldName(error: ErrorObject, prefix: string): string {
	const missing = error.keyword === "required" ? (error.params as { missingProperty?: string }).missingProperty : undefined;
	const pointer = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
	const parts = [prefix, pointer, missing].filter(Boolean);
	return parts.join(".") || prefix || "body";
}

function describe(error: ErrorObject, field: string): string {
	switch (error.keyword) {
		case "required":
			return `'${field}' is required.`;
		case "additionalProperties":
			return `'${(error.params as { additionalProperty: string }).additionalProperty}' is not an accepted field.`;
		case "format":
			return `'${field}' must be a valid ${(error.params as { format: string }).format}.`;
		case "enum":
			return `'${field}' must be one of: ${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(", ")}.`;
		default:
			return `'${field}' ${error.message ?? "is not valid"}.`;
	}
}

export function createValidatorFactory(): (route: RouteDef) => RouteValidator | undefined {
	const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
	addFormats(ajv);
	for (const [name, schema] of Object.entries(SCHEMAS)) ajv.addSchema(schema, `#/components/schemas/${name}`);

	const compile = (schema: JsonSchema): ValidateFunction => ajv.compile(schema);

	return route => {
		const bodySchema = route.body && route.body.kind !== "raw" ? route.body.schema : undefined;
		const pathParams = (route.params ?? []).filter(p => p.in === "path");
		if (!bodySchema && pathParams.length === 0) return undefined;

		const validateBody = bodySchema ? compile(bodySchema) : undefined;
		const bodyRequired = route.body?.kind === "json" ? route.body.required : false;
		const validateParams = pathParams.length
			? compile({
					type: "object",
					required: pathParams.map(p => p.name),
					properties: Object.fromEntries(pathParams.map(p => [p.name, p.schema]))
				})
			: undefined;

		return {
			validate({ body, pathParams: params }) {
				const fields: Array<{ field: string; message: string }> = [];
				if (validateParams && !validateParams(params)) {
					for (const e of validateParams.errors ?? []) {
						const field = fieldName(e, "");
						fields.push({ field, message: describe(e, field) });
					}
				}
				const effectiveBody = body === undefined && !bodyRequired ? {} : body;
				if (validateBody && !validateBody(effectiveBody)) {
					for (const e of validateBody.errors ?? []) {
						const field = fieldName(e, "");
						fields.push({ field: field || "body", message: e.instancePath === "" && e.keyword === "type" ? "The body must be a JSON object." : describe(e, field) });
					}
				}
				// A length limit that is a product cap (marked `x-cap-code`) is a 422 with that code, not a 400.
				const capError = (validateBody?.errors ?? []).find(e => e.keyword === "maxLength" && typeof (e.parentSchema as JsonSchema | undefined)?.["x-cap-code"] === "string");
				if (capError) {
					const code = (capError.parentSchema as JsonSchema)["x-cap-code"] as ErrorCode;
					throw appError(code, `'${fieldName(capError, "")}' is longer than ${(capError.params as { limit: number }).limit} characters.`);
				}
				if (fields.length) {
					throw appError("validation_failed", "The request parameters are not valid.", {
						detail: fields.map(f => f.message).join(" "),
						fields
					});
				}
			}
		};
	};
}
