/**
 * The home page's visitor flow: paste a website address, get a sandbox chatbot (the rules of an
 * anonymous `create_chatbot`, and its per-network budget), follow its crawl and training on its
 * page, chat with it, keep it with the claim link.
 */
import type { JsonSchema, RouteDef } from "./types";
import { error } from "./responses";

const language = { type: "string", enum: ["en", "es"], description: "Language of the chatbot's answers and of its page (default `en`)." };

const sandboxSchema: JsonSchema = {
	type: "object",
	required: ["chatbot_id", "name", "website_url", "status", "status_label", "can_answer", "found", "crawled", "failed", "max_pages", "pages", "failures", "messages_used", "max_messages", "chat_api", "claim_url", "page_url"],
	properties: {
		chatbot_id: { type: "string" },
		name: { type: "string" },
		website_url: { type: ["string", "null"] },
		status: { type: "string", enum: ["crawling", "training", "ready", "failed", "idle"] },
		status_label: { type: "string", description: "The status in the chatbot's language." },
		can_answer: { type: "boolean" },
		failure_reason: { type: ["string", "null"] },
		found: { type: "integer", description: "Pages of the site discovered so far." },
		crawled: { type: "integer", description: "Pages read and added." },
		failed: { type: "integer", description: "Pages that gave nothing to train on." },
		max_pages: { type: "integer" },
		pages: { type: "array", items: { type: "object", required: ["url"], properties: { url: { type: "string" }, title: { type: ["string", "null"] }, char_count: { type: ["integer", "null"] } } } },
		failures: { type: "array", items: { type: "object", required: ["url", "reason"], properties: { url: { type: "string" }, reason: { type: "string", description: "Why, in words." } } } },
		messages_used: { type: "integer" },
		max_messages: { type: "integer" },
		expires_at: { type: ["string", "null"], format: "date-time" },
		chat_api: { type: "string", format: "uri", description: "POST questions here (the public chat API)." },
		claim_url: { type: "string", format: "uri", description: "Open it, logged in, to keep the chatbot." },
		page_url: { type: "string", format: "uri" }
	}
};

const idParam = { name: "id", in: "path" as const, required: true, description: "The sandbox's `chatbot_id`.", schema: { type: "string", minLength: 1, maxLength: 100 } };

export const sandboxRoutes: RouteDef[] = [
	{
		operationId: "showSandboxConfirmPage",
		method: "GET",
		path: "/sandbox/new",
		summary: "Build a sandbox chatbot (page for browsers without scripts)",
		tags: ["Sandbox"],
		action: "chatbots.sandboxConfirm",
		params: [
			{ name: "website_url", in: "query", required: false, description: "The address typed on the home page.", schema: { type: "string", maxLength: 2048 } },
			{ name: "language", in: "query", required: false, description: "`en` or `es`.", schema: { type: "string", enum: ["en", "es"] } }
		],
		responses: { "200": { description: "The address and a button to build.", content: { "text/html": { type: "string" } } } },
		documented: false
	},
	{
		operationId: "createSandboxChatbot",
		method: "POST",
		path: "/sandbox",
		summary: "Build a sandbox chatbot from a website",
		description:
			"What the home page's form does, with no account: the rules of an anonymous `create_chatbot` (5 pages, 10 messages, 50,000 characters, deleted after 8 days unless claimed) and its per-network budget (`mcp-create-chatbot`). Answers at once; the crawl and the training run in the background (follow `page_url`).",
		tags: ["Sandbox"],
		action: "chatbots.sandboxCreate",
		rateLimit: "mcp-create-chatbot",
		body: {
			kind: "form",
			description: "A JSON body answers JSON; a form (with its CSRF token) answers with a redirect to the sandbox's page.",
			schema: {
				type: "object",
				required: ["website_url"],
				additionalProperties: false,
				properties: {
					website_url: { type: "string", maxLength: 2048, description: "The website's full http(s) address." },
					language,
					csrf_token: { type: "string", maxLength: 200, description: "HTML forms only." }
				}
			}
		},
		responses: {
			"201": {
				description: "Built; its crawl is under way.",
				content: { "application/json": { type: "object", required: ["ok", "page_url", "claim_url", "sandbox"], properties: { ok: { const: true }, page_url: { type: "string", format: "uri" }, claim_url: { type: "string", format: "uri" }, sandbox: sandboxSchema } } },
				headers: ["Location"]
			},
			"303": { description: "HTML forms: to the sandbox's page.", headers: ["Location"] },
			"400": error("`validation_failed`: not an http(s) address."),
			"403": error("`forbidden`: a foreign Origin, or a form without a valid CSRF token."),
			"429": error("`rate_limited`: this network's budget for building chatbots is spent (shared with the tool server's create_chatbot); see Retry-After.")
		},
		documented: true
	},
	{
		operationId: "getSandboxChatbot",
		method: "GET",
		path: "/sandbox/{id}",
		summary: "A sandbox chatbot's progress",
		description: "The sandbox's page for browsers; with `Accept: application/json`, its crawl page by page (read, failed with the reason), its training, and whether work is `underway`.",
		tags: ["Sandbox"],
		action: "chatbots.sandboxPage",
		params: [idParam],
		responses: {
			"200": {
				description: "The sandbox.",
				content: {
					"application/json": { type: "object", required: ["ok", "underway", "sandbox"], properties: { ok: { const: true }, underway: { type: "boolean" }, sandbox: sandboxSchema } },
					"text/html": { type: "string" }
				}
			},
			"404": error("`not_found`: it was kept in an account, or deleted after 8 days.")
		},
		documented: true
	}
];
