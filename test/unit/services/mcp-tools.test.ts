/**
 * The tool server's rules, on a broker: the real mcp service answers JSON-RPC bodies while a fake
 * chatbots service records what it is asked and answers as the test says. What is tested is the
 * mapping from tools onto the chatbots service (who may reach what, what a new chatbot starts with,
 * what an add asks for) and how refusals become tool errors an agent can act on.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Context, Errors, ServiceBroker } from "moleculer";
import { loadConfig } from "../../../config";
import { SANDBOX_CHATBOT_LIMITS } from "../../../lib/accounts/chatbot-limits";
import { hashToken } from "../../../lib/accounts/tokens";
import { PLANS } from "../../../lib/accounts/plans";
import type { Chatbot } from "../../../lib/chatbots/model";
import { appError } from "../../../lib/errors";
import { LATEST_PROTOCOL_VERSION } from "../../../lib/mcp/protocol";
import { chatbotDoc, crawlState } from "../../helpers/chatbot-doc";
import createMcpService from "../../../services/mcp.service";

const SECRET = "s".repeat(40);
let dataDir: string;
let broker: ServiceBroker;
let calls: Array<{ action: string; params: Record<string, unknown> }> = [];
/** How the fake chatbots service answers each action; a thrown error is the refusal. */
let answers: Record<string, (params: Record<string, unknown>) => unknown> = {};

/** A sandbox whose crawl was just queued, as `chatbots.create` returns it. */
const storedChatbot = (overrides: Partial<Chatbot> = {}) => chatbotDoc({ crawl: crawlState("queued"), claim_hash: null, expires_at: Date.now() + 86_400_000, ...overrides });

const source = (kind: string) => ({ _id: "src-1", chatbot_id: "c", kind, status: "ready", url: kind === "url" ? "https://example.com/a" : null, title: "T", question: null, char_count: 10 });

beforeAll(async () => {
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-mcp-tools-"));
	broker = new ServiceBroker({ logger: false, validator: true });
	broker.createService(createMcpService(loadConfig({ DATA_DIR: dataDir, SIGNING_SECRET: SECRET, PUBLIC_URL: "https://bots.example", LOG_LEVEL: "error" })));
	const actions: Record<string, (ctx: Context<Record<string, unknown>>) => unknown> = {};
	for (const action of ["create", "get", "addPage", "addSource", "listByAccount"]) {
		actions[action] = (ctx: Context<Record<string, unknown>>) => {
			calls.push({ action, params: ctx.params });
			const answer = answers[action];
			if (!answer) throw new Error(`unexpected call chatbots.${action}`);
			return answer(ctx.params);
		};
	}
	broker.createService({ name: "chatbots", actions });
	await broker.start();
});

afterAll(async () => {
	await broker?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
	calls = [];
	answers = {};
});

interface ToolReply {
	isError: boolean;
	text: string;
	data?: Record<string, unknown>;
}

async function tool(name: string, args: Record<string, unknown>, account?: { account_id: string; plan: string }): Promise<ToolReply> {
	const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } });
	const reply = await broker.call<{ status: number; body: { result: { isError?: boolean; content: Array<{ text: string }> } } }, object>("mcp.handle", {
		body,
		protocol_version: LATEST_PROTOCOL_VERSION,
		account: account ?? null
	});
	const { result } = reply.body;
	const text = result.content[0].text;
	return { isError: result.isError === true, text, data: result.isError ? undefined : JSON.parse(text) };
}

describe("create_chatbot", () => {
	it("anonymous: one write with a claim hash of the link it returns, sandbox limits, retention, and a crawl that trains", async () => {
		answers.create = params => storedChatbot({ _id: String(params.id), claim_hash: String(params.claim_hash) });
		const reply = await tool("create_chatbot", { website_url: "https://example.com/", language: "en" });
		expect(reply.isError).toBe(false);
		const [create] = calls;
		expect(calls).toHaveLength(1);
		expect(create.params).toMatchObject({ kind: "sandbox", limits: SANDBOX_CHATBOT_LIMITS, ttl_ms: 8 * 86_400_000, crawl: { url: "https://example.com/", then_train: true } });
		const token = String(reply.data?.claim_url).split("/claim/")[1];
		expect(hashToken(token)).toBe(create.params.claim_hash);
		expect(reply.data).toMatchObject({ chatbot_id: create.params.id, status: "crawling", sandbox: true });
	});

	it("with a key: an account chatbot taking one of the plan's chatbot slots; a full plan is chatbot_cap", async () => {
		answers.create = params => storedChatbot({ kind: "account", account_id: String(params.account_id), expires_at: null });
		const account = { account_id: "acct-1", plan: "free" };
		const made = await tool("create_chatbot", { website_url: "https://example.com/", language: "en" }, account);
		expect(made.isError).toBe(false);
		expect(calls[0].params).toMatchObject({ kind: "account", account_id: "acct-1", max_chatbots: PLANS.free.limits.chatbots });
		expect(calls[0].params).not.toHaveProperty("claim_hash");
		expect(calls[0].params).not.toHaveProperty("ttl_ms");

		answers.create = () => {
			throw appError("forbidden", "The plan allows 3 chatbots and this account has 3.");
		};
		const full = await tool("create_chatbot", { website_url: "https://example.com/", language: "en" }, account);
		expect(full.isError).toBe(true);
		expect(full.text).toMatch(/^Error \(chatbot_cap\)/);
	});
});

describe("adding knowledge", () => {
	it("asks the chatbots service to train it in, as the caller who may reach the chatbot", async () => {
		answers.addPage = () => source("url");
		answers.addSource = () => source("text");
		answers.get = () => ({ chatbot: storedChatbot() });
		await tool("add_knowledge_url", { chatbot_id: "c-1", url: "https://example.com/a" });
		await tool("add_knowledge_text", { chatbot_id: "c-2", text: "Shipping is free." }, { account_id: "acct-9", plan: "pro" });
		expect(calls.find(c => c.action === "addPage")?.params).toEqual({ id: "c-1", url: "https://example.com/a", train: true, owner: { account_id: null } });
		expect(calls.find(c => c.action === "addSource")?.params).toMatchObject({ id: "c-2", kind: "text", status: "ready", text: "Shipping is free.", train: true, owner: { account_id: "acct-9" } });
	});

	it("refuses blank text and half a Q&A pair without writing anything", async () => {
		expect((await tool("add_knowledge_text", { chatbot_id: "c", text: "  \n " })).text).toMatch(/^Error \(empty\)/);
		expect((await tool("add_qa", { chatbot_id: "c", question: "Open?", answer: " " })).text).toMatch(/^Error \(empty\)/);
		expect(calls).toEqual([]);
	});

	it("a cap refusal reaches the agent with its code and a hint in the agent's terms", async () => {
		answers.addPage = () => {
			throw appError("url_cap", "This chatbot already has the maximum of 5 URLs.");
		};
		const reply = await tool("add_knowledge_url", { chatbot_id: "c", url: "https://example.com/b" });
		expect(reply.isError).toBe(true);
		expect(reply.text).toMatch(/^Error \(url_cap\)/);
		expect(reply.text).toMatch(/add_knowledge_text/);
	});
});

describe("reaching chatbots", () => {
	it("someone else's chatbot and a missing one read the same: not_found", async () => {
		for (const refusal of [appError("not_found", "No chatbot you can reach has this id."), appError("expired", "No live chatbot has this id.")]) {
			answers.get = () => {
				throw refusal;
			};
			const reply = await tool("get_chatbot", { chatbot_id: "someone-elses" });
			expect(reply.isError).toBe(true);
			expect(reply.text).toMatch(/^Error \(not_found\)/);
		}
		expect(calls.every(c => (c.params.owner as { account_id: unknown }).account_id === null)).toBe(true);
	});

	it("a back end that does not answer is `unavailable`, to retry", async () => {
		answers.get = () => {
			throw new Errors.ServiceNotAvailableError({ action: "chatbots.get" });
		};
		expect((await tool("get_chatbot", { chatbot_id: "c" })).text).toMatch(/^Error \(unavailable\)/);
	});

	it("list_chatbots is not offered to anonymous callers", async () => {
		const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_chatbots", arguments: {} } });
		const reply = await broker.call<{ body: { error?: { code: number } } }, object>("mcp.handle", { body, protocol_version: LATEST_PROTOCOL_VERSION, account: null });
		expect(reply.body.error?.code).toBe(-32602);
		expect(calls).toEqual([]);
	});
});
