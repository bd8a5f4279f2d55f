/**
 * The OpenAPI document as the running service publishes it: valid OpenAPI 3.1 (a real validator),
 * the same document in JSON and YAML, in step with the gateway's routes both ways, and honest about
 * what the service answers — the demo and discovery calls are replayed against the real app and
 * every status, media type and JSON body is checked against the operation's documented responses.
 */
import { parse as parseYaml } from "yaml";
import { ROUTES } from "../../lib/http/routes";
import { discoveryRoutes } from "../../lib/http/routes/discovery";
import { startApp, TestApp } from "../helpers/app";
import { validateOpenApi } from "../helpers/openapi-validate";
import { LiveOpenApiChecker, liveRequest, OpenApi31 } from "../helpers/openapi31-responses";

let app: TestApp;
let doc: OpenApi31;
let ip = 0;
const nextIp = () => `198.51.100.${++ip % 250}`;

const HTTP_METHODS = ["get", "post", "put", "patch", "delete"];

beforeAll(async () => {
	// Every service, so that every route of the table has its action behind it.
	app = await startApp({ env: { TRUST_PROXY: "1", CONTACT_EMAIL: "developers@example.com" } });
	const res = await fetch(`${app.baseUrl}/openapi.json`);
	expect(res.status).toBe(200);
	doc = (await res.json()) as OpenApi31;
});
afterAll(() => app.stop());

describe("the live OpenAPI document", () => {
	it("is a valid OpenAPI 3.1 document", async () => {
		const result = await validateOpenApi(doc);
		expect(result.errors).toEqual([]);
		expect(result.valid).toBe(true);
		expect(result.version).toBe("3.1");
	});

	it("names the running service as its server and publishes the contact email", () => {
		const full = doc as unknown as { servers: Array<{ url: string }>; info: { contact: { email?: string } } };
		expect(full.servers).toEqual([{ url: app.baseUrl }]);
		expect(full.info.contact.email).toBe("developers@example.com");
	});

	it("is the same document as /openapi.yaml", async () => {
		const res = await fetch(`${app.baseUrl}/openapi.yaml`);
		expect(res.status).toBe(200);
		expect(res.headers.get("content-type")).toBe("application/yaml");
		const text = await res.text();
		expect(text.startsWith("openapi: 3.1.0\n")).toBe(true);
		expect(parseYaml(text)).toEqual(doc);
	});

	it("leaves no $ref dangling", () => {
		const refs = new Set<string>();
		const walk = (node: unknown): void => {
			if (Array.isArray(node)) node.forEach(walk);
			else if (node && typeof node === "object") {
				for (const [key, value] of Object.entries(node)) {
					if (key === "$ref" && typeof value === "string") refs.add(value);
					else walk(value);
				}
			}
		};
		walk(doc);
		expect(refs.size).toBeGreaterThan(10);
		for (const ref of refs) {
			const target = ref
				.replace(/^#\//, "")
				.split("/")
				.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
			expect([ref, target !== undefined]).toEqual([ref, true]);
		}
	});
});

describe("the document and the gateway's routes agree", () => {
	const aliasKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`;

	function gatewayAliases(): Set<string> {
		const gateway = app.broker.getLocalService("gateway") as unknown as { aliases: Array<{ method: string; fullPath: string }> };
		return new Set(gateway.aliases.map(a => `${a.method} ${a.fullPath}`));
	}

	function documentedOperations(): Array<{ method: string; path: string; operationId: string }> {
		const ops: Array<{ method: string; path: string; operationId: string }> = [];
		for (const [path, item] of Object.entries(doc.paths)) {
			for (const method of HTTP_METHODS) {
				const op = item[method];
				if (op) ops.push({ method: method.toUpperCase(), path, operationId: op.operationId });
			}
		}
		return ops;
	}

	it("documents every documented route of the table under its operationId, and nothing else", () => {
		const documented = ROUTES.filter(r => r.documented).map(r => `${r.operationId} ${r.method} ${r.path}`);
		const inDocument = documentedOperations().map(o => `${o.operationId} ${o.method} ${o.path}`);
		expect(inDocument.sort()).toEqual(documented.sort());
		// The discovery operations of SPEC §4.3 are among them.
		for (const id of ["getApiIndex", "getOpenApiDocument", "getOpenApiDocumentAsYaml", "getMcpManifest", "getMcpServerCard", "getMcpEndpointManifest", "getLlmsTxt", "getLlmsFullTxt", "getSitemap", "getDocPageAsMarkdown", "getHealth"]) {
			expect(inDocument.some(o => o.startsWith(`${id} `))).toBe(true);
		}
	});

	it("every documented operation is a route the gateway registered", () => {
		const aliases = gatewayAliases();
		const missing = documentedOperations().filter(o => !aliases.has(aliasKey(o.method, o.path)));
		expect(missing).toEqual([]);
	});

	it("every route of the table is registered, and the gateway serves nothing outside the table", () => {
		const aliases = gatewayAliases();
		const table = new Set(ROUTES.map(r => aliasKey(r.method, r.path)));
		expect(ROUTES.filter(r => !aliases.has(aliasKey(r.method, r.path))).map(r => r.operationId)).toEqual([]);
		expect([...aliases].filter(a => !table.has(a))).toEqual([]);
	});

	it("every action a route names exists on the broker", () => {
		const actions = new Set(app.broker.registry.getActionList({}).map(a => a.name));
		const named = ROUTES.filter(r => r.action).map(r => r.action as string);
		expect(named.length).toBeGreaterThan(20);
		expect(named.filter(a => !actions.has(a))).toEqual([]);
	});

	it("every documented GET without parameters answers, and not with the gateway's 404", async () => {
		const plain = documentedOperations().filter(o => o.method === "GET" && !o.path.includes("{") && o.path !== "/mcp");
		expect(plain.length).toBeGreaterThanOrEqual(10);
		for (const op of plain) {
			const res = await fetch(app.baseUrl + op.path, { headers: { "X-Forwarded-For": nextIp() } });
			await res.arrayBuffer();
			expect([op.path, res.status]).toEqual([op.path, 200]);
		}
	});
});

describe("live responses match their documented responses", () => {
	let checker: LiveOpenApiChecker;
	const problems: string[] = [];

	beforeAll(() => {
		checker = new LiveOpenApiChecker(doc);
	});

	async function call(method: string, path: string, init: { json?: unknown; raw?: string; headers?: Record<string, string> } = {}) {
		const headers: Record<string, string> = { "X-Forwarded-For": nextIp(), ...init.headers };
		let body: string | undefined;
		if (init.json !== undefined || init.raw !== undefined) {
			headers["Content-Type"] = "application/json";
			body = init.raw ?? JSON.stringify(init.json);
		}
		const res = await liveRequest(app.baseUrl, method, path, { headers, body });
		problems.push(...checker.check(res));
		return res;
	}

	it("the demo flow and its errors", async () => {
		const created = await call("POST", "/api/tools/sessions", { json: { locale: "en" } });
		expect(created.status).toBe(200);
		const sessionId = (JSON.parse(created.body) as { demo: { session_id: string } }).demo.session_id;
		const session = `/api/tools/sessions/${sessionId}`;

		expect((await call("POST", "/api/tools/sessions")).status).toBe(200);
		expect((await call("GET", session)).status).toBe(200);
		const added = await call("POST", `${session}/texts`, { json: { text: "The shop opens at nine and closes at six, Monday to Saturday." } });
		expect(added.status).toBe(200);
		expect((JSON.parse(added.body) as { demo: { sources: { texts: unknown[] } } }).demo.sources.texts).toHaveLength(1);
		expect((await call("GET", session)).status).toBe(200);
		const upload = await call("POST", `${session}/uploads`, { json: { filename: "notes.txt", content_type: "text/plain", size: 20 } });
		expect(upload.status).toBe(200);

		// Errors: unknown session, the character cap, a malformed body, a missing field, a refused file type.
		expect(JSON.parse((await call("GET", "/api/tools/sessions/no-such-session")).body)).toMatchObject({ code: "expired", status: 404 });
		expect(JSON.parse((await call("POST", "/api/tools/sessions/no-such-session/texts", { json: { text: "x" } })).body)).toMatchObject({ code: "expired" });
		expect(JSON.parse((await call("POST", `${session}/texts`, { json: { text: "x".repeat(50_001) } })).body)).toMatchObject({ code: "char_cap", status: 422 });
		expect(JSON.parse((await call("POST", `${session}/texts`, { raw: "{not json" })).body)).toMatchObject({ status: 400 });
		expect(JSON.parse((await call("POST", `${session}/texts`, { json: {} })).body)).toMatchObject({ code: "validation_failed", status: 400 });
		expect(JSON.parse((await call("POST", `${session}/uploads`, { json: { filename: "a.exe", content_type: "application/x-msdownload" } })).body)).toMatchObject({ status: 422 });
	});

	it("the health check in both representations", async () => {
		expect((await call("GET", "/v2/health")).status).toBe(200);
		expect((await call("GET", "/v2/health", { headers: { Accept: "application/json" } })).status).toBe(200);
	});

	it("every discovery document, its 304, and the Markdown sources with their 404s", async () => {
		for (const route of discoveryRoutes.filter(r => !r.path.includes("{"))) {
			const first = await call("GET", route.path);
			expect([route.path, first.status]).toEqual([route.path, 200]);
			const again = await call("GET", route.path, { headers: { "If-None-Match": first.headers.get("etag") as string } });
			expect([route.path, again.status]).toEqual([route.path, 304]);
		}
		for (const prefix of ["", "/es"]) {
			const source = await call("GET", `${prefix}/docs/reference/errors.md`);
			expect(source.status).toBe(200);
			expect((await call("GET", `${prefix}/docs/reference/errors.md`, { headers: { "If-None-Match": source.headers.get("etag") as string } })).status).toBe(304);
			for (const accept of [undefined, "application/json", "text/html,application/xhtml+xml,*/*;q=0.8"]) {
				const missing = await call("GET", `${prefix}/docs/reference/no-such-page.md`, { headers: accept ? { Accept: accept } : {} });
				expect(missing.status).toBe(404);
			}
		}
	});

	afterAll(() => {
		// Reported once, with every problem, after all replays ran.
		expect(problems).toEqual([]);
	});

	it("covered the operations it meant to", () => {
		const covered = [...checker.seen.keys()];
		expect(covered).toEqual(
			expect.arrayContaining([
				"createDemoSession",
				"getDemoSession",
				"addDemoSessionText",
				"createDemoSessionUpload",
				"getHealth",
				"getApiIndex",
				"getOpenApiDocument",
				"getOpenApiDocumentAsYaml",
				"getMcpManifest",
				"getMcpServerCard",
				"getMcpEndpointManifest",
				"getLlmsTxt",
				"getLlmsFullTxt",
				"getSitemap",
				"getDocPageAsMarkdown",
				"getSpanishDocPageAsMarkdown"
			])
		);
		expect([...(checker.seen.get("getDocPageAsMarkdown") ?? [])].sort()).toEqual([200, 304, 404]);
		expect(problems).toEqual([]);
	});
});
