/**
 * The discovery documents of SPEC §4.3 and the Markdown sources of the documentation: all GET, no
 * key, each with a strong ETag and a 304 for a matching If-None-Match. Answered by the `discovery`
 * service; `lib/discovery` builds the bodies.
 */
import type { ParamDef, ResponseDef, RouteDef } from "./types";
import { ref } from "./types";
import { json } from "./responses";

const CACHE_HEADERS = ["ETag", "Cache-Control"];

const ok = (description: string, content: ResponseDef["content"]): ResponseDef => ({ description, content, headers: CACHE_HEADERS });
const notModified: ResponseDef = {
	description: "`If-None-Match` named the current ETag: the copy the client holds is current. No body.",
	headers: CACHE_HEADERS
};
const plain = (description: string) => ({ type: "string", description });

const base = { method: "GET" as const, tags: ["Discovery"], documented: true };

function document(operationId: string, path: string, summary: string, description: string, action: string, body: ResponseDef): RouteDef {
	return { ...base, operationId, path, summary, description, action: `discovery.${action}`, responses: { "200": body, "304": notModified } };
}

/** Path parameters of a documentation page. Loose on purpose: a malformed name is a page that does not exist (404), not a 400. */
export const DOC_PAGE_PARAMS: ParamDef[] = [
	{ name: "category", in: "path", required: true, description: "Documentation category, e.g. `api`, `mcp`, `reference`.", schema: { type: "string", minLength: 1 } },
	{ name: "slug", in: "path", required: true, description: "Page name inside the category, e.g. `add-url`.", schema: { type: "string", minLength: 1 } }
];

const docNotFound: ResponseDef = {
	description:
		"No such page in any language. Like every unknown path outside the JSON surfaces, the body follows `Accept`: the Error body for `application/json`, a designed HTML page for browsers, otherwise a short Markdown document pointing at the sitemap and the docs index.",
	content: { "application/json": ref("Error"), "text/markdown": plain("Where to look instead."), "text/html": plain("The designed 404 page.") },
	headers: ["Vary", "Cache-Control"]
};

/**
 * moleculer-web orders aliases so that `/docs/:category/:slug` is tried before
 * `/docs/:category/:slug.md`, and its `:slug` also matches `add-url.md`. The page action therefore
 * recognises the `.md` suffix itself (it parses the whole path with `parseSitePath`), so the source
 * is served whichever alias matches; this route documents the operation and serves it if the
 * order ever changes.
 */
function markdownSource(operationId: string, prefix: string, language: string, action: string): RouteDef {
	return {
		...base,
		operationId,
		path: `${prefix}/docs/{category}/{slug}.md`,
		summary: `A documentation page as Markdown (${language})`,
		description:
			"The Markdown source of one documentation page with its front matter stripped, as `text/plain`. " +
			(prefix ? "Pages not translated yet answer with the English text. " : "") +
			"Every page of `/docs` has one; `/llms.txt` lists them all.",
		action: `discovery.${action}`,
		params: DOC_PAGE_PARAMS,
		responses: {
			"200": ok("The page source.", { "text/plain": plain("Markdown.") }),
			"304": notModified,
			"404": docNotFound
		}
	};
}

export const discoveryRoutes: RouteDef[] = [
	document(
		"getApiIndex",
		"/api",
		"API index",
		"The starting point for programs: every callable endpoint, rate-limit policies and header names, the error format, versioning and deprecations, authentication and the MCP tool server.",
		"apiIndex",
		ok("The API index.", json("ApiIndex"))
	),
	document(
		"getOpenApiDocument",
		"/openapi.json",
		"OpenAPI document (JSON)",
		"This OpenAPI 3.1 document, built per request from the same route and schema definitions the service runs on.",
		"openApiJson",
		ok("The OpenAPI 3.1 document.", { "application/json": { type: "object", description: "An OpenAPI 3.1 document." } })
	),
	document(
		"getOpenApiDocumentAsYaml",
		"/openapi.yaml",
		"OpenAPI document (YAML)",
		"The same document as `/openapi.json`, serialized as YAML.",
		"openApiYaml",
		ok("The OpenAPI 3.1 document as YAML.", { "application/yaml": plain("YAML.") })
	),
	document(
		"getMcpManifest",
		"/.well-known/mcp.json",
		"MCP manifest",
		"The tool server and the tools an anonymous caller gets, exactly as `tools/list` returns them at the newest protocol revision.",
		"mcpManifest",
		ok("The MCP manifest.", json("McpManifest"))
	),
	document(
		"getMcpServerCard",
		"/.well-known/mcp/server-card.json",
		"MCP server card",
		"Server identity, transport and capabilities (SEP-1649 shape), without a tool list.",
		"mcpServerCard",
		ok("The server card.", json("McpServerCard"))
	),
	document(
		"getMcpEndpointManifest",
		"/.well-known/mcp",
		"MCP endpoint manifest",
		"Where the tool server answers, its transport, capabilities and authentication (SEP-1960 shape).",
		"mcpEndpointManifest",
		ok("The endpoint manifest.", json("McpEndpointManifest"))
	),
	document(
		"getLlmsTxt",
		"/llms.txt",
		"Site index for language models",
		"The llmstxt.org index: a summary, then sections of links to the Markdown source of every documentation page and to the machine documents.",
		"llmsTxt",
		ok("The index.", { "text/plain": plain("Markdown in the llms.txt format.") })
	),
	document(
		"getLlmsFullTxt",
		"/llms-full.txt",
		"The whole documentation as one text",
		"Every English documentation page, concatenated, each headed by its source URL.",
		"llmsFullTxt",
		ok("The documentation.", { "text/plain": plain("Markdown.") })
	),
	document(
		"getSitemap",
		"/sitemap.xml",
		"Sitemap",
		"Every page of the site in English and Spanish, each with its `hreflang` alternates and `x-default`.",
		"sitemap",
		ok("The sitemap.", { "application/xml": plain("A sitemaps.org urlset with xhtml:link alternates.") })
	),
	markdownSource("getDocPageAsMarkdown", "", "English", "docSource.en"),
	markdownSource("getSpanishDocPageAsMarkdown", "/es", "Spanish", "docSource.es")
];
