import type { Validator as ValidatorClass } from "@seriousme/openapi-schema-validator";
import { importEsm } from "./esm";

/** Validates a document with a real OpenAPI validator; returns its errors and detected version. */
export async function validateOpenApi(doc: unknown): Promise<{ valid: boolean; errors: unknown[]; version: string }> {
	const { Validator } = await importEsm<{ Validator: typeof ValidatorClass }>("@seriousme/openapi-schema-validator");
	const validator = new Validator();
	const result = await validator.validate(doc as Parameters<ValidatorClass["validate"]>[0]);
	return { valid: result.valid, errors: (result.errors as unknown[] | undefined) ?? [], version: validator.version };
}
