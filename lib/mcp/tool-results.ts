/**
 * The data each tool returns (`structuredContent`, and the same JSON as text), as JSON Schemas for
 * the tools' `outputSchema` and as TypeScript types for the code that produces it.
 *
 * SPEC §2.10 leaves the chatbot's fields "not shown", so they are chosen here. A chatbot result is
 *
 *   {
 *     chatbot_id, name, website_url, language: "en" | "es",
 *     status: "crawling" | "training" | "ready" | "failed",   // where the background work is
 *     ready: boolean,                                         // true once it can answer (status "ready")
 *     failure_reason?: string,                                // only with status "failed"
 *     chat_url, embed_snippet,                                // hand these to the human
 *     claim_url?: string,                                     // anonymous sandboxes only, until claimed
 *     sandbox: boolean, expires_at?: date-time,               // expires_at only for sandboxes
 *     created_at: date-time,
 *     pages:  { found, crawled, failed, limit },              // crawl progress of website_url
 *     limits: { pages, messages, chars },                     // of the sandbox or the account's plan
 *     usage:  { chars_used, messages_used }
 *   }
 *
 * Objects are closed (`additionalProperties: false`): the dispatcher checks every result against
 * these schemas before sending it, so a field renamed on the service side fails loudly in our tests
 * instead of silently breaking clients that validate `structuredContent` (the official SDK does).
 */

export type JsonSchema = { [keyword: string]: unknown };

/** The shape MCP requires of `inputSchema` and `outputSchema`: an object schema at the root. */
export interface ObjectSchema extends JsonSchema {
	type: "object";
	properties: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean;
}

export const CHATBOT_STATUSES = ["crawling", "training", "ready", "failed"] as const;
export type ChatbotStatus = (typeof CHATBOT_STATUSES)[number];

export const CHATBOT_LANGUAGES = ["en", "es"] as const;
export type ChatbotLanguage = (typeof CHATBOT_LANGUAGES)[number];

export const SOURCE_TYPES = ["url", "text", "qa"] as const;
export const SOURCE_STATUSES = ["queued", "processing", "ready", "failed"] as const;

export interface ChatbotResult {
	chatbot_id: string;
	name: string;
	website_url: string;
	language: ChatbotLanguage;
	status: ChatbotStatus;
	ready: boolean;
	failure_reason?: string;
	chat_url: string;
	embed_snippet: string;
	claim_url?: string;
	sandbox: boolean;
	expires_at?: string;
	created_at: string;
	pages: { found: number; crawled: number; failed: number; limit: number };
	limits: { pages: number; messages: number; chars: number };
	usage: { chars_used: number; messages_used: number };
}

export interface KnowledgeSource {
	source_id: string;
	type: (typeof SOURCE_TYPES)[number];
	status: (typeof SOURCE_STATUSES)[number];
	title?: string;
	url?: string;
	chars: number;
}

/** Result of add_knowledge_url, add_knowledge_text and add_qa: the new source and the chatbot after it. */
export interface KnowledgeAddedResult {
	source: KnowledgeSource;
	chatbot: ChatbotResult;
}

export interface ChatbotSummary {
	chatbot_id: string;
	name: string;
	website_url: string;
	language: ChatbotLanguage;
	status: ChatbotStatus;
	ready: boolean;
	chat_url: string;
	created_at: string;
}

export interface ChatbotListResult {
	count: number;
	chatbots: ChatbotSummary[];
	plan: { id: string; name: string; limits: { chatbots: number; pages: number; messages: number; chars: number } };
}

const count = (description: string): JsonSchema => ({ type: "integer", minimum: 0, description });
const text = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: "string", description, ...extra });
const uri = (description: string): JsonSchema => ({ type: "string", format: "uri", description });
const dateTime = (description: string): JsonSchema => ({ type: "string", format: "date-time", description });

function closedObject(properties: Record<string, JsonSchema>, required: string[], description?: string): ObjectSchema {
	const schema: ObjectSchema = { type: "object", properties, required, additionalProperties: false };
	if (description !== undefined) schema.description = description;
	return schema;
}

const languageSchema: JsonSchema = { type: "string", enum: [...CHATBOT_LANGUAGES], description: "Language the chatbot answers in." };
const statusSchema: JsonSchema = {
	type: "string",
	enum: [...CHATBOT_STATUSES],
	description: "crawling: reading the website; training: indexing knowledge; ready: answering; failed: see failure_reason."
};

export const CHATBOT_RESULT_SCHEMA: ObjectSchema = closedObject(
	{
		chatbot_id: text("Identifier to pass to the other tools."),
		name: text("Display name, taken from the website."),
		website_url: uri("The website the chatbot was built from."),
		language: languageSchema,
		status: statusSchema,
		ready: { type: "boolean", description: "True when the chatbot answers questions." },
		failure_reason: text("Why the build failed (only when status is failed)."),
		chat_url: uri("Page where a human can chat with the chatbot."),
		embed_snippet: text("HTML to paste into a website to show the chat widget."),
		claim_url: uri("Anonymous sandboxes only: give this link to the human; opening it and signing in keeps the chatbot."),
		sandbox: { type: "boolean", description: "True for an anonymous sandbox with sandbox limits." },
		expires_at: dateTime("Sandboxes only: when the chatbot is deleted unless claimed."),
		created_at: dateTime("When the chatbot was created."),
		pages: closedObject(
			{
				found: count("Pages discovered on the website."),
				crawled: count("Pages read successfully."),
				failed: count("Pages that could not be read."),
				limit: count("Most pages that will be crawled.")
			},
			["found", "crawled", "failed", "limit"],
			"Crawl progress."
		),
		limits: closedObject(
			{
				pages: count("Pages crawled per chatbot."),
				messages: count("Answered messages allowed."),
				chars: count("Training characters allowed.")
			},
			["pages", "messages", "chars"]
		),
		usage: closedObject(
			{ chars_used: count("Training characters used."), messages_used: count("Messages answered so far.") },
			["chars_used", "messages_used"]
		)
	},
	[
		"chatbot_id",
		"name",
		"website_url",
		"language",
		"status",
		"ready",
		"chat_url",
		"embed_snippet",
		"sandbox",
		"created_at",
		"pages",
		"limits",
		"usage"
	]
);

export const KNOWLEDGE_ADDED_SCHEMA: ObjectSchema = closedObject(
	{
		source: closedObject(
			{
				source_id: text("Identifier of the new knowledge source."),
				type: { type: "string", enum: [...SOURCE_TYPES] },
				status: { type: "string", enum: [...SOURCE_STATUSES], description: "Processing state of this source." },
				title: text("Title of the page or text."),
				url: uri("The page, for a url source."),
				chars: count("Training characters this source adds (0 until a page is read).")
			},
			["source_id", "type", "status", "chars"]
		),
		chatbot: CHATBOT_RESULT_SCHEMA
	},
	["source", "chatbot"]
);

const CHATBOT_SUMMARY_SCHEMA: ObjectSchema = closedObject(
	{
		chatbot_id: text("Identifier to pass to the other tools."),
		name: text("Display name."),
		website_url: uri("The website the chatbot was built from."),
		language: languageSchema,
		status: statusSchema,
		ready: { type: "boolean" },
		chat_url: uri("Page where a human can chat with the chatbot."),
		created_at: dateTime("When the chatbot was created.")
	},
	["chatbot_id", "name", "website_url", "language", "status", "ready", "chat_url", "created_at"]
);

export const CHATBOT_LIST_SCHEMA: ObjectSchema = closedObject(
	{
		count: count("Number of chatbots."),
		chatbots: { type: "array", items: CHATBOT_SUMMARY_SCHEMA, description: "Newest first." },
		plan: closedObject(
			{
				id: text("Plan identifier."),
				name: text("Plan name."),
				limits: closedObject(
					{
						chatbots: count("Chatbots allowed."),
						pages: count("Pages per chatbot."),
						messages: count("Answered messages per chatbot per month."),
						chars: count("Training characters per chatbot.")
					},
					["chatbots", "pages", "messages", "chars"]
				)
			},
			["id", "name", "limits"]
		)
	},
	["count", "chatbots", "plan"]
);
