/**
 * The chat surface: the chat page (a chatbot's chat link), the widget script, the public chat API
 * both use, and the widget's usage beacon. The API and the beacon are called from any website
 * (the widget runs on the embedding site), so they answer cross-origin requests (`cors`).
 */
import { MAX_CHAT_MESSAGE_CHARS } from "../../chat/wire";
import type { ParamDef, RouteDef } from "./types";
import { ref } from "./types";
import { error } from "./responses";

const slug: ParamDef = {
	name: "slug",
	in: "path",
	required: true,
	description: "The chatbot's public slug (the last part of its chat link).",
	schema: { type: "string", minLength: 1, maxLength: 64 }
};


const notFound = { "404": error("`not_found`: no live chatbot has this slug (it never existed, or its demo or sandbox expired).") };
const common = {
	"429": error("`rate_limited`: the budget of this path is spent; see Retry-After."),
	"503": error("`unavailable`: a back-end service is not answering; retry in a few seconds.")
};

export const chatRoutes: RouteDef[] = [
	{
		operationId: "getChatPage",
		method: "GET",
		path: "/c/{slug}",
		summary: "Chat page (a chatbot's chat link)",
		tags: ["Chat"],
		handler: "chatPage",
		responses: {
			"200": { description: "A full-page chat for people, in the chatbot's language.", content: { "text/html": { type: "string" } } },
			"404": { description: "No live chatbot has this slug: the negotiated 404." }
		},
		documented: false
	},
	{
		operationId: "getWidgetScript",
		method: "GET",
		path: "/widget.js",
		summary: "Website widget script",
		tags: ["Widget"],
		handler: "staticAsset",
		responses: {
			"200": { description: "The widget (plain JavaScript, no dependencies).", content: { "text/javascript": { type: "string" } }, headers: ["ETag", "Cache-Control"] },
			"304": { description: "Not modified.", headers: ["ETag", "Cache-Control"] }
		},
		documented: false
	},
	{
		operationId: "getChatbotInfo",
		method: "GET",
		path: "/api/chat/{slug}",
		summary: "Get a chatbot's public info",
		description:
			"Name, language, training status and greeting of a chatbot, for a chat interface. `can_answer` is true once a first training run has completed " +
			"(while a later run is in progress, the chatbot keeps answering from the previous one). Callable from any origin.",
		tags: ["Chat"],
		action: "chat.info",
		params: [slug],
		rateLimit: "chat",
		cors: true,
		responses: { "200": { description: "The chatbot's public info.", content: { "application/json": ref("ChatbotInfo") } }, ...notFound, ...common },
		documented: true
	},
	{
		operationId: "sendChatMessage",
		method: "POST",
		path: "/api/chat/{slug}/messages",
		summary: "Ask a chatbot a question",
		description:
			"Answers from the chatbot's own sources, with citations of the sources used; when nothing relevant is found it says so (`answered: false`). " +
			"One JSON reply by default; with `Accept: text/event-stream`, server-sent events `token` (`{text}`), `citations` (`{citations}`), `done` " +
			"(`{answered, conversation_id, messages_used, max_messages}`) or `error` (an Error body). Every answered message counts against `max_messages`. " +
			"Refusals (unknown chatbot, not trained yet, cap reached, rate limit) are JSON errors with their status, never streams. Callable from any origin.",
		tags: ["Chat"],
		handler: "chatMessage",
		params: [slug],
		body: {
			kind: "json",
			required: true,
			schema: {
				type: "object",
				required: ["message"],
				additionalProperties: false,
				properties: {
					message: { type: "string", minLength: 1, maxLength: MAX_CHAT_MESSAGE_CHARS, description: "The question." },
					conversation_id: { type: "string", maxLength: 100, description: "Continue a conversation: the `conversation_id` of a previous reply." },
					channel: {
						type: "string",
						enum: ["widget", "link"],
						description: "Where the question was asked, for the owner's conversation log: `widget` (the embedded bubble) or `link` (the chat page). Omitted: `api`."
					}
				}
			}
		},
		rateLimit: "chat",
		cors: true,
		responses: {
			"200": {
				description: "The answer: a ChatReply, or an event stream when `Accept: text/event-stream`.",
				content: { "application/json": ref("ChatReply"), "text/event-stream": { type: "string", description: "Events token, citations, done (or error)." } }
			},
			"400": error(`\`invalid_json\` or \`validation_failed\` (\`message\` missing, empty or longer than ${MAX_CHAT_MESSAGE_CHARS} characters).`),
			"415": error("`unsupported_media_type`: the body is not JSON, or uses an unsupported charset or Content-Encoding."),
			...notFound,
			"409": error("`conflict`: the chatbot has not finished its first training yet; the message says so in the chatbot's language. Nothing was counted."),
			"422": error(
				"`message_cap`: the chatbot has answered all the messages it may (for an account's chatbot, in this period); `chatbot_paused`: its account holds more chatbots than its plan allows and its owner has not chosen this one. The message says so in the chatbot's language."
			),
			...common
		},
		documented: true
	},
	{
		operationId: "sendWidgetBeacon",
		method: "POST",
		path: "/t/e",
		summary: "Report a widget usage event",
		description: "Counts `widget_opened` or `message_sent` for a chatbot and the current UTC day. Carries only the slug and the event name. Callable from any origin.",
		tags: ["Widget"],
		action: "chat.track",
		body: {
			kind: "json",
			required: true,
			schema: {
				type: "object",
				required: ["chatbot", "event"],
				additionalProperties: false,
				properties: {
					chatbot: { type: "string", minLength: 1, maxLength: 64, description: "The chatbot's slug." },
					event: { type: "string", enum: ["widget_opened", "message_sent"] }
				}
			}
		},
		rateLimit: "beacon",
		cors: true,
		responses: {
			"204": { description: "Counted." },
			"400": error("`invalid_json` or `validation_failed`: unknown event or missing field."),
			"415": error("`unsupported_media_type`: the body is not JSON, or uses an unsupported charset or Content-Encoding."),
			...notFound,
			...common
		},
		documented: true
	}
];
