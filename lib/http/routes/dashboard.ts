/**
 * The owner's dashboard of a chatbot: its pages for browsers and their JSON twins for programs
 * (`Accept: application/json`, or a JSON body), all under `/account/chatbots/{id}`. Each needs the
 * session cookie of the chatbot's account (`owns: "chatbot"`, middlewares/owns.middleware.ts);
 * any other id answers 404 `not_found`. Forms carry a CSRF token; JSON bodies need none.
 */
import { SOURCE_FAILURE_CODES } from "../../failures";
import { CHATBOT_PHASES } from "../../chatbots/status";
import { CRAWL_STATUSES, SOURCE_KINDS, SOURCE_STATUSES } from "../../chatbots/model";
import type { JsonSchema, ParamDef, RouteDef } from "./types";
import { ref } from "./types";
import { error, needsLogin, refused, seeOther } from "./responses";

const notYours = error("`not_found`: no chatbot of this account has this id.");

export const chatbotIdParam: ParamDef = { name: "id", in: "path", required: true, description: "The chatbot's `chatbot_id`.", schema: { type: "string", minLength: 1, maxLength: 100 } };
export const csrfTokenSchema = { type: "string", maxLength: 200, description: "HTML forms only: the CSRF token of the page. Not needed with a JSON body." };

const tally: JsonSchema = {
	type: "object",
	required: ["total", "ready", "in_progress", "failed"],
	properties: { total: { type: "integer" }, ready: { type: "integer" }, in_progress: { type: "integer" }, failed: { type: "integer" } }
};
const dateTime = (description: string): JsonSchema => ({ type: ["string", "null"], format: "date-time", description });

export const dashboardViewSchema: JsonSchema = {
	type: "object",
	required: ["chatbot_id", "name", "status", "status_label", "can_answer", "needs_retrain", "failure_reason", "chat_url", "crawl", "training", "sources", "usage"],
	properties: {
		chatbot_id: { type: "string" },
		name: { type: "string" },
		status: { type: "string", enum: [...CHATBOT_PHASES], description: "`crawling`, `training`, `ready`, `failed` (see `failure_reason`) or `idle` (not trained yet)." },
		status_label: { type: "string", description: "The status in words, as the page shows it." },
		can_answer: { type: "boolean", description: "An index answers (possibly the previous one while retraining)." },
		needs_retrain: { type: "boolean", description: "Sources changed since the last training." },
		failure_reason: { type: ["string", "null"] },
		chat_url: { type: "string", format: "uri" },
		crawl: {
			type: "object",
			required: ["status", "start_url", "found", "crawled", "failed", "max_pages"],
			properties: {
				status: { type: "string", enum: [...CRAWL_STATUSES] },
				start_url: { type: ["string", "null"] },
				found: { type: "integer" },
				crawled: { type: "integer" },
				failed: { type: "integer" },
				max_pages: { type: "integer" }
			}
		},
		training: {
			type: "object",
			required: ["running", "started_at", "last_error"],
			properties: { running: { type: "boolean" }, started_at: dateTime("When the run in progress started."), last_error: { type: ["string", "null"] } }
		},
		sources: { type: "object", required: [...SOURCE_KINDS], properties: Object.fromEntries(SOURCE_KINDS.map(kind => [kind, tally])) },
		usage: {
			type: "object",
			required: ["messages_used", "messages_limit", "chars_used", "chars_limit", "period_end"],
			properties: {
				messages_used: { type: "integer", description: "Messages answered in the current period." },
				messages_limit: { type: "integer" },
				chars_used: { type: "integer" },
				chars_limit: { type: "integer" },
				period_end: dateTime("End of the current message period; null for a lifetime count.")
			}
		}
	}
};

export const sourceRowSchema: JsonSchema = {
	type: "object",
	required: ["id", "kind", "status", "label", "char_count", "fetched_at", "failure"],
	properties: {
		id: { type: "string" },
		kind: { type: "string", enum: [...SOURCE_KINDS] },
		status: { type: "string", enum: [...SOURCE_STATUSES] },
		label: { type: "string", description: "The page's address, the file's name, the text's opening or the question." },
		url: { type: ["string", "null"] },
		title: { type: ["string", "null"] },
		char_count: { type: ["integer", "null"] },
		fetched_at: dateTime("When the page was last fetched, the file read or the text added."),
		failure: {
			oneOf: [{ type: "null" }, { type: "object", required: ["code", "message"], properties: { code: { type: "string", enum: [...SOURCE_FAILURE_CODES] }, message: { type: "string" } } }]
		}
	}
};

const okWith = (properties: Record<string, JsonSchema>, required: string[]): Record<string, JsonSchema> => ({
	"application/json": { type: "object", required: ["ok", ...required], properties: { ok: { const: true }, ...properties } }
});
const onlyCsrf = { kind: "form" as const, schema: { type: "object", additionalProperties: false, properties: { csrf_token: csrfTokenSchema } } };
const base = { tags: ["Dashboard"], params: [chatbotIdParam] };
const root = "/account/chatbots/{id}";

export const dashboardRoutes: RouteDef[] = [
	{
		tags: ["Dashboard"],
		operationId: "showNewChatbotPage",
		method: "GET",
		path: "/account/chatbots/new",
		summary: "New chatbot page",
		action: "chatbots.dashboardNewPage",
		responses: { "200": { description: "The form.", content: { "text/html": { type: "string" } } }, "303": seeOther("the log-in page when not logged in") },
		documented: false
	},
	{
		tags: ["Dashboard"],
		operationId: "createAccountChatbot",
		method: "POST",
		path: "/account/chatbots",
		summary: "Create a chatbot",
		description:
			"Creates a chatbot in the logged-in account under its plan. With `website_url` (and `start` `website` or absent) its site is read within the plan's page limit, sitemap.xml included, and it trains when done; with `start: \"content\"` it starts empty for files, text and Q&A pairs.",
		action: "chatbots.dashboardCreate",
		body: {
			kind: "form",
			schema: {
				type: "object",
				additionalProperties: false,
				properties: {
					name: { type: "string", maxLength: 200, description: "Default: the website's host name, or \"My chatbot\"." },
					language: { type: "string", enum: ["en", "es"], description: "Language of its answers (default `en`)." },
					start: { type: "string", enum: ["website", "content"] },
					website_url: { type: "string", maxLength: 2048 },
					csrf_token: csrfTokenSchema
				}
			}
		},
		responses: {
			"201": { description: "Created; `Location` is its dashboard.", content: okWith({ dashboard: dashboardViewSchema }, ["dashboard"]), headers: ["Location"] },
			"303": seeOther("the new chatbot's dashboard"),
			"400": error("`validation_failed`: no usable website address."),
			"401": needsLogin,
			"403": error("`forbidden`: a foreign Origin or a missing CSRF token, or the plan's chatbot limit is reached.")
		},
		documented: true
	},
	{
		...base,
		operationId: "getChatbotDashboard",
		method: "GET",
		path: root,
		summary: "A chatbot's dashboard overview",
		description:
			"The Overview page for browsers; with `Accept: application/json`, the chatbot's status, crawl and training progress, sources by kind and usage against the plan, and `underway` (a crawl, a training run or a file's reading is in progress). The page polls this while work is under way.",
		action: "chatbots.dashboardOverview",
		responses: {
			"200": { description: "The dashboard.", content: { ...okWith({ underway: { type: "boolean" }, dashboard: dashboardViewSchema }, ["underway", "dashboard"]), "text/html": { type: "string" } } },
			"401": needsLogin,
			"404": notYours
		},
		documented: true
	},
	{
		...base,
		operationId: "showChatbotTryPage",
		method: "GET",
		path: `${root}/try`,
		summary: "Try a chatbot (page)",
		description: "A chat box in the dashboard that talks to POST /api/chat/{slug}/messages.",
		action: "chatbots.dashboardTry",
		responses: { "200": { description: "The Try it page.", content: { "text/html": { type: "string" } } }, "303": seeOther("the log-in page when not logged in"), "404": { description: "Not a chatbot of this account: a page saying so." } },
		documented: false
	},
	{
		...base,
		operationId: "trainChatbot",
		method: "POST",
		path: `${root}/training`,
		summary: "Retrain a chatbot",
		description: "Starts a training run on the chatbot's current sources; the index it answers from keeps answering until the run is done. Follow progress with GET /account/chatbots/{id}.",
		action: "chatbots.dashboardTrain",
		body: onlyCsrf,
		responses: {
			"202": { description: "Training started.", content: okWith({ underway: { const: true }, dashboard: dashboardViewSchema }, ["underway", "dashboard"]) },
			"303": seeOther("the overview"),
			"401": needsLogin,
			"403": refused,
			"404": notYours,
			"422": error("`empty`: no source has readable text; `char_cap`: the sources hold more characters than the plan allows.")
		},
		documented: true
	},
	{
		...base,
		operationId: "deleteChatbot",
		method: "POST",
		path: `${root}/delete`,
		summary: "Delete a chatbot",
		description: "Deletes the chatbot with its sources, uploaded files and vectors; its chat link and widget stop answering. Needs `confirm: \"yes\"`.",
		action: "chatbots.dashboardDelete",
		body: {
			kind: "form",
			schema: {
				type: "object",
				required: ["confirm"],
				additionalProperties: false,
				properties: { confirm: { const: "yes", description: "Confirms the deletion." }, csrf_token: csrfTokenSchema }
			}
		},
		responses: {
			"200": { description: "Deleted.", content: okWith({ deleted: { const: true }, chatbot_id: { type: "string" }, sources: { type: "integer" }, files: { type: "integer" } }, ["deleted", "chatbot_id"]) },
			"303": seeOther("the account page"),
			"400": error("`validation_failed`: `confirm` is not `yes`."),
			"401": needsLogin,
			"403": refused,
			"404": notYours
		},
		documented: true
	},
	...sourceRoutes()
];

function sourceRoutes(): RouteDef[] {
	const sources = `${root}/sources`;
	const sourceId: ParamDef = { name: "source_id", in: "path", required: true, description: "The source's `id` (from GET /account/chatbots/{id}/sources).", schema: { type: "string", minLength: 1, maxLength: 100 } };
	const addedRow = { "201": { description: "Added.", content: okWith({ source: sourceRowSchema }, ["source"]) }, "303": seeOther("the Sources tab") };
	const form = (required: string[], properties: Record<string, JsonSchema>) => ({
		kind: "form" as const,
		description: "A JSON body answers JSON; a form answers with a redirect to the Sources tab (or the tab again with the reason).",
		schema: { type: "object", required, additionalProperties: false, properties: { ...properties, csrf_token: csrfTokenSchema } }
	});
	const owned = { "401": needsLogin, "403": refused, "404": notYours };
	const caps = error("`url_cap`, `file_cap` or `char_cap`: the plan's limit for this chatbot is reached; nothing was added. `empty`: nothing to train on (the cause in `errors.detail`).");
	return [
		{
			...base,
			operationId: "listChatbotSources",
			method: "GET",
			path: sources,
			summary: "A chatbot's sources",
			description: "The Sources page for browsers; with `Accept: application/json`, every page, file, text and Q&A pair with its status, characters, when it was fetched or added, and why it failed.",
			action: "chatbots.dashboardSources",
			responses: {
				"200": { description: "The sources.", content: { ...okWith({ sources: { type: "array", items: sourceRowSchema }, dashboard: dashboardViewSchema }, ["sources", "dashboard"]), "text/html": { type: "string" } } },
				"401": needsLogin,
				"404": notYours
			},
			documented: true
		},
		{
			...base,
			operationId: "addChatbotPage",
			method: "POST",
			path: `${sources}/pages`,
			summary: "Add a web page",
			description: "Fetches the page now (robots.txt and the address guard apply) and adds its text. The chatbot then needs retraining.",
			action: "chatbots.dashboardAddPage",
			body: form(["url"], { url: { type: "string", maxLength: 2048, description: "The page's full http(s) address." } }),
			responses: { ...addedRow, "400": error("`validation_failed`: not an http(s) address."), ...owned, "422": caps },
			documented: true
		},
		{
			...base,
			operationId: "addChatbotText",
			method: "POST",
			path: `${sources}/texts`,
			summary: "Add a text",
			action: "chatbots.dashboardAddText",
			body: form(["text"], { text: { type: "string", maxLength: 50000 }, title: { type: "string", maxLength: 200 } }),
			responses: { ...addedRow, "400": error("`validation_failed`: the text is empty."), ...owned, "422": caps },
			documented: true
		},
		{
			...base,
			operationId: "addChatbotQa",
			method: "POST",
			path: `${sources}/qa`,
			summary: "Add a question-and-answer pair",
			action: "chatbots.dashboardAddQa",
			body: form(["question", "answer"], { question: { type: "string", maxLength: 1000 }, answer: { type: "string", maxLength: 10000 } }),
			responses: { ...addedRow, "400": error("`validation_failed`: the question or the answer is empty."), ...owned, "422": caps },
			documented: true
		},
		{
			...base,
			operationId: "createChatbotUpload",
			method: "POST",
			path: `${sources}/uploads`,
			summary: "Get an upload address for a file",
			description: "Step 1 of adding a file: a presigned PUT address (10 minutes). PUT the bytes with the declared Content-Type, then POST /account/chatbots/{id}/sources/files with the `s3_key`.",
			action: "chatbots.dashboardCreateUpload",
			body: form(["filename", "content_type"], {
				filename: { type: "string", maxLength: 300 },
				content_type: { type: "string", maxLength: 200, description: "`application/pdf`, DOCX, `application/msword`, `text/plain` or `text/markdown`." },
				size: { type: "integer", minimum: 0, description: "Bytes; above 10,000,000 is refused with `file_size`." }
			}),
			responses: { "200": { description: "The upload target.", content: { "application/json": ref("UploadTarget") } }, ...owned, "422": error("`file_cap`, `file_type` or `file_size`.") },
			documented: true
		},
		{
			...base,
			operationId: "addChatbotFile",
			method: "POST",
			path: `${sources}/files`,
			summary: "Attach an uploaded file",
			description: "Step 2 of adding a file: attaches the uploaded object; its text is read in the background (watch its status in the sources).",
			action: "chatbots.dashboardAddFile",
			body: form(["file_name", "file_s3_key"], {
				file_name: { type: "string", maxLength: 300 },
				file_s3_key: { type: "string", maxLength: 400 },
				file_size: { type: "integer", minimum: 0 },
				file_content_type: { type: "string", maxLength: 200 }
			}),
			responses: {
				"201": { description: "Attached; status `pending` until read.", content: okWith({ source: sourceRowSchema }, ["source"]) },
				"400": error("`validation_failed`: the key was not issued to this chatbot."),
				...owned,
				"409": error("`conflict`: this upload is already attached."),
				"422": error("`file_cap`, `file_type` or `file_size`.")
			},
			documented: true
		},
		{
			...base,
			params: [chatbotIdParam, sourceId],
			operationId: "removeChatbotSource",
			method: "POST",
			path: `${sources}/{source_id}/remove`,
			summary: "Remove a source",
			description:
				"Removes the source, its uploaded file and its characters, and retrains the chatbot without it (the previous training answers until then); with no text left, its vectors are deleted. Needs `confirm: \"yes\"`; a browser form without it gets a confirmation page.",
			action: "chatbots.dashboardRemoveSource",
			body: form([], { confirm: { const: "yes" } }),
			responses: {
				"200": {
					description: "Removed (HTML forms without `confirm`: the confirmation page).",
					content: {
						...okWith({ removed: sourceRowSchema, files: { type: "integer" }, retraining: { type: "boolean" }, vectors_deleted: { type: "boolean" } }, ["removed", "files", "retraining", "vectors_deleted"]),
						"text/html": { type: "string" }
					}
				},
				"303": seeOther("the Sources tab"),
				"400": error("`validation_failed`: `confirm` is not `yes`."),
				...owned
			},
			documented: true
		},
		{
			...base,
			params: [chatbotIdParam, sourceId],
			operationId: "refetchChatbotPage",
			method: "POST",
			path: `${sources}/{source_id}/refetch`,
			summary: "Fetch a page again",
			description: "Fetches a page source again and replaces its text; the chatbot then needs retraining. When the page cannot be fetched now the source keeps its text.",
			action: "chatbots.dashboardRefetchSource",
			body: onlyCsrf,
			responses: { "200": { description: "Fetched again.", content: okWith({ source: sourceRowSchema }, ["source"]) }, "303": seeOther("the Sources tab"), "400": error("`validation_failed`: the source is not a web page."), ...owned, "422": caps },
			documented: true
		}
	];
}

