/**
 * Every discovery document of SPEC §4.3 by name, as the exact bytes served. Each is rebuilt from
 * the live tables on every call (route table, schemas, policies, tools, docs catalog), so nothing
 * can go stale between a change and what a client reads.
 */
import { stringify as toYaml } from "yaml";
import type { RatePolicy } from "../http/rate-policies";
import type { JsonSchema, RouteDef } from "../http/routes/types";
import type { DeprecationEntry } from "../http/versioning";
import { buildOpenApi, OpenApiDocument } from "../openapi/build";
import type { DocsCatalog } from "../site/docs-catalog";
import { llmsFullTxt, llmsTxt } from "../site/llms-txt";
import { sitemapXml } from "../site/sitemap";
import { buildApiIndex } from "./api-index";
import { jsonRepresentation, Representation } from "./conditional";
import { mcpEndpointManifest, mcpManifest, mcpServerCard } from "./mcp-manifests";

export const DOCUMENT_NAMES = [
	"apiIndex",
	"openApiJson",
	"openApiYaml",
	"mcpManifest",
	"mcpServerCard",
	"mcpEndpointManifest",
	"llmsTxt",
	"llmsFullTxt",
	"sitemap"
] as const;
export type DocumentName = (typeof DOCUMENT_NAMES)[number];

/** What the documents are built from; the service passes the live tables. */
export interface DocumentSources {
	publicUrl: string;
	routes: readonly RouteDef[];
	schemas: Record<string, JsonSchema>;
	ratePolicies: readonly RatePolicy[];
	deprecations: readonly DeprecationEntry[];
	demoTtlHours: number;
	contactEmail?: string;
	catalog?: DocsCatalog;
}

export function openApiDocument(src: DocumentSources): OpenApiDocument {
	return buildOpenApi(src.routes, src.schemas, src.publicUrl, { contactEmail: src.contactEmail });
}

/**
 * The YAML twin of the JSON document. `lineWidth: 0` keeps long descriptions on one line and
 * `aliasDuplicateObjects: false` writes repeated sub-objects out in full instead of as YAML anchors,
 * so a reader without alias support still parses the same document.
 */
export function openApiYaml(doc: OpenApiDocument): string {
	return toYaml(doc, { lineWidth: 0, aliasDuplicateObjects: false });
}

const text = (body: string, type: string): Representation => ({ body, contentType: `${type}; charset=utf-8` });

export function renderDocument(name: DocumentName, src: DocumentSources): Representation {
	switch (name) {
		case "apiIndex":
			return jsonRepresentation(buildApiIndex(src));
		case "openApiJson":
			return jsonRepresentation(openApiDocument(src));
		case "openApiYaml":
			// RFC 9512 defines no charset parameter for application/yaml: YAML is UTF-8 here.
			return { body: openApiYaml(openApiDocument(src)), contentType: "application/yaml" };
		case "mcpManifest":
			return jsonRepresentation(mcpManifest(src.publicUrl));
		case "mcpServerCard":
			return jsonRepresentation(mcpServerCard(src.publicUrl));
		case "mcpEndpointManifest":
			return jsonRepresentation(mcpEndpointManifest(src.publicUrl));
		case "llmsTxt":
			return text(llmsTxt(src.publicUrl, src.catalog), "text/plain");
		case "llmsFullTxt":
			return text(llmsFullTxt(src.publicUrl, src.catalog), "text/plain");
		case "sitemap":
			return text(sitemapXml(src.publicUrl, src.catalog), "application/xml");
	}
}
