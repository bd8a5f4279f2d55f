/**
 * The tool server's tools: what an agent sees in `tools/list` and what `tools/call` validates.
 *
 * Definitions are written once in the newest shape; `toolsForVersion` trims them to what each
 * protocol revision defines, because older clients may validate strictly:
 *   2024-11-05  name, description, inputSchema
 *   2025-03-26  + annotations (which carry the display title as `annotations.title`)
 *   2025-06-18  + title, outputSchema (and `structuredContent` in results)
 */
import { SANDBOX_LIMITS } from "../accounts/plans";
import { LOCALES, MAX_TEXT_CHARS, MAX_URL_LENGTH } from "../chatbots/model";
import { atLeast, ProtocolVersion } from "./protocol";
import {
	CHATBOT_LIST_SCHEMA,
	CHATBOT_RESULT_SCHEMA,
	JsonSchema,
	KNOWLEDGE_ADDED_SCHEMA,
	ObjectSchema
} from "./tool-results";

export const ANONYMOUS_TOOL_NAMES = ["create_chatbot", "get_chatbot", "add_knowledge_url", "add_knowledge_text", "add_qa"] as const;
export const ACCOUNT_ONLY_TOOL_NAMES = ["list_chatbots"] as const;
export type ToolName = (typeof ANONYMOUS_TOOL_NAMES)[number] | (typeof ACCOUNT_ONLY_TOOL_NAMES)[number];

export const MAX_KNOWLEDGE_TEXT_LENGTH = MAX_TEXT_CHARS;
export const MAX_TITLE_LENGTH = 200;
export const MAX_QUESTION_LENGTH = 1_000;
export const MAX_ANSWER_LENGTH = 5_000;

export interface ToolAnnotations {
	readOnlyHint: boolean;
	destructiveHint: boolean;
	idempotentHint: boolean;
	openWorldHint: boolean;
}

export interface ToolDefinition {
	name: ToolName;
	title: string;
	description: string;
	inputSchema: ObjectSchema;
	outputSchema: ObjectSchema;
	annotations: ToolAnnotations;
	/** Only callers with an API key may list or call it. */
	requiresAccount: boolean;
}

/** A tool as sent in `tools/list` for one revision. */
export interface McpTool {
	[key: string]: unknown;
	name: string;
	description: string;
	inputSchema: ObjectSchema;
	title?: string;
	outputSchema?: ObjectSchema;
	annotations?: ToolAnnotations & { title: string };
}

// Loose enough for ObjectId, UUID and nanoid-style ids; tight enough to keep junk out of queries.
const chatbotId: JsonSchema = {
	type: "string",
	minLength: 1,
	maxLength: 64,
	pattern: "^[A-Za-z0-9_-]+$",
	description: "The chatbot_id returned by create_chatbot (or list_chatbots)."
};

const webUrl = (description: string): JsonSchema => ({
	type: "string",
	format: "uri",
	pattern: "^https?://",
	maxLength: MAX_URL_LENGTH,
	description
});

function input(properties: Record<string, JsonSchema>, required: string[]): ObjectSchema {
	const schema: ObjectSchema = { type: "object", properties, additionalProperties: false };
	if (required.length > 0) schema.required = required;
	return schema;
}

const sandboxNote =
	`Without an API key the chatbot is an anonymous sandbox (${SANDBOX_LIMITS.pages} pages, ${SANDBOX_LIMITS.messages} answered messages, ` +
	`${SANDBOX_LIMITS.chars.toLocaleString("en-US")} training characters) deleted after ${SANDBOX_LIMITS.retentionDays} days unless a human opens claim_url and keeps it.`;

const additive: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const reader: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = Object.freeze([
	{
		name: "create_chatbot",
		title: "Create a chatbot from a website",
		description:
			"Creates a chatbot trained on a public website and returns at once with chatbot_id, chat_url (a page where a human can chat with it), " +
			"embed_snippet (HTML for their site) and, without an API key, claim_url. The site is crawled and trained in the background: " +
			"call get_chatbot every 10-20 seconds until ready is true. " +
			sandboxNote +
			" Give the human the chat_url and the claim_url. This call has a tight rate limit; do not call it again for the same site, reuse the chatbot_id.",
		inputSchema: input(
			{
				website_url: webUrl("Public http(s) address of the website to learn from, e.g. https://example.com. Crawling starts here and stays on this site."),
				language: { type: "string", enum: [...LOCALES], default: "en", description: "Language the chatbot answers in: en (default) or es." }
			},
			["website_url"]
		),
		outputSchema: CHATBOT_RESULT_SCHEMA,
		// Each call creates a new chatbot (not idempotent) and fetches an arbitrary website (open world).
		annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
		requiresAccount: false
	},
	{
		name: "get_chatbot",
		title: "Get a chatbot's progress",
		description:
			"Reports a chatbot's build progress and links: status (crawling, training, ready, failed), ready, pages found/crawled/failed, " +
			"usage against limits, chat_url, embed_snippet and claim_url (sandboxes). Poll it every 10-20 seconds after create_chatbot " +
			"or after adding knowledge until ready is true; if status is failed, read failure_reason. With an API key, only the account's " +
			"chatbots are found; without one, only unclaimed sandboxes, so keep each chatbot_id private.",
		inputSchema: input({ chatbot_id: chatbotId }, ["chatbot_id"]),
		outputSchema: CHATBOT_RESULT_SCHEMA,
		annotations: reader,
		requiresAccount: false
	},
	{
		name: "add_knowledge_url",
		title: "Add a web page as knowledge",
		description:
			"Adds one more web page (any public http(s) URL, also outside the original site) to a chatbot's knowledge and retrains it. " +
			"Use it for a page the crawl missed. The page counts against the chatbot's page and character limits; when a limit is reached the " +
			"result has isError true and nothing is added. Then poll get_chatbot until ready is true.",
		inputSchema: input(
			{ chatbot_id: chatbotId, url: webUrl("Public http(s) address of the page to add.") },
			["chatbot_id", "url"]
		),
		outputSchema: KNOWLEDGE_ADDED_SCHEMA,
		// Fetches a page from the web; adding the same URL twice is not guaranteed to be a no-op.
		annotations: { ...additive, openWorldHint: true },
		requiresAccount: false
	},
	{
		name: "add_knowledge_text",
		title: "Add text as knowledge",
		description:
			`Adds plain text (up to ${MAX_KNOWLEDGE_TEXT_LENGTH.toLocaleString("en-US")} characters per call, e.g. a policy, a price list or product facts) to a chatbot's ` +
			"knowledge and retrains it. The text counts against the chatbot's character limit; when it would pass the limit the result has " +
			"isError true and nothing is added: send a shorter text. Then poll get_chatbot until ready is true.",
		inputSchema: input(
			{
				chatbot_id: chatbotId,
				text: { type: "string", minLength: 1, maxLength: MAX_KNOWLEDGE_TEXT_LENGTH, description: "The text to learn from." },
				title: { type: "string", minLength: 1, maxLength: MAX_TITLE_LENGTH, description: "Optional short title shown as the source name." }
			},
			["chatbot_id", "text"]
		),
		outputSchema: KNOWLEDGE_ADDED_SCHEMA,
		annotations: additive,
		requiresAccount: false
	},
	{
		name: "add_qa",
		title: "Add a question and answer",
		description:
			"Teaches a chatbot an exact answer to a question (for example opening hours or a return policy). The chatbot uses it for the same " +
			"question and close rephrasings. Counts against the character limit. Then poll get_chatbot until ready is true.",
		inputSchema: input(
			{
				chatbot_id: chatbotId,
				question: { type: "string", minLength: 1, maxLength: MAX_QUESTION_LENGTH, description: "The question as a visitor would ask it." },
				answer: { type: "string", minLength: 1, maxLength: MAX_ANSWER_LENGTH, description: "The answer the chatbot should give." }
			},
			["chatbot_id", "question", "answer"]
		),
		outputSchema: KNOWLEDGE_ADDED_SCHEMA,
		annotations: additive,
		requiresAccount: false
	},
	{
		name: "list_chatbots",
		title: "List the account's chatbots",
		description:
			"Lists the chatbots of the account that owns the API key (newest first), including claimed sandboxes, with their status and " +
			"chat_url, and the account plan's limits. Call get_chatbot with a chatbot_id for details. Requires an API key.",
		inputSchema: input({}, []),
		outputSchema: CHATBOT_LIST_SCHEMA,
		annotations: reader,
		requiresAccount: true
	}
] satisfies ToolDefinition[]);

export interface ToolAudience {
	/** True when the request carried a valid API key. */
	authenticated: boolean;
}

/** The definitions a caller may see and call. */
export function availableTools(audience: ToolAudience): ToolDefinition[] {
	return TOOL_DEFINITIONS.filter(tool => audience.authenticated || !tool.requiresAccount);
}

export function findTool(name: string): ToolDefinition | undefined {
	return TOOL_DEFINITIONS.find(tool => tool.name === name);
}

/** A definition in the shape the given protocol revision defines. */
export function toolForVersion(tool: ToolDefinition, version: ProtocolVersion): McpTool {
	const wire: McpTool = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
	if (atLeast(version, "2025-03-26")) wire.annotations = { title: tool.title, ...tool.annotations };
	if (atLeast(version, "2025-06-18")) {
		wire.title = tool.title;
		wire.outputSchema = tool.outputSchema;
	}
	return wire;
}

/** The `tools` array of a `tools/list` result for this revision and caller. */
export function toolsForVersion(version: ProtocolVersion, audience: ToolAudience): McpTool[] {
	return availableTools(audience).map(tool => toolForVersion(tool, version));
}
