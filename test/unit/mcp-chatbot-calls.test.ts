import { chatbotsCalledOn, soleGetChatbot } from "../../lib/mcp/chatbot-calls";
import { parseJsonRpcBody } from "../../lib/mcp/jsonrpc";

const call = (id: number | string, name: string, args: unknown, extra: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...extra } });
const parsed = (body: unknown) => parseJsonRpcBody(JSON.stringify(body));

describe("soleGetChatbot", () => {
	it("finds a body's one get_chatbot call with its request id", () => {
		expect(soleGetChatbot(parsed(call(7, "get_chatbot", { chatbot_id: "c1" })))).toEqual({ id: 7, chatbotId: "c1" });
		expect(soleGetChatbot(parsed(call("r-1", "get_chatbot", { chatbot_id: "c1" })))).toEqual({ id: "r-1", chatbotId: "c1" });
	});

	it("leaves alone anything a remembered result might not answer exactly", () => {
		const refused = [
			[call(1, "get_chatbot", { chatbot_id: "c1" })],
			call(1, "get_chatbot", { chatbot_id: "c1", extra: true }),
			call(1, "get_chatbot", { chatbot_id: 5 }),
			call(1, "get_chatbot", {}),
			call(1, "get_chatbot", { chatbot_id: "c1" }, { _meta: { progressToken: 1 } }),
			call(1, "add_knowledge_text", { chatbot_id: "c1", text: "x" }),
			{ jsonrpc: "2.0", method: "tools/call", params: { name: "get_chatbot", arguments: { chatbot_id: "c1" } } },
			{ jsonrpc: "2.0", id: 1, method: "tools/list" }
		];
		for (const body of refused) expect(soleGetChatbot(parsed(body))).toBeUndefined();
		expect(soleGetChatbot(parseJsonRpcBody("{not json"))).toBeUndefined();
	});
});

describe("chatbotsCalledOn", () => {
	it("names the chatbots of every call but get_chatbot, in a batch too", () => {
		const body = [
			call(1, "add_knowledge_text", { chatbot_id: "c1", text: "hello" }),
			call(2, "get_chatbot", { chatbot_id: "c2" }),
			call(3, "add_qa", { chatbot_id: "c3", question: "q", answer: "a" }),
			call(4, "create_chatbot", { website_url: "https://example.com/" })
		];
		expect(chatbotsCalledOn(parsed(body))).toEqual(["c1", "c3"]);
		expect(chatbotsCalledOn(parsed(call(1, "add_knowledge_url", { chatbot_id: "c9", url: "https://example.com/" })))).toEqual(["c9"]);
		expect(chatbotsCalledOn(parsed(call(1, "get_chatbot", { chatbot_id: "c1" })))).toEqual([]);
	});
});
