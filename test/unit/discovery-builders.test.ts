/**
 * The pure discovery builders on tables the real app does not have (yet): inbound webhooks,
 * scheduled deprecations, no contact address, and the conditional-GET rule.
 */
import { buildApiIndex, callableRoutes } from "../../lib/discovery/api-index";
import { conditionalReply, DOCUMENT_CACHE_CONTROL } from "../../lib/discovery/conditional";
import { openApiYaml, renderDocument } from "../../lib/discovery/documents";
import { mcpManifest } from "../../lib/discovery/mcp-manifests";
import { siteReply } from "../../lib/discovery/site-replies";
import { strongEtag } from "../../lib/http/etag";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import { ROUTES } from "../../lib/http/routes";
import type { RouteDef } from "../../lib/http/routes/types";
import { SCHEMAS } from "../../lib/http/schemas";
import { LATEST_PROTOCOL_VERSION } from "../../lib/mcp/protocol";
import { toolsForVersion } from "../../lib/mcp/tools";
import { buildOpenApi } from "../../lib/openapi/build";
import { parse as parseYaml } from "yaml";

const BASE = "https://bots.example.test";

const route = (path: string, operationId: string, documented = true): RouteDef => ({
	operationId,
	method: "POST",
	path,
	summary: operationId,
	tags: ["Test"],
	action: "x.y",
	responses: { "204": { description: "ok" } },
	documented
});

const sources = (routes: readonly RouteDef[], extra: Partial<Parameters<typeof buildApiIndex>[0]> = {}) => ({
	publicUrl: BASE,
	routes,
	ratePolicies: Object.values(RATE_POLICIES),
	deprecations: [],
	demoTtlHours: 72,
	...extra
});

describe("the API index", () => {
	it("lists documented routes but never inbound webhooks or undocumented pages", () => {
		const routes = [route("/api/things", "createThing"), route("/webhooks/billing", "billingWebhook"), route("/webhooks/chat/{chatbot_id}", "chatWebhook"), route("/page", "page", false)];
		expect(callableRoutes(routes).map(r => r.operationId)).toEqual(["createThing"]);
		expect(buildApiIndex(sources(routes)).endpoints).toEqual([{ path: "/api/things", method: "POST", operation_id: "createThing", summary: "createThing", tags: ["Test"] }]);
	});

	it("reports a scheduled deprecation with ISO instants, and omits the contact when there is none", () => {
		const index = buildApiIndex(
			sources(ROUTES, {
				deprecations: [{ pathPrefix: "/v1", deprecatedAt: new Date(Date.UTC(2027, 0, 1)), sunsetAt: new Date(Date.UTC(2027, 6, 1)), successor: `${BASE}/v2` }]
			})
		);
		expect(index.versioning.deprecations).toEqual([{ path_prefix: "/v1", deprecated_at: "2027-01-01T00:00:00.000Z", sunset_at: "2027-07-01T00:00:00.000Z", successor: `${BASE}/v2` }]);
		expect("contact_email" in index).toBe(false);
		expect(buildApiIndex(sources(ROUTES, { contactEmail: "a@b.example" })).contact_email).toBe("a@b.example");
	});

	it("quotes the configured demo lifetime in its terms", () => {
		expect(buildApiIndex(sources(ROUTES, { demoTtlHours: 24 })).terms_of_service).toContain("24 hours");
	});
});

describe("documents", () => {
	it("the YAML form parses to the JSON document, with no YAML aliases", () => {
		const doc = buildOpenApi(ROUTES, SCHEMAS, BASE);
		const yaml = openApiYaml(doc);
		expect(yaml).not.toMatch(/^\s*[^#\n]*: [*&]\w/m);
		expect(parseYaml(yaml)).toEqual(JSON.parse(JSON.stringify(doc)));
	});

	it("the MCP manifest carries the anonymous tools of the newest revision", () => {
		expect(mcpManifest(BASE).tools).toEqual(toolsForVersion(LATEST_PROTOCOL_VERSION, { authenticated: false }));
		expect(mcpManifest(BASE).tools.map(t => t.name)).not.toContain("list_chatbots");
	});

	it("every document names its media type", () => {
		const src = { ...sources(ROUTES), schemas: SCHEMAS };
		expect(renderDocument("openApiYaml", src).contentType).toBe("application/yaml");
		expect(renderDocument("sitemap", src).contentType).toBe("application/xml; charset=utf-8");
		expect(renderDocument("llmsTxt", src).contentType).toBe("text/plain; charset=utf-8");
		expect(renderDocument("apiIndex", src).body.endsWith("}\n")).toBe(true);
	});
});

describe("conditional replies", () => {
	const rep = { body: "hello", contentType: "text/plain; charset=utf-8", headers: { Vary: "Accept" } };

	it("200 with the strong tag of the body, or 304 without a body that keeps the validators", () => {
		const full = conditionalReply(rep, undefined);
		expect(full).toEqual({ status: 200, body: "hello", contentType: rep.contentType, headers: { ETag: strongEtag("hello"), "Cache-Control": DOCUMENT_CACHE_CONTROL, Vary: "Accept" } });
		expect(conditionalReply(rep, full.headers.ETag)).toEqual({ status: 304, headers: full.headers });
		expect(conditionalReply(rep, '"something-else"').status).toBe(200);
	});
});

describe("site replies", () => {
	it("a .md path reaching the page route is served as the source (moleculer-web tries the page alias first)", () => {
		const result = siteReply({ path: "/docs/api/add-url.md", accept: "text/html", ifNoneMatch: undefined, publicUrl: BASE });
		expect(result.kind).toBe("reply");
		if (result.kind === "reply") expect(result.reply.contentType).toBe("text/plain; charset=utf-8");
	});

	it("an unknown page asks the gateway for its JSON 404 only when the client wants JSON", () => {
		expect(siteReply({ path: "/docs/api/nope", accept: "application/json", ifNoneMatch: undefined, publicUrl: BASE })).toEqual({ kind: "json-not-found", path: "/docs/api/nope" });
		const md = siteReply({ path: "/docs/api/nope", accept: undefined, ifNoneMatch: undefined, publicUrl: BASE });
		expect(md.kind === "reply" && md.reply.status === 404 && md.reply.contentType).toBe("text/markdown; charset=utf-8");
	});
});
