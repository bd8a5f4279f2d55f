/**
 * The tool server's transport rules over real HTTP (SPEC §4.2, §5, §7.3, §8.1): status codes,
 * headers, batches, every JSON-RPC error code, keys, Origin, sizes, media types and the rate
 * budgets. Every JSON-RPC message the server emits is validated against the published MCP schema of
 * the revision in use (test/helpers/mcp-http.ts). The app runs with TRUST_PROXY=1 and each test
 * uses its own client IP, so per-IP budgets do not mix.
 */
import * as http from "node:http";
import { gunzipSync } from "node:zlib";
import type { ServiceSchema } from "moleculer";
import { API_KEY_PREFIX } from "../../lib/accounts/api-keys";
import type { Chatbot } from "../../lib/chatbots/model";
import { SANDBOX_CHATBOT_LIMITS } from "../../lib/accounts/chatbot-limits";
import { startApp, TestApp } from "../helpers/app";
import { callTool, createApiKey, mcpPost, nextIp, rawRequest, signUp } from "../helpers/mcp-http";
import { assertValidMcpMessage } from "../helpers/mcp-schema";

let app: TestApp;

const initialize = (id: number, protocolVersion: string) => ({
	jsonrpc: "2.0",
	id,
	method: "initialize",
	params: { protocolVersion, capabilities: {}, clientInfo: { name: "transport-test", version: "1.0.0" } }
});

async function sandbox(): Promise<Chatbot> {
	return app.broker.call<Chatbot, object>("chatbots.create", { kind: "sandbox", locale: "en", name: "example.org", limits: SANDBOX_CHATBOT_LIMITS, ttl_ms: 86_400_000 });
}

beforeAll(async () => {
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts,mcp,storage", MCP_ALLOWED_ORIGINS: "https://agent.example" },
		gateway: { ratePolicies: { "mcp-create-chatbot": { name: "mcp-create-chatbot", scope: "tools/call create_chatbot", limit: 2, windowSeconds: 600 } } }
	});
});
afterAll(() => app.stop());

describe("POST /mcp: answers", () => {
	it("initialize answers the requested revision when supported, else the newest", async () => {
		for (const [asked, answered] of [
			["2025-06-18", "2025-06-18"],
			["2025-03-26", "2025-03-26"],
			["2024-11-05", "2024-11-05"],
			["2099-01-01", "2025-06-18"]
		]) {
			const reply = await mcpPost(app.baseUrl, initialize(1, asked), { version: null });
			expect(reply.status).toBe(200);
			expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
			assertValidMcpMessage(answered, reply.body, "InitializeResult");
			expect(reply.body).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: answered, capabilities: { tools: {} } } });
		}
	});

	it("a notification gets 202 with an empty body; so does a batch of only notifications", async () => {
		const single = await mcpPost(app.baseUrl, { jsonrpc: "2.0", method: "notifications/initialized" });
		expect(single.status).toBe(202);
		expect(single.text).toBe("");
		const batch = await mcpPost(app.baseUrl, [
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3 } }
		]);
		expect(batch.status).toBe(202);
		expect(batch.text).toBe("");
	});

	it("a batch is answered with an array of the responses to its requests, in order", async () => {
		const reply = await mcpPost(app.baseUrl, [
			initialize(1, "2025-06-18"),
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", id: "two", method: "ping" },
			{ jsonrpc: "2.0", id: 3, method: "tools/list" },
			{ jsonrpc: "2.0", id: 4, method: "resources/list" }
		]);
		expect(reply.status).toBe(200);
		const body = reply.body as Array<{ id: unknown; result?: Record<string, unknown>; error?: { code: number } }>;
		expect(body.map(r => r.id)).toEqual([1, "two", 3, 4]);
		expect(body[1].result).toEqual({});
		expect((body[2].result?.tools as unknown[]).length).toBe(5);
		expect(body[3].error?.code).toBe(-32601);
	});

	it("tools/list has the anonymous tools in each revision's shape; list_chatbots only with a key", async () => {
		const newest = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/list" });
		const tools = (newest.body as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
		expect(tools.map(t => t.name)).toEqual(["create_chatbot", "get_chatbot", "add_knowledge_url", "add_knowledge_text", "add_qa"]);
		for (const tool of tools) {
			expect(tool).toEqual(expect.objectContaining({ title: expect.any(String), inputSchema: expect.any(Object), outputSchema: expect.any(Object), annotations: expect.any(Object) }));
		}
		// No header: the oldest revision applies, whose Tool has no title, outputSchema or annotations.
		const oldest = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { version: null });
		const oldTools = (oldest.body as { result: { tools: Array<Record<string, unknown>> } }).result.tools;
		expect(Object.keys(oldTools[0]).sort()).toEqual(["description", "inputSchema", "name"]);
		assertValidMcpMessage("2024-11-05", oldest.body, "ListToolsResult");

		const { cookie } = await signUp(app.baseUrl, "lister@example.com");
		const key = await createApiKey(app.baseUrl, cookie);
		const keyed = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { key });
		expect((keyed.body as { result: { tools: Array<{ name: string }> } }).result.tools.map(t => t.name)).toContain("list_chatbots");
	});

	it("sends tools/list gzip-compressed to a client that accepts it, the same JSON as to one that does not", async () => {
		// node:http, not fetch: fetch asks for gzip by itself and hides what came over the wire.
		const post = (message: object, acceptEncoding?: string) =>
			new Promise<{ headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
				const headers: Record<string, string> = { "Content-Type": "application/json", "MCP-Protocol-Version": "2025-06-18", "X-Forwarded-For": nextIp() };
				if (acceptEncoding !== undefined) headers["Accept-Encoding"] = acceptEncoding;
				const req = http.request(`${app.baseUrl}/mcp`, { method: "POST", headers }, res => {
					const chunks: Buffer[] = [];
					res.on("data", (chunk: Buffer) => chunks.push(chunk));
					res.on("end", () => (res.statusCode === 200 ? resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }) : reject(new Error(`status ${res.statusCode}`))));
				});
				req.on("error", reject);
				req.end(JSON.stringify(message));
			});
		const list = { jsonrpc: "2.0", id: "list-7", method: "tools/list" };
		const zipped = await post(list, "br, gzip, deflate");
		expect(zipped.headers["content-encoding"]).toBe("gzip");
		expect(zipped.headers.vary).toBe("Accept-Encoding");
		expect(Number(zipped.headers["content-length"])).toBe(zipped.bytes.length);
		const plain = await post(list);
		expect(plain.headers["content-encoding"]).toBeUndefined();
		expect(plain.headers.vary).toBe("Accept-Encoding");
		const unzipped = JSON.parse(gunzipSync(zipped.bytes).toString("utf8"));
		expect(unzipped).toEqual(JSON.parse(plain.bytes.toString("utf8")));
		assertValidMcpMessage("2025-06-18", unzipped, "ListToolsResult");
		expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 5);
		// Refused by weight, or not offered: the plain text.
		expect((await post(list, "gzip;q=0, deflate")).headers["content-encoding"]).toBeUndefined();
		expect((await post(list, "identity")).headers["content-encoding"]).toBeUndefined();
		// A short answer is not worth compressing, and does not vary.
		const ping = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, "gzip");
		expect(ping.headers["content-encoding"]).toBeUndefined();
		expect(ping.headers.vary).toBeUndefined();
		expect(JSON.parse(ping.bytes.toString("utf8"))).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
	});

	it("accepts Mcp-Session-Id, ignores it, and never issues one", async () => {
		const reply = await mcpPost(app.baseUrl, initialize(1, "2025-06-18"), { headers: { "Mcp-Session-Id": "made-up-session" } });
		expect(reply.status).toBe(200);
		expect(reply.headers.get("mcp-session-id")).toBeNull();
		const later = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 2, method: "ping" }, { headers: { "Mcp-Session-Id": "another-one" } });
		expect(later.status).toBe(200);
	});
});

describe("POST /mcp: JSON-RPC errors", () => {
	const errorOf = (body: unknown) => (body as { error: { code: number; message: string; data?: Record<string, unknown> }; id: unknown });

	it("-32700 for a body that is not JSON, with id null", async () => {
		const reply = await mcpPost(app.baseUrl, '{"jsonrpc": "2.0", "id": 1, "method": ');
		expect(reply.status).toBe(200);
		expect(errorOf(reply.body)).toMatchObject({ id: null, error: { code: -32700 } });
	});

	it("-32600 for messages that are not JSON-RPC 2.0 requests, and for an empty batch", async () => {
		const wrongVersion = await mcpPost(app.baseUrl, { jsonrpc: "1.0", id: 5, method: "ping" });
		expect(errorOf(wrongVersion.body)).toMatchObject({ id: 5, error: { code: -32600 } });
		const empty = await mcpPost(app.baseUrl, []);
		expect(errorOf(empty.body)).toMatchObject({ id: null, error: { code: -32600 } });
		const batch = await mcpPost(app.baseUrl, [42, { jsonrpc: "2.0", id: 1, method: "ping" }]);
		expect((batch.body as Array<{ error?: { code: number }; result?: unknown }>).map(r => r.error?.code ?? "ok")).toEqual([-32600, "ok"]);
	});

	it("-32601 for an unknown method", async () => {
		const reply = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 9, method: "prompts/list" });
		expect(errorOf(reply.body)).toMatchObject({ id: 9, error: { code: -32601 } });
	});

	it("-32602 for an unknown tool, bad arguments, and list_chatbots without a key", async () => {
		const unknown = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "delete_everything", arguments: {} } });
		expect(errorOf(unknown.body).error.code).toBe(-32602);
		const badArgs = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "create_chatbot", arguments: { website_url: "ftp://example.com" } } });
		expect(errorOf(badArgs.body).error).toMatchObject({ code: -32602, data: { tool: "create_chatbot" } });
		const missing = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "add_qa", arguments: { chatbot_id: "abc", question: "Q?" } } });
		expect(errorOf(missing.body).error.message).toMatch(/answer is required/);
		const anonymousList = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "list_chatbots", arguments: {} } });
		expect(errorOf(anonymousList.body).error.code).toBe(-32602);
	});

	it("-32603 for a fault of ours, without leaking its details", async () => {
		const broken: ServiceSchema = {
			name: "chatbots",
			actions: {
				get() {
					throw new Error("connection to /srv/db/chatbots.db refused, password=hunter2");
				}
			}
		};
		const faulty = await startApp({ env: { SERVICES: "gateway,mcp" }, extraServices: [broken] });
		try {
			const reply = await mcpPost(faulty.baseUrl, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "get_chatbot", arguments: { chatbot_id: "abc" } } });
			expect(reply.status).toBe(200);
			expect(errorOf(reply.body)).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Internal error" } });
			expect(reply.text).not.toMatch(/hunter2|srv/);
		} finally {
			await faulty.stop();
		}
	});
});

describe("POST /mcp: transport refusals carry the Error body", () => {
	const errorBody = (reply: { body: unknown }) => reply.body as { ok: boolean; code: string; status: number; message: string; hint: string };

	it("GET (and DELETE) /mcp answer 405 with Allow: POST", async () => {
		for (const method of ["GET", "DELETE"]) {
			const reply = await rawRequest(`${app.baseUrl}/mcp`, { method, headers: { "MCP-Protocol-Version": "2025-06-18" } });
			expect(reply.status).toBe(405);
			expect(reply.headers.get("allow")).toBe("POST");
			expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
			expect(errorBody(reply)).toMatchObject({ ok: false, code: "method_not_allowed", status: 405 });
		}
	});

	it("400 for an unsupported MCP-Protocol-Version", async () => {
		const reply = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { version: "2023-01-01" });
		expect(reply.status).toBe(400);
		expect(errorBody(reply)).toMatchObject({ ok: false, code: "validation_failed", status: 400 });
		expect(errorBody(reply).hint).toMatch(/2025-06-18/);
	});

	it("401 with WWW-Authenticate for malformed, unknown and revoked keys, before any JSON-RPC handling", async () => {
		const { cookie } = await signUp(app.baseUrl, "revoker@example.com");
		const key = await createApiKey(app.baseUrl, cookie);
		expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
		const works = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { key });
		expect(works.status).toBe(200);

		const keys = await rawRequest(`${app.baseUrl}/account/api-keys`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: "{}" });
		const second = keys.body as { api_key: { id: string } };
		const revoked = await rawRequest(`${app.baseUrl}/account/api-keys/${second.api_key.id}/revoke`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: "{}" });
		expect(revoked.status).toBe(200);
		expect(revoked.body).toMatchObject({ ok: true, api_key: { id: second.api_key.id, revoked: true } });
		const revokedKey = (keys.body as { key: string }).key;

		for (const authorization of ["Bearer not-a-key", `Basic ${Buffer.from("a:b").toString("base64")}`, `Bearer ${API_KEY_PREFIX}${"A".repeat(32)}`, `Bearer ${revokedKey}`]) {
			// Not even valid JSON: the credential is refused first.
			const reply = await mcpPost(app.baseUrl, "{ not json", { headers: { Authorization: authorization } });
			expect(reply.status).toBe(401);
			expect(reply.headers.get("www-authenticate")).toMatch(/^Bearer realm="mcp", error="invalid_token"/);
			expect(errorBody(reply)).toMatchObject({ ok: false, code: "unauthorized", status: 401 });
		}
	});

	it("403 for a foreign Origin; the own origin and allowed origins pass; no Origin passes", async () => {
		const body = { jsonrpc: "2.0", id: 1, method: "ping" };
		const foreign = await mcpPost(app.baseUrl, body, { headers: { Origin: "http://evil.example" } });
		expect(foreign.status).toBe(403);
		expect(errorBody(foreign)).toMatchObject({ code: "forbidden" });
		const rebinding = await mcpPost(app.baseUrl, body, { headers: { Origin: "http://127.0.0.1.nip.io" } });
		expect(rebinding.status).toBe(403);
		for (const origin of [new URL(app.baseUrl).origin, "https://agent.example"]) {
			expect((await mcpPost(app.baseUrl, body, { headers: { Origin: origin } })).status).toBe(200);
		}
	});

	it("415 for a body that is not UTF-8 application/json", async () => {
		const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
		for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=iso-8859-1"]) {
			const reply = await mcpPost(app.baseUrl, body, { headers: { "Content-Type": contentType } });
			expect(reply.status).toBe(415);
			expect(errorBody(reply)).toMatchObject({ code: "unsupported_media_type" });
		}
		const latin1 = await rawRequest(`${app.baseUrl}/mcp`, {
			method: "POST",
			headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp() },
			body: Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"caf\xe9"}}', "latin1")
		});
		expect(latin1.status).toBe(415);
	});

	it("413 for a body over 1,000,000 bytes", async () => {
		const huge = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { padding: "x".repeat(1_000_100) } });
		const reply = await mcpPost(app.baseUrl, huge);
		expect(reply.status).toBe(413);
		expect(errorBody(reply)).toMatchObject({ code: "payload_too_large" });

		// Without a Content-Length (chunked), the limit holds while reading.
		const chunk = Buffer.alloc(100_000, "x");
		let sent = 0;
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent >= 1_200_000) return controller.close();
				sent += chunk.length;
				controller.enqueue(chunk);
			}
		});
		const chunked = await rawRequest(`${app.baseUrl}/mcp`, {
			method: "POST",
			headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp() },
			body: stream,
			duplex: "half"
		} as RequestInit);
		expect(chunked.status).toBe(413);
	});

	it("unknown paths under /mcp are JSON 404s", async () => {
		const reply = await rawRequest(`${app.baseUrl}/mcp/sse`, { method: "GET" });
		expect(reply.status).toBe(404);
		expect(errorBody(reply)).toMatchObject({ code: "not_found" });
	});
});

describe("POST /mcp: rate limits", () => {
	it("every answer carries the mcp policy's headers", async () => {
		const ip = nextIp();
		const first = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { ip });
		expect(first.headers.get("ratelimit-policy")).toBe('"mcp"; q=60; w=60');
		expect(first.headers.get("ratelimit-remaining")).toBe("59");
		const refused = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { ip, version: "1.0" });
		expect(refused.status).toBe(400);
		expect(refused.headers.get("ratelimit-remaining")).toBe("58");
	});

	it("create_chatbot has its own, tighter budget, charged per call in a batch", async () => {
		const ip = nextIp();
		const create = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "create_chatbot", arguments: { website_url: "http://127.0.0.1:9/" } } });
		// Two calls in one batch use the whole budget of 2 (the crawler is not running here, so each
		// reports `unavailable`, but the budget counts attempts).
		const batch = await mcpPost(app.baseUrl, [create(1), create(2)], { ip });
		expect(batch.status).toBe(200);
		expect(batch.headers.get("ratelimit-policy")).toBe('"mcp-create-chatbot"; q=2; w=600');
		expect(batch.headers.get("ratelimit-remaining")).toBe("0");
		const third = await mcpPost(app.baseUrl, create(3), { ip });
		expect(third.status).toBe(429);
		expect(third.body).toMatchObject({ ok: false, code: "rate_limited", status: 429 });
		expect(third.headers.get("retry-after")).toBe(third.headers.get("ratelimit-reset"));
		expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(500);
		// Other tools still work from the same address: only create_chatbot is over budget.
		const ping = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 4, method: "ping" }, { ip });
		expect(ping.status).toBe(200);
		expect(ping.headers.get("ratelimit-policy")).toBe('"mcp"; q=60; w=60');
	});
});

describe("tools: reach and business failures", () => {
	it("get_chatbot reports a sandbox with its limits, links and expiry", async () => {
		const chatbot = await sandbox();
		const result = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id });
		expect(result.isError).toBe(false);
		expect(result.structured).toEqual(result.data);
		expect(result.data).toMatchObject({
			chatbot_id: chatbot._id,
			sandbox: true,
			language: "en",
			chat_url: `${app.baseUrl}/c/${chatbot.slug}`,
			limits: { pages: 5, messages: 10, chars: 50_000 },
			usage: { chars_used: 0, messages_used: 0 }
		});
		expect(Date.parse(result.data?.expires_at as string)).toBe(chatbot.expires_at);
	});

	it("business failures are isError results, not JSON-RPC errors", async () => {
		const missing = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: "no-such-chatbot" });
		expect(missing).toMatchObject({ isError: true });
		expect(missing.text).toMatch(/^Error \(not_found\)/);

		const chatbot = await sandbox();
		const added = await callTool(app.baseUrl, "add_knowledge_text", { chatbot_id: chatbot._id, text: "a".repeat(30_000), title: "Part one" });
		expect(added.isError).toBe(false);
		expect(added.data).toMatchObject({ source: { type: "text", status: "ready", chars: 30_000, title: "Part one" }, chatbot: { usage: { chars_used: 30_000 } } });
		const over = await callTool(app.baseUrl, "add_knowledge_text", { chatbot_id: chatbot._id, text: "b".repeat(25_000) });
		expect(over.isError).toBe(true);
		expect(over.text).toMatch(/^Error \(char_cap\)/);
		const after = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id });
		expect(after.data).toMatchObject({ usage: { chars_used: 30_000 } });

		const blank = await callTool(app.baseUrl, "add_knowledge_text", { chatbot_id: chatbot._id, text: "   " });
		expect(blank.text).toMatch(/^Error \(empty\)/);
	});

	it("add_qa stores the pair and counts question plus answer", async () => {
		const chatbot = await sandbox();
		const result = await callTool(app.baseUrl, "add_qa", { chatbot_id: chatbot._id, question: "When are you open?", answer: "Monday to Friday, 9 to 5." });
		expect(result.data).toMatchObject({ source: { type: "qa", status: "ready", title: "When are you open?", chars: "When are you open?\nMonday to Friday, 9 to 5.".length } });
	});

	it("a call never reaches another account's chatbot or, anonymously, an account's", async () => {
		const a = await signUp(app.baseUrl, "owner-a@example.com");
		const b = await signUp(app.baseUrl, "owner-b@example.com");
		const keyA = await createApiKey(app.baseUrl, a.cookie);
		const keyB = await createApiKey(app.baseUrl, b.cookie);
		const owned = await app.broker.call<Chatbot, object>("chatbots.create", {
			kind: "account",
			locale: "en",
			name: "a.example",
			limits: SANDBOX_CHATBOT_LIMITS,
			account_id: a.account.id as string
		});
		const loose = await sandbox();

		expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: owned._id }, { key: keyA })).isError).toBe(false);
		for (const [id, key] of [
			[owned._id, keyB],
			[owned._id, undefined],
			[loose._id, keyA]
		] as const) {
			const result = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id }, { key });
			expect(result.text).toMatch(/^Error \(not_found\)/);
			const write = await callTool(app.baseUrl, "add_knowledge_text", { chatbot_id: id, text: "intrusion" }, { key });
			expect(write.text).toMatch(/^Error \(not_found\)/);
		}
		const { chatbot } = await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: owned._id });
		expect(chatbot.counts.chars).toBe(0);

		const listA = await callTool(app.baseUrl, "list_chatbots", {}, { key: keyA });
		expect(listA.data).toMatchObject({ count: 1, chatbots: [{ chatbot_id: owned._id }], plan: { id: "free", limits: { chatbots: 3 } } });
		const listB = await callTool(app.baseUrl, "list_chatbots", {}, { key: keyB });
		expect(listB.data).toMatchObject({ count: 0, chatbots: [] });
	});
});
