/**
 * The discovery documents through the running app: the API index lists exactly the callable routes
 * with every field of SPEC §2.8 and every URL in it answers; the MCP descriptors agree with what the
 * live tool server says in `initialize` and `tools/list`; every document has a strong ETag of its
 * exact bytes and answers a matching If-None-Match with a bodiless 304.
 */
import { createHash } from "node:crypto";
import { API_KEY_PREFIX } from "../../lib/accounts/api-keys";
import { SCHEMAS } from "../../lib/http/schemas";
import { RATE_LIMIT_HEADERS, RATE_POLICIES } from "../../lib/http/rate-policies";
import { ROUTES } from "../../lib/http/routes";
import { discoveryRoutes } from "../../lib/http/routes/discovery";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_VERSIONS } from "../../lib/mcp/protocol";
import { startApp, TestApp } from "../helpers/app";

let app: TestApp;
let ip = 0;
const nextIp = () => `192.0.2.${++ip % 250}`;

async function get(url: string, headers: Record<string, string> = {}) {
	const res = await fetch(url, { headers: { "X-Forwarded-For": nextIp(), ...headers } });
	return { res, status: res.status, text: await res.text() };
}

async function getJson<T>(path: string): Promise<T> {
	const { status, text } = await get(app.baseUrl + path);
	expect([path, status]).toEqual([path, 200]);
	return JSON.parse(text) as T;
}

async function rpc(url: string, method: string, params: Record<string, unknown> = {}) {
	const res = await fetch(url, {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": LATEST_PROTOCOL_VERSION, "X-Forwarded-For": nextIp() },
		body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
	});
	expect(res.status).toBe(200);
	const body = (await res.json()) as { result: Record<string, unknown> };
	return body.result;
}

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,discovery,mcp,chatbots,demo-session", CONTACT_EMAIL: "developers@example.com" } });
});
afterAll(() => app.stop());

interface ApiIndexBody {
	[field: string]: unknown;
	endpoints: Array<{ path: string; method: string; operation_id: string; summary: string; tags: string[] }>;
	rate_limits: { description: string; headers: string[]; policies: Array<{ name: string; scope: string; limit: number; window_seconds: number }> };
	versioning: { scheme: string; current: string; major: number; policy_url: string; deprecations: unknown[]; deprecation_headers: string[] };
	authentication: { type: string; required: boolean; description: string; instructions_url: string; token_prefix: string };
	errors: { description: string; media_type: string; schema_url: string; example: Record<string, unknown> };
	mcp: { url: string; transport: string; protocol_versions: string[]; manifest_url: string; server_card_url: string };
}

describe("GET /api", () => {
	let index: ApiIndexBody;
	beforeAll(async () => {
		index = await getJson<ApiIndexBody>("/api");
	});

	it("carries every required and optional field of SPEC §2.8", () => {
		const declared = Object.keys((SCHEMAS.ApiIndex as { properties: Record<string, unknown> }).properties);
		for (const field of ["name", "version", "documentation_url", "openapi_url", "versioning", "rate_limits", "errors", "endpoints"]) expect(declared).toContain(field);
		for (const field of ["authentication", "description", "mcp", "contact_email", "openapi_yaml_url", "status_url", "terms_of_service"]) expect(declared).toContain(field);
		expect(Object.keys(index).sort()).toEqual([...declared].sort());
		expect(index.version).toBe("1.0.0");
		expect(index.contact_email).toBe("developers@example.com");
		expect(index.openapi_url).toBe(`${app.baseUrl}/openapi.json`);
		expect(index.openapi_yaml_url).toBe(`${app.baseUrl}/openapi.yaml`);
	});

	it("lists exactly the documented routes of the gateway's table, never an inbound webhook", () => {
		const expected = ROUTES.filter(r => r.documented && !r.path.startsWith("/webhooks/")).map(r => ({
			path: r.path,
			method: r.method,
			operation_id: r.operationId,
			summary: r.summary,
			tags: r.tags
		}));
		expect(index.endpoints).toEqual(expected);
		expect(index.endpoints.filter(e => e.path.startsWith("/webhooks"))).toEqual([]);
		const ids = index.endpoints.map(e => e.operation_id);
		for (const id of ["getApiIndex", "getOpenApiDocument", "getMcpManifest", "getDocPageAsMarkdown", "createDemoSession", "trainDemoSession", "getHealth"]) expect(ids).toContain(id);
	});

	it("leads to every operation's description in the OpenAPI document", async () => {
		const doc = await getJson<{ paths: Record<string, Record<string, { operationId: string }>> }>(new URL(index.openapi_url as string).pathname);
		for (const e of index.endpoints) {
			expect([e.operation_id, doc.paths[e.path]?.[e.method.toLowerCase()]?.operationId]).toEqual([e.operation_id, e.operation_id]);
		}
	});

	it("reports the rate-limit policies and headers the gateway enforces", () => {
		expect(index.rate_limits.headers).toEqual([...RATE_LIMIT_HEADERS]);
		expect(index.rate_limits.policies).toEqual(
			Object.values(RATE_POLICIES).map(p => ({ name: p.name, scope: p.scope, limit: p.limit, window_seconds: p.windowSeconds }))
		);
		expect(index.rate_limits.policies.find(p => p.name === "demo-api")).toMatchObject({ limit: 30, window_seconds: 60 });
	});

	it("reports url-path versioning with nothing scheduled for removal, and its policy is the Link header's", async () => {
		expect(index.versioning).toEqual({
			scheme: "url-path",
			current: "1.0.0",
			major: 1,
			policy_url: `${app.baseUrl}/docs/reference/versioning`,
			deprecations: [],
			deprecation_headers: ["Deprecation", "Sunset", "Link"]
		});
		const { res } = await get(`${app.baseUrl}/api`);
		expect(res.headers.get("link")).toContain(`<${index.versioning.policy_url}>; rel="deprecation-policy"`);
		expect(res.headers.get("deprecation")).toBeNull();
	});

	it("says a key is optional and names its prefix", () => {
		expect(index.authentication).toMatchObject({ type: "bearer", required: false, token_prefix: API_KEY_PREFIX });
		expect(API_KEY_PREFIX).toBe("cbk_live_");
	});

	it("points at the Error schema and shows a real error body", async () => {
		expect(index.errors.media_type).toBe("application/json");
		const [docUrl, fragment] = index.errors.schema_url.split("#");
		const doc = await getJson<Record<string, unknown>>(new URL(docUrl).pathname);
		const target = fragment
			.split("/")
			.filter(Boolean)
			.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], doc);
		expect(target).toEqual(SCHEMAS.Error);
		// The example is what the gateway really renders for that code.
		const live = await get(`${app.baseUrl}/api/tools/sessions/no-such-session`);
		expect(live.status).toBe(404);
		expect(Object.keys(JSON.parse(live.text)).sort()).toEqual(Object.keys(index.errors.example).sort());
		expect(index.errors.example).toMatchObject({ ok: false, code: "expired", status: 404, documentation_url: `${app.baseUrl}/docs/reference/errors#expired` });
	});

	it("describes the tool server", () => {
		expect(index.mcp).toEqual({
			url: `${app.baseUrl}/mcp`,
			transport: "streamable-http",
			protocol_versions: [...SUPPORTED_VERSIONS],
			manifest_url: `${app.baseUrl}/.well-known/mcp.json`,
			server_card_url: `${app.baseUrl}/.well-known/mcp/server-card.json`
		});
	});

	it("every URL it gives answers 200", async () => {
		const urls = [
			index.documentation_url,
			index.openapi_url,
			index.openapi_yaml_url,
			index.status_url,
			index.versioning.policy_url,
			index.authentication.instructions_url,
			index.errors.schema_url.split("#")[0],
			index.mcp.manifest_url,
			index.mcp.server_card_url
		] as string[];
		for (const url of urls) {
			expect(url.startsWith(`${app.baseUrl}/`)).toBe(true);
			expect([url, (await get(url)).status]).toEqual([url, 200]);
		}
	});
});

describe("the MCP descriptors", () => {
	interface Manifest {
		name: string;
		version: string;
		transport: string;
		url: string;
		protocolVersions: string[];
		authentication: { type: string; required: boolean; token_prefix: string };
		tools: Array<{ name: string }>;
	}

	it("/.well-known/mcp.json lists exactly what tools/list returns to an anonymous caller at its URL", async () => {
		const manifest = await getJson<Manifest>("/.well-known/mcp.json");
		expect(manifest).toMatchObject({ transport: "streamable-http", url: `${app.baseUrl}/mcp`, protocolVersions: [...SUPPORTED_VERSIONS] });
		expect(manifest.authentication).toMatchObject({ type: "bearer", required: false, token_prefix: API_KEY_PREFIX });
		const listed = await rpc(manifest.url, "tools/list");
		expect(manifest.tools).toEqual(listed.tools);
		expect(manifest.tools.map(t => t.name)).toEqual(["create_chatbot", "get_chatbot", "add_knowledge_url", "add_knowledge_text", "add_qa"]);
		const init = await rpc(manifest.url, "initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "discovery-test", version: "1" } });
		expect((init.serverInfo as { name: string }).name).toBe(manifest.name);
		expect((init.serverInfo as { version: string }).version).toBe(manifest.version);
	});

	it("the server card (SEP-1649) names the server initialize names, with no tool list", async () => {
		const card = await getJson<{
			version: string;
			protocolVersion: string;
			serverInfo: { name: string; title: string; version: string; homepage: string };
			transport: { type: string; url: string };
			capabilities: Record<string, boolean>;
			tools?: unknown;
		}>("/.well-known/mcp/server-card.json");
		expect(card.tools).toBeUndefined();
		expect(card.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
		expect(card.transport).toEqual({ type: "streamable-http", url: `${app.baseUrl}/mcp` });
		expect(card.capabilities).toEqual({ tools: true, resources: false, prompts: false });
		const init = await rpc(card.transport.url, "initialize", { protocolVersion: card.protocolVersion, capabilities: {}, clientInfo: { name: "discovery-test", version: "1" } });
		expect(init.protocolVersion).toBe(card.protocolVersion);
		expect(init.serverInfo).toMatchObject({ name: card.serverInfo.name, title: card.serverInfo.title, version: card.serverInfo.version });
		expect((init.capabilities as Record<string, unknown>).tools).toBeDefined();
		expect((await get(card.serverInfo.homepage)).status).toBe(200);
	});

	it("the endpoint manifest (SEP-1960) targets the newest revision and an endpoint that answers", async () => {
		const manifest = await getJson<{ mcp_version: string; endpoints: Array<{ url: string; transport: string; capabilities: string[]; auth: { type: string; required: boolean } }> }>(
			"/.well-known/mcp"
		);
		expect(manifest.mcp_version).toBe(LATEST_PROTOCOL_VERSION);
		expect(manifest.endpoints).toHaveLength(1);
		const [endpoint] = manifest.endpoints;
		expect(endpoint).toMatchObject({ url: `${app.baseUrl}/mcp`, transport: "streamable-http", capabilities: ["tools"], auth: { type: "bearer", required: false } });
		expect(await rpc(endpoint.url, "ping")).toEqual({});
	});
});

describe("conditional requests", () => {
	const documents = discoveryRoutes.filter(r => !r.path.includes("{")).map(r => r.path);
	const sha = (body: Buffer) => `"${createHash("sha256").update(body).digest("base64url")}"`;

	it("covers every discovery document of SPEC §4.3", () => {
		expect(documents.sort()).toEqual(
			["/api", "/openapi.json", "/openapi.yaml", "/.well-known/mcp.json", "/.well-known/mcp/server-card.json", "/.well-known/mcp", "/llms.txt", "/llms-full.txt", "/sitemap.xml"].sort()
		);
	});

	it.each([...documents, "/docs/api/add-url.md", "/es/docs/reference/errors.md"])("%s: strong ETag of the exact bytes; If-None-Match gets a bodiless 304", async path => {
		const first = await fetch(app.baseUrl + path);
		const bytes = Buffer.from(await first.arrayBuffer());
		expect(first.status).toBe(200);
		const etag = first.headers.get("etag") as string;
		expect(etag).toBe(sha(bytes));
		expect(first.headers.get("cache-control")).toBe("public, max-age=300");

		// Rebuilt per request, byte for byte the same.
		const second = await fetch(app.baseUrl + path);
		await second.arrayBuffer();
		expect(second.headers.get("etag")).toBe(etag);

		for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
			const cached = await fetch(app.baseUrl + path, { headers: { "If-None-Match": ifNoneMatch } });
			const body = await cached.arrayBuffer();
			expect([ifNoneMatch, cached.status, body.byteLength]).toEqual([ifNoneMatch, 304, 0]);
			expect(cached.headers.get("etag")).toBe(etag);
			expect(cached.headers.get("cache-control")).toBe("public, max-age=300");
			expect(cached.headers.get("api-version")).toBe("1.0.0");
			expect(cached.headers.get("link")).toContain('rel="service-desc"');
			expect(cached.headers.get("content-type")).toBeNull();
		}

		const stale = await fetch(app.baseUrl + path, { headers: { "If-None-Match": '"not-the-current-tag"' } });
		expect(stale.status).toBe(200);
		expect(Buffer.from(await stale.arrayBuffer()).equals(bytes)).toBe(true);
	});
});
