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

import { LOCALES, SOURCE_KINDS, SOURCE_STATUSES, type SourceKind } from "../chatbots/model";
import { CHATBOT_PHASES, type ChatbotPhase } from "../chatbots/status";
import { type Infer, schema as s } from "../json-schema";

export type { JsonSchema, ObjectSchema } from "../json-schema";

/** The chatbot's phases in the tool server's words: one that waits for training is reported `failed`, with what to do. */
export type ChatbotStatus = Exclude<ChatbotPhase, "idle">;
export const CHATBOT_STATUSES = CHATBOT_PHASES.filter((phase): phase is ChatbotStatus => phase !== "idle");

/** The source kinds the tools add (files come through the demo API and the dashboard). */
export const SOURCE_TYPES = SOURCE_KINDS.filter((kind): kind is Exclude<SourceKind, "file"> => kind !== "file");

const language = s.enum(LOCALES, "Language the chatbot answers in.");
const status = s.enum(CHATBOT_STATUSES, "crawling: reading the website; training: indexing knowledge; ready: answering; failed: see failure_reason.");

export const CHATBOT_RESULT_SCHEMA = s.object(
	{
		chatbot_id: s.string("Identifier to pass to the other tools."),
		name: s.string("Display name, taken from the website."),
		website_url: s.uri("The website the chatbot was built from."),
		language,
		status,
		ready: s.boolean("True when the chatbot answers questions."),
		failure_reason: s.string("Why the build failed (only when status is failed)."),
		chat_url: s.uri("Page where a human can chat with the chatbot."),
		embed_snippet: s.string("HTML to paste into a website to show the chat widget."),
		claim_url: s.uri("Anonymous sandboxes only: give this link to the human; opening it and signing in keeps the chatbot."),
		sandbox: s.boolean("True for an anonymous sandbox with sandbox limits."),
		expires_at: s.dateTime("Sandboxes only: when the chatbot is deleted unless claimed."),
		created_at: s.dateTime("When the chatbot was created."),
		pages: s.object(
			{
				found: s.count("Pages discovered on the website."),
				crawled: s.count("Pages read successfully."),
				failed: s.count("Pages that could not be read."),
				limit: s.count("Most pages that will be crawled.")
			},
			[],
			"Crawl progress."
		),
		limits: s.object({
			pages: s.count("Pages crawled per chatbot."),
			messages: s.count("Answered messages allowed."),
			chars: s.count("Training characters allowed.")
		}),
		usage: s.object({ chars_used: s.count("Training characters used."), messages_used: s.count("Messages answered so far.") })
	},
	["failure_reason", "claim_url", "expires_at"]
);
export type ChatbotResult = Infer<typeof CHATBOT_RESULT_SCHEMA>;

const KNOWLEDGE_SOURCE_SCHEMA = s.object(
	{
		source_id: s.string("Identifier of the new knowledge source."),
		type: s.enum(SOURCE_TYPES),
		status: s.enum(SOURCE_STATUSES, "Processing state of this source."),
		title: s.string("Title of the page or text."),
		url: s.uri("The page, for a url source."),
		chars: s.count("Training characters this source adds (0 until a page is read).")
	},
	["title", "url"]
);
export type KnowledgeSource = Infer<typeof KNOWLEDGE_SOURCE_SCHEMA>;

/** Result of add_knowledge_url, add_knowledge_text and add_qa: the new source and the chatbot after it. */
export const KNOWLEDGE_ADDED_SCHEMA = s.object({ source: KNOWLEDGE_SOURCE_SCHEMA, chatbot: CHATBOT_RESULT_SCHEMA });
export type KnowledgeAddedResult = Infer<typeof KNOWLEDGE_ADDED_SCHEMA>;

const CHATBOT_SUMMARY_SCHEMA = s.object({
	chatbot_id: s.string("Identifier to pass to the other tools."),
	name: s.string("Display name."),
	website_url: s.uri("The website the chatbot was built from."),
	language,
	status,
	ready: s.boolean(),
	chat_url: s.uri("Page where a human can chat with the chatbot."),
	created_at: s.dateTime("When the chatbot was created.")
});
export type ChatbotSummary = Infer<typeof CHATBOT_SUMMARY_SCHEMA>;

export const CHATBOT_LIST_SCHEMA = s.object({
	count: s.count("Number of chatbots."),
	chatbots: s.array(CHATBOT_SUMMARY_SCHEMA, "Newest first."),
	plan: s.object({
		id: s.string("Plan identifier."),
		name: s.string("Plan name."),
		limits: s.object({
			chatbots: s.count("Chatbots allowed."),
			pages: s.count("Pages per chatbot."),
			messages: s.count("Answered messages per chatbot per month."),
			chars: s.count("Training characters per chatbot.")
		})
	})
});
export type ChatbotListResult = Infer<typeof CHATBOT_LIST_SCHEMA>;
