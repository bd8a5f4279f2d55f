/**
 * A chatbot's owner pages for deploying and improving it: Deploy (chat link, embed snippet, widget
 * settings), Conversations, Improve (add an answer) and Analytics. Each page answers HTML to a
 * browser and JSON to `Accept: application/json`; each needs the session cookie of the chatbot's
 * account, and each form is CSRF-protected (a JSON body from a server needs no token).
 */
import { MAX_CHAT_MESSAGE_CHARS } from "../../chat/wire";
import type { ParamDef, RouteDef } from "./types";
import { ref } from "./types";
import { error, needsLogin, refused, seeOther } from "./responses";

const notYours = error("`not_found`: no chatbot of this account has this id (someone else's, expired and unknown ids answer alike).");

const chatbotId: ParamDef = { name: "id", in: "path", required: true, description: "The chatbot's `chatbot_id`.", schema: { type: "string", minLength: 1, maxLength: 100 } };
const csrfToken = { type: "string", maxLength: 200, description: "HTML forms only: the CSRF token of the page. Not needed with a JSON body." };
const html = { "text/html": { type: "string" } };
const okWith = (properties: Record<string, unknown>, required: string[]) => ({
	"application/json": { type: "object", required: ["ok", ...required], properties: { ok: { const: true }, ...properties } }
});

const widgetSettings = {
	type: "object",
	required: ["display_name", "welcome_message", "suggested_questions", "accent_color", "position", "language"],
	properties: {
		display_name: { type: ["string", "null"], maxLength: 80 },
		welcome_message: { type: ["string", "null"], maxLength: 500 },
		suggested_questions: { type: "array", items: { type: "string", maxLength: 120 }, maxItems: 4 },
		accent_color: { type: "string", description: "`#rrggbb`." },
		position: { type: "string", enum: ["right", "left"] },
		language: { type: "string", enum: ["en", "es"] }
	}
};
const deployView = { chat_url: { type: "string", format: "uri" }, embed_snippet: { type: "string" }, widget: widgetSettings };
const citation = ref("Citation");
const exchange = {
	type: "object",
	required: ["question", "answer", "citations", "answered", "at"],
	properties: { question: { type: "string" }, answer: { type: "string" }, citations: { type: "array", items: citation }, answered: { type: "boolean" }, at: { type: "string", format: "date-time" } }
};
const conversation = {
	type: "object",
	required: ["conversation_id", "channel", "started_at", "last_at", "exchanges"],
	properties: {
		conversation_id: { type: "string" },
		channel: { type: "string", enum: ["widget", "link", "api", "telegram", "crisp"] },
		started_at: { type: "string", format: "date-time" },
		last_at: { type: "string", format: "date-time" },
		exchanges: { type: "array", items: exchange }
	}
};
const group = {
	type: "object",
	required: ["question", "count", "declined"],
	properties: { question: { type: "string" }, count: { type: "integer" }, declined: { type: "integer" }, last_at: { type: "string", format: "date-time" }, wordings: { type: "array", items: { type: "string" } } }
};

const base = { tags: ["Dashboard"], params: [chatbotId] };
const root = "/account/chatbots/{id}";

export const insightRoutes: RouteDef[] = [
	{
		...base,
		operationId: "getChatbotDeployment",
		method: "GET",
		path: `${root}/deploy`,
		summary: "A chatbot's chat link, embed snippet and widget settings",
		description: "The Deploy page for browsers; with `Accept: application/json`, the chat link, the embed snippet and the widget settings. Needs the session cookie of the chatbot's account.",
		action: "chatbots.deployPage",
		params: [chatbotId, { name: "saved", in: "query", required: false, description: "`1`: the page says the settings were saved.", schema: { type: "string", enum: ["1"] } }],
		responses: { "200": { description: "The deployment.", content: { ...okWith(deployView, ["chat_url", "embed_snippet", "widget"]), ...html } }, "401": needsLogin, "404": notYours },
		documented: true
	},
	{
		...base,
		operationId: "updateWidgetSettings",
		method: "POST",
		path: `${root}/deploy/widget`,
		summary: "Change a chatbot's widget settings",
		description:
			"Display name, welcome message, suggested questions (one per line, at most 4), accent colour, bubble position and widget language, used by the widget and the chat link from the next time they load. Fields left out keep their value; an empty display name or welcome message goes back to the default. Nothing is saved when a field is refused.",
		action: "chatbots.saveWidget",
		body: {
			kind: "form",
			description: "A JSON body answers JSON; a form answers with a redirect to the Deploy page.",
			schema: {
				type: "object",
				additionalProperties: false,
				properties: {
					display_name: { type: "string", maxLength: 1000, description: "At most 80 characters, one line." },
					welcome_message: { type: "string", maxLength: 5000, description: "At most 500 characters." },
					suggested_questions: { type: "string", maxLength: 5000, description: "One question per line; at most 4 of at most 120 characters." },
					accent_color: { type: "string", maxLength: 100, description: "`#rrggbb` or `#rgb`." },
					position: { type: "string", maxLength: 100, description: "`right` or `left`." },
					language: { type: "string", maxLength: 100, description: "`en` or `es`." },
					csrf_token: csrfToken
				}
			}
		},
		responses: {
			"200": { description: "Saved (JSON).", content: okWith(deployView, ["chat_url", "embed_snippet", "widget"]) },
			"303": seeOther("the Deploy page"),
			"400": error("`validation_failed`: a field is refused (`errors.fields` names each); nothing was saved."),
			"401": needsLogin,
			"403": refused,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "listChatbotConversations",
		method: "GET",
		path: `${root}/conversations`,
		summary: "A chatbot's conversation log",
		description:
			"Every conversation on the widget, the chat link, the chat API, Telegram and Crisp, newest first, each exchange with its answer, citations and whether the chatbot answered or declined. Kept 90 days for an account's chatbots (8 for a sandbox). Needs the session cookie.",
		action: "chat.conversationsPage",
		params: [chatbotId, { name: "filter", in: "query", required: false, description: "`unanswered`: only conversations with a declined question.", schema: { type: "string", enum: ["all", "unanswered"] } }],
		responses: {
			"200": { description: "The log.", content: { ...okWith({ retention_days: { type: "integer" }, conversations: { type: "array", items: conversation } }, ["retention_days", "conversations"]), ...html } },
			"400": error("`validation_failed`: an unknown filter."),
			"401": needsLogin,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "listQuestionsToImprove",
		method: "GET",
		path: `${root}/improve`,
		summary: "Questions a chatbot declined or answered without a source, grouped",
		description: "Alike questions (the same content words) form one group, the largest first. Questions given an answer leave the list. Needs the session cookie.",
		action: "chat.improvePage",
		params: [chatbotId, { name: "added", in: "query", required: false, description: "The page says an answer was just added (`answer`) and retraining started (`train`).", schema: { type: "string", enum: ["answer", "train"] } }],
		responses: {
			"200": { description: "The groups.", content: { ...okWith({ needs_retrain: { type: "boolean" }, groups: { type: "array", items: group } }, ["needs_retrain", "groups"]), ...html } },
			"401": needsLogin,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "addAnswerToQuestion",
		method: "POST",
		path: `${root}/improve/answers`,
		summary: "Answer a question the chatbot could not",
		description:
			"Adds `question` and `answer` as a Q&A pair source; with `then=train` (the default) training starts at once, with `then=none` the chatbot is marked as needing retraining. The question's group leaves the Improve list.",
		action: "chat.addAnswer",
		body: {
			kind: "form",
			description: "A JSON body answers JSON; a form answers with a redirect to the Improve page.",
			schema: {
				type: "object",
				required: ["question", "answer"],
				additionalProperties: false,
				properties: {
					question: { type: "string", maxLength: MAX_CHAT_MESSAGE_CHARS },
					answer: { type: "string", maxLength: 5000 },
					group: { type: "string", maxLength: 4000, description: "The group's key as the page gives it; its other wordings leave the list too." },
					then: { type: "string", enum: ["train", "none"] },
					csrf_token: csrfToken
				}
			}
		},
		responses: {
			"201": { description: "Added.", content: okWith({ source_id: { type: "string" }, training: { type: "boolean" }, resolved: { type: "integer" } }, ["source_id", "training", "resolved"]) },
			"303": seeOther("the Improve page"),
			"400": error("`validation_failed`: an empty question or answer."),
			"401": needsLogin,
			"403": refused,
			"404": notYours,
			"422": error("`char_cap`: the chatbot's training characters are used up; nothing was added.")
		},
		documented: true
	},
	{
		...base,
		operationId: "getChatbotAnalytics",
		method: "GET",
		path: `${root}/analytics`,
		summary: "A chatbot's messages, widget opens and top questions",
		description: "Per UTC day: answered and declined messages (every channel) and widget opens (the widget's beacons); and the questions asked most. Charts for browsers. Needs the session cookie.",
		action: "chat.analyticsPage",
		params: [chatbotId, { name: "days", in: "query", required: false, description: "The range: 7, 30 (default) or 90 days.", schema: { type: "string", enum: ["7", "30", "90"] } }],
		responses: {
			"200": {
				description: "The figures.",
				content: {
					...okWith(
						{
							days: { type: "integer" },
							per_day: {
								type: "array",
								items: { type: "object", required: ["day", "answered", "declined", "widget_opened"], properties: { day: { type: "string", format: "date" }, answered: { type: "integer" }, declined: { type: "integer" }, widget_opened: { type: "integer" } } }
							},
							top_questions: { type: "array", items: group }
						},
						["days", "per_day", "top_questions"]
					),
					...html
				}
			},
			"400": error("`validation_failed`: a range other than 7, 30 or 90."),
			"401": needsLogin,
			"404": notYours
		},
		documented: true
	}
];
