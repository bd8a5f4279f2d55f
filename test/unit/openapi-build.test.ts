import { validateOpenApi } from "../helpers/openapi-validate";
import { buildOpenApi } from "../../lib/openapi/build";
import { ROUTES } from "../../lib/http/routes";
import { SCHEMAS } from "../../lib/http/schemas";

describe("buildOpenApi", () => {
	const doc = buildOpenApi(ROUTES, SCHEMAS, "https://svc.example");

	it("is a valid OpenAPI 3.1 document", async () => {
		const result = await validateOpenApi(doc);
		expect(result.errors).toEqual([]);
		expect(result.valid).toBe(true);
		expect(result.version).toBe("3.1");
	});

	it("documents every documented route under its operationId, and nothing else", () => {
		const ops: string[] = [];
		for (const methods of Object.values(doc.paths)) for (const op of Object.values(methods)) ops.push((op as { operationId: string }).operationId);
		expect(ops.sort()).toEqual(ROUTES.filter(r => r.documented).map(r => r.operationId).sort());
	});

	it("puts the rate-limit headers and a 429 on rate-limited operations only", () => {
		const create = doc.paths["/api/tools/sessions"].post as { responses: Record<string, { headers?: Record<string, unknown>; $ref?: string }> };
		expect(Object.keys(create.responses["200"].headers ?? {})).toEqual(expect.arrayContaining(["RateLimit-Limit", "RateLimit-Policy", "API-Version", "Link"]));
		expect(create.responses["429"]).toBeDefined();
		const health = doc.paths["/v2/health"].get as { responses: Record<string, { headers?: Record<string, unknown> }> };
		expect(Object.keys(health.responses["200"].headers ?? {})).not.toContain("RateLimit-Limit");
	});
});
