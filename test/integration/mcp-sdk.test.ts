/**
 * The whole tool-server story through the official MCP TypeScript SDK client (Client +
 * StreamableHTTPClientTransport) against the real app: connect, list tools, create a chatbot from a
 * loopback website (real crawler), poll get_chatbot until it is ready (real trainer and vector
 * index), add text and a Q&A pair, wait for retraining, then read answers from its chat API and open
 * its chat link. Every JSON-RPC message the server sends is also validated against the published MCP
 * schema of the negotiated revision, through the transport's fetch.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startApp, TestApp } from "../helpers/app";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { rawRequest } from "../helpers/mcp-http";
import { assertValidMcpMessage } from "../helpers/mcp-schema";

let app: TestApp;
let site: LoopbackSite;
const seen: Array<{ status: number; version: string }> = [];

const page = (title: string, body: string, links: string[] = []) =>
	html(`<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}${links.map(l => ` <a href="${l}">${l}</a>`).join("")}</main></body></html>`);

beforeAll(async () => {
	site = await startSite({
		"/": page(
			"Nordlicht Kettles",
			"<p>Nordlicht makes electric kettles in a small workshop in Bergen. Every kettle is tested by hand before it ships.</p>",
			["/warranty", "/shipping"]
		),
		"/warranty": page("Warranty", "<p>The warranty lasts 37 months from the day of delivery. It covers the heating element and the switch.</p>"),
		"/shipping": page("Shipping", "<p>Orders ship from Bergen within two working days. Shipping inside Norway is free.</p>")
	});
	app = await startApp({ env: { CRAWL_ALLOW_PRIVATE: "true" } });
});
afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

/** fetch for the SDK transport that also checks each JSON-RPC message the server answers. */
const validatingFetch: typeof fetch = async (input, init) => {
	const response = await fetch(input, init);
	const headers = new Headers(init?.headers);
	if (init?.method === "POST" && response.status === 200) {
		const body = (await response.clone().json()) as { result?: { protocolVersion?: string } };
		const version = body.result?.protocolVersion ?? headers.get("mcp-protocol-version") ?? "2024-11-05";
		assertValidMcpMessage(version, body);
		seen.push({ status: response.status, version });
	}
	return response;
};

async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
	const client = new Client({ name: "sdk-e2e", version: "1.0.0" });
	const transport = new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/mcp`), { fetch: validatingFetch });
	await client.connect(transport);
	return { client, transport };
}

type Structured = Record<string, unknown>;

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
	const result = await client.callTool({ name, arguments: args });
	if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
	const structured = result.structuredContent as Structured;
	// The text content carries the same data.
	expect(JSON.parse((result.content as Array<{ text: string }>)[0].text)).toEqual(structured);
	return structured;
}

/** Polls get_chatbot every 2 s (the SDK client is one address, and `mcp` allows it 60 calls a minute) until `done`. */
async function until(client: Client, id: string, done: (chatbot: Structured) => boolean, timeoutMs: number): Promise<Structured> {
	const deadline = Date.now() + timeoutMs;
	let last: Structured | undefined;
	while (Date.now() < deadline) {
		last = await call(client, "get_chatbot", { chatbot_id: id });
		if (last.status === "failed") throw new Error(`the chatbot failed: ${String(last.failure_reason)}`);
		if (done(last)) return last;
		await new Promise(resolve => setTimeout(resolve, 2000));
	}
	throw new Error(`timed out; last state ${JSON.stringify(last)}`);
}

async function ask(slug: string, message: string): Promise<{ answer: string; citations: unknown[] }> {
	const reply = await rawRequest(`${app.baseUrl}/api/chat/${slug}/messages`, {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: "application/json" },
		body: JSON.stringify({ message })
	});
	expect(reply.status).toBe(200);
	return reply.body as { answer: string; citations: unknown[] };
}

it("an agent with no account builds a chatbot, follows it to ready, adds knowledge, and it answers", async () => {
	const { client, transport } = await connect();
	try {
		expect(client.getServerVersion()).toMatchObject({ name: "chatbot-builder" });
		expect(transport.sessionId).toBeUndefined(); // stateless: no session is ever issued
		const { tools } = await client.listTools();
		expect(tools.map(t => t.name)).toEqual(["create_chatbot", "get_chatbot", "add_knowledge_url", "add_knowledge_text", "add_qa"]);

		const created = await call(client, "create_chatbot", { website_url: `${site.origin}/`, language: "en" });
		const id = created.chatbot_id as string;
		expect(created.claim_url).toMatch(/\/claim\//);
		expect(created.embed_snippet).toContain("/widget.js");

		const ready = await until(client, id, chatbot => chatbot.ready === true, 90_000);
		expect(ready.pages).toMatchObject({ crawled: 3, failed: 0, limit: 5 });
		const slug = new URL(ready.chat_url as string).pathname.split("/").pop() as string;
		expect((await ask(slug, "How long is the warranty?")).answer).toMatch(/37 months/);

		const text = await call(client, "add_knowledge_text", {
			chatbot_id: id,
			title: "Repairs",
			text: "Broken lids are replaced for free at the Bergen workshop. Send the kettle with a note describing the fault."
		});
		expect(text.source).toMatchObject({ type: "text", status: "ready" });
		const qa = await call(client, "add_qa", { chatbot_id: id, question: "Do you sell spare filters?", answer: "Yes, spare limescale filters cost 4 euros each." });
		expect(qa.source).toMatchObject({ type: "qa", status: "ready" });
		expect((qa.chatbot as Structured).status).toBe("training");

		const retrained = await until(client, id, chatbot => chatbot.ready === true, 90_000);
		expect((retrained.usage as { chars_used: number }).chars_used).toBeGreaterThan((ready.usage as { chars_used: number }).chars_used);
		expect((await ask(slug, "Do you sell spare filters?")).answer).toMatch(/4 euros/);
		expect((await ask(slug, "What do you do with broken lids?")).answer).toMatch(/replaced for free/);

		const chatPage = await rawRequest(ready.chat_url as string, { headers: { Accept: "text/html" } });
		expect(chatPage.status).toBe(200);
		expect(chatPage.headers.get("content-type")).toMatch(/^text\/html/);
	} finally {
		await client.close();
	}
	expect(seen.length).toBeGreaterThan(5);
	expect(seen.every(s => s.version === "2025-06-18")).toBe(true);
}, 240_000);
