/**
 * What a POST /mcp body asks of which chatbots, read before it is run: the gateway answers a lone
 * `get_chatbot` from its read cache, and forgets what it remembers of a chatbot another tool was
 * called on (services/gateway/reads.ts).
 */
import { isPlainObject, JsonRpcId, ParsedBody, ParsedMessage } from "./jsonrpc";

/**
 * The body's one `get_chatbot` call, when that is all the body holds and it holds nothing but the
 * tool's name and `{ chatbot_id }` (so a remembered result answers it exactly as running it would).
 */
export function soleGetChatbot(parsed: ParsedBody): { id: JsonRpcId; chatbotId: string } | undefined {
	if (parsed.kind !== "single" || parsed.element.kind !== "request") return undefined;
	const { id, method, params } = parsed.element.message;
	if (method !== "tools/call" || !isPlainObject(params) || params.name !== "get_chatbot" || Object.keys(params).length !== 2) return undefined;
	const args = params.arguments;
	if (!isPlainObject(args) || typeof args.chatbot_id !== "string" || Object.keys(args).length !== 1) return undefined;
	return { id, chatbotId: args.chatbot_id };
}

/** The chatbot ids named by the body's calls of tools other than `get_chatbot` (those that may change a chatbot). */
export function chatbotsCalledOn(parsed: ParsedBody): string[] {
	const elements: ParsedMessage[] = parsed.kind === "batch" ? parsed.elements : parsed.kind === "single" ? [parsed.element] : [];
	const ids: string[] = [];
	for (const element of elements) {
		if (element.kind !== "request" || element.message.method !== "tools/call") continue;
		const params = element.message.params;
		if (!isPlainObject(params) || params.name === "get_chatbot" || !isPlainObject(params.arguments)) continue;
		const chatbotId = params.arguments.chatbot_id;
		if (typeof chatbotId === "string") ids.push(chatbotId);
	}
	return ids;
}
