/**
 * The gateway's read cache (services/gateway/reads.ts) over real HTTP with every service in this
 * process: a repeated get_chatbot or getDemoSession is answered without crossing the bus, byte for
 * byte as before, and never shows a chatbot as it was before a change, whoever made the change
 * (a tool, the demo API, or a service behind the gateway's back), nor past its expiry.
 */
import { SANDBOX_CHATBOT_LIMITS } from "../../lib/accounts/chatbot-limits";
import type { Chatbot } from "../../lib/chatbots/model";
import { processMetrics } from "../../lib/ops/metrics";
import { startApp, TestApp } from "../helpers/app";
import { callTool, mcpPost, rawRequest } from "../helpers/mcp-http";

let app: TestApp;
const lookups = processMetrics.counter("gateway_read_cache_lookups_total", "");
const hits = (kind: "tool" | "action") => lookups.get({ kind, outcome: "hit" });

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1" } });
});
afterAll(async () => {
	await app?.stop();
});

async function sandbox(options: { ttlMs?: number; claimHash?: string } = {}): Promise<Chatbot> {
	return app.broker.call<Chatbot, object>("chatbots.create", {
		kind: "sandbox",
		locale: "en",
		name: "cache.example",
		limits: SANDBOX_CHATBOT_LIMITS,
		ttl_ms: options.ttlMs ?? 86_400_000,
		...(options.claimHash ? { claim_hash: options.claimHash } : {})
	});
}

const getChatbot = (id: string, requestId: number | string = 1) =>
	mcpPost(app.baseUrl, { jsonrpc: "2.0", id: requestId, method: "tools/call", params: { name: "get_chatbot", arguments: { chatbot_id: id } } });
const usage = async (id: string) => ((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id })).data?.usage as { chars_used: number }).chars_used;

it("answers a repeated get_chatbot from the cache, the same bytes under the new request's id", async () => {
	const chatbot = await sandbox();
	const first = await getChatbot(chatbot._id, 1);
	const before = hits("tool");
	const second = await getChatbot(chatbot._id, "second");
	expect(hits("tool")).toBe(before + 1);
	expect(second.status).toBe(200);
	expect(second.headers.get("cache-control")).toBe("no-store");
	expect(second.text).toBe(first.text.replace('"id":1,', '"id":"second",'));
	expect((second.body as { result: { structuredContent: { chatbot_id: string } } }).result.structuredContent.chatbot_id).toBe(chatbot._id);
});

it("shows a change made by a tool at once", async () => {
	const chatbot = await sandbox();
	expect(await usage(chatbot._id)).toBe(0);
	expect(await usage(chatbot._id)).toBe(0);
	const added = await callTool(app.baseUrl, "add_knowledge_text", { chatbot_id: chatbot._id, text: "The lighthouse opens at nine." });
	expect(added.isError).toBe(false);
	expect(await usage(chatbot._id)).toBe("The lighthouse opens at nine.".length);
});

it("shows a change made behind the gateway's back (another service's write) at once", async () => {
	const chatbot = await sandbox();
	await usage(chatbot._id);
	const before = hits("tool");
	expect(await usage(chatbot._id)).toBe(0);
	expect(hits("tool")).toBe(before + 1);
	await app.broker.call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text: "Tickets cost four euros." });
	expect(await usage(chatbot._id)).toBe("Tickets cost four euros.".length);
});

it("stops showing a sandbox to anonymous callers once it is claimed", async () => {
	const claimHash = "c".repeat(64);
	const chatbot = await sandbox({ claimHash });
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).isError).toBe(false);
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).isError).toBe(false);
	await app.broker.call("chatbots.claim", { id: chatbot._id, claim_hash: claimHash, account_id: "account-1", limits: SANDBOX_CHATBOT_LIMITS });
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).text).toMatch(/^Error \(not_found\)/);
});

it("stops showing a sandbox when it expires, though nothing changed it", async () => {
	const chatbot = await sandbox({ ttlMs: 1_500 });
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).isError).toBe(false);
	const before = hits("tool");
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).isError).toBe(false);
	expect(hits("tool")).toBe(before + 1);
	await new Promise(resolve => setTimeout(resolve, Math.max(0, (chatbot.expires_at as number) - Date.now() + 50)));
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).text).toMatch(/^Error \(not_found\)/);
});

it("keeps each protocol revision's result apart", async () => {
	const chatbot = await sandbox();
	const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_chatbot", arguments: { chatbot_id: chatbot._id } } };
	for (let round = 0; round < 2; round++) {
		const structured = await mcpPost(app.baseUrl, body, { version: "2025-06-18" });
		const plain = await mcpPost(app.baseUrl, body, { version: "2025-03-26" });
		expect((structured.body as { result: Record<string, unknown> }).result.structuredContent).toBeDefined();
		expect((plain.body as { result: Record<string, unknown> }).result.structuredContent).toBeUndefined();
	}
});

describe("getDemoSession", () => {
	async function createSession(): Promise<string> {
		const created = await rawRequest(`${app.baseUrl}/api/tools/sessions`, { method: "POST", headers: { "X-Forwarded-For": "203.0.113.77" } });
		expect(created.status).toBe(200);
		return (created.body as { demo: { session_id: string } }).demo.session_id;
	}
	const getSession = (id: string) => rawRequest(`${app.baseUrl}/api/tools/sessions/${id}`, { headers: { "X-Forwarded-For": "203.0.113.78" } });
	const texts = (reply: { body: unknown }) => (reply.body as { demo: { sources: { texts: unknown[] } } }).demo.sources.texts.length;

	it("answers a repeated read from the cache with the same reply", async () => {
		const id = await createSession();
		const first = await getSession(id);
		const before = hits("action");
		const second = await getSession(id);
		expect(hits("action")).toBe(before + 1);
		expect(second.status).toBe(200);
		expect(second.text).toBe(first.text);
		expect(second.headers.get("content-type")).toBe(first.headers.get("content-type"));
		expect(second.headers.get("content-length")).toBe(String(Buffer.byteLength(first.text)));
	});

	it("shows the session's own write, and a write behind the gateway's back, at once", async () => {
		const id = await createSession();
		expect(texts(await getSession(id))).toBe(0);
		expect(texts(await getSession(id))).toBe(0);
		const added = await rawRequest(`${app.baseUrl}/api/tools/sessions/${id}/texts`, {
			method: "POST",
			headers: { "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.79" },
			body: JSON.stringify({ text: "The ferry leaves at noon." })
		});
		expect(added.status).toBe(200);
		expect(texts(await getSession(id))).toBe(1);

		const chatbotSlug = (added.body as { demo: { slug: string } }).demo.slug;
		const chatbot = await app.broker.call<Chatbot, object>("chatbots.findBySlug", { slug: chatbotSlug });
		await app.broker.call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text: "The ferry returns at six." });
		expect(texts(await getSession(id))).toBe(2);
	});

	it("answers an unknown session 410 every time, nothing kept", async () => {
		const unknown = "x".repeat(43);
		const replies = [await getSession(unknown), await getSession(unknown)];
		expect(replies.map(r => r.status)).toEqual([replies[0].status, replies[0].status]);
		expect(replies[0].status).toBeGreaterThanOrEqual(400);
	});
});
