/**
 * Named JSON Schemas of the public resources (SPEC §2). The OpenAPI document publishes them under
 * `components.schemas`; the gateway and the tests validate against the same objects.
 */
import { SOURCE_STATUSES } from "../chatbots/model";
import { DEMO_STATUSES } from "../chatbots/status";
import { DISCOVERY_SCHEMAS } from "../discovery/schemas";
import { ERROR_CODES } from "../errors";
import { SOURCE_FAILURE_CODES } from "../failures";
import type { JsonSchema } from "./routes/types";

const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, "null"], ...extra });


const sourceFailure: JsonSchema = {
	description: "Why a source failed; null unless status is `failed`.",
	oneOf: [
		{ type: "null" },
		{
			type: "object",
			required: ["code", "message"],
			properties: { code: { type: "string", enum: [...SOURCE_FAILURE_CODES] }, message: { type: "string" } }
		}
	]
};

const sourceStatus: JsonSchema = {
	type: "string",
	enum: [...SOURCE_STATUSES],
	description:
		"Extraction status: `pending` (waiting for extraction), `processing`, `ready` (text extracted and counted), `failed` (see `failure`)."
};

export const SCHEMAS: Record<string, JsonSchema> = {
	Error: {
		type: "object",
		required: ["ok", "code", "status", "message", "hint"],
		properties: {
			ok: { const: false },
			code: { type: "string", enum: Object.keys(ERROR_CODES), description: "Stable machine key; branch on it." },
			status: { type: "integer", description: "The HTTP status of the response." },
			message: { type: "string" },
			hint: { type: "string", description: "Recovery: retry, change an input, or stop." },
			error: { type: "string", deprecated: true, description: "Deprecated alias of `code`." },
			documentation_url: { type: "string", format: "uri" },
			errors: {
				type: "object",
				required: ["detail"],
				properties: {
					detail: { type: "string" },
					fields: {
						type: "array",
						items: { type: "object", required: ["field", "message"], properties: { field: { type: "string" }, message: { type: "string" } } }
					}
				}
			}
		},
		examples: [
			{
				ok: false,
				code: "expired",
				status: 404,
				message: "No live demo session has this id.",
				hint: ERROR_CODES.expired.hint,
				error: "expired",
				documentation_url: "https://example.com/docs/reference/errors#expired"
			}
		]
	},
	Health: {
		type: "object",
		required: ["status", "database", "service", "version", "time"],
		properties: {
			status: { type: "string", enum: ["ok", "unavailable"] },
			database: { type: "string", enum: ["ok", "unreachable"] },
			service: { const: "chatbot-builder" },
			version: { type: "string" },
			time: { type: "string", format: "date-time" },
			documentation_url: { type: "string", format: "uri" }
		}
	},
	DemoCaps: {
		type: "object",
		required: ["max_messages", "max_urls", "max_chars", "max_files"],
		properties: {
			max_messages: { type: "integer", description: "Messages the demo will answer." },
			max_urls: { type: "integer" },
			max_chars: { type: "integer", description: "Total training characters." },
			max_files: { type: "integer" }
		}
	},
	DemoUrl: {
		type: "object",
		required: ["id", "url", "status"],
		properties: {
			id: { type: "string", format: "uuid" },
			url: { type: "string", format: "uri" },
			status: sourceStatus,
			domain: nullable("string"),
			title: nullable("string"),
			char_count: nullable("integer", { description: "Characters extracted." }),
			failure: sourceFailure
		}
	},
	DemoFile: {
		type: "object",
		required: ["id", "status"],
		properties: {
			id: { type: "string", format: "uuid" },
			status: sourceStatus,
			title: nullable("string"),
			file_name: nullable("string"),
			char_count: nullable("integer"),
			failure: sourceFailure
		}
	},
	DemoText: {
		type: "object",
		required: ["id", "status"],
		properties: {
			id: { type: "string", format: "uuid" },
			status: sourceStatus,
			char_count: nullable("integer"),
			failure: sourceFailure
		}
	},
	DemoSources: {
		type: "object",
		required: ["urls", "files", "texts"],
		properties: {
			urls: { type: "array", items: { $ref: "#/components/schemas/DemoUrl" } },
			files: { type: "array", items: { $ref: "#/components/schemas/DemoFile" } },
			texts: { type: "array", items: { $ref: "#/components/schemas/DemoText" } }
		}
	},
	DemoSession: {
		type: "object",
		required: ["session_id", "slug", "status", "caps", "sources"],
		properties: {
			session_id: { type: "string", description: "Opaque; authorizes every other call in the demo group." },
			slug: { type: "string" },
			status: {
				type: "string",
				enum: [...DEMO_STATUSES],
				description: "`queued` (not trained yet), `training` (a run is in progress), `ready` (can answer)."
			},
			caps: { $ref: "#/components/schemas/DemoCaps" },
			sources: { $ref: "#/components/schemas/DemoSources" },
			messages_used: { type: "integer" },
			chars_used: { type: "integer" },
			needs_retrain: { type: "boolean" },
			locale: { type: "string", enum: ["en", "es"] },
			expires_at: { type: "string", format: "date-time" },
			chat_url: { type: "string", format: "uri" },
			embed_snippet: { type: "string" }
		}
	},
	DemoSessionResponse: {
		type: "object",
		required: ["ok", "demo"],
		properties: { ok: { const: true }, demo: { $ref: "#/components/schemas/DemoSession" } }
	},
	JsonRpcRequest: {
		type: "object",
		description: "A JSON-RPC 2.0 request, or a notification when `id` is absent (SPEC §2.9). A top-level array of them is a batch.",
		required: ["jsonrpc", "method"],
		properties: {
			jsonrpc: { const: "2.0" },
			method: { type: "string", minLength: 1, examples: ["initialize", "tools/list", "tools/call"] },
			id: { type: ["string", "integer"], description: "Omit for a notification (answered 202 with no body)." },
			params: { type: "object", description: "For tools/call: `name` (the tool) and `arguments` (an object)." }
		},
		examples: [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "create_chatbot", arguments: { website_url: "https://example.com", language: "en" } } }]
	},
	JsonRpcResponse: {
		type: "object",
		description: "A JSON-RPC 2.0 response: exactly one of `result` or `error`. `id` is null only when the request's id could not be read.",
		required: ["jsonrpc", "id"],
		properties: {
			jsonrpc: { const: "2.0" },
			id: { type: ["string", "integer", "null"] },
			result: { type: "object" },
			error: {
				type: "object",
				required: ["code", "message"],
				properties: {
					code: {
						type: "integer",
						description: "-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params or unknown tool, -32603 internal error."
					},
					message: { type: "string" },
					data: { type: "object" }
				}
			}
		},
		oneOf: [{ required: ["result"] }, { required: ["error"] }]
	},
	Account: {
		type: "object",
		required: ["id", "email", "plan", "created_at"],
		properties: {
			id: { type: "string" },
			email: { type: "string", format: "email" },
			plan: { type: "string", enum: ["free", "pro", "business"], description: "New accounts start on `free`." },
			created_at: { type: "string", format: "date-time" }
		}
	},
	AccountResponse: {
		type: "object",
		required: ["ok", "account"],
		properties: { ok: { const: true }, account: { $ref: "#/components/schemas/Account" } }
	},
	ApiKey: {
		type: "object",
		required: ["id", "last4", "created_at", "revoked"],
		properties: {
			id: { type: "string", description: "Public identifier, for revoking." },
			name: { type: ["string", "null"] },
			last4: { type: "string", description: "Last four characters of the key." },
			created_at: { type: "string", format: "date-time" },
			last_used_at: { type: ["string", "null"], format: "date-time" },
			revoked: { type: "boolean" }
		}
	},
	ApiKeyCreated: {
		type: "object",
		required: ["ok", "key", "api_key"],
		properties: {
			ok: { const: true },
			key: { type: "string", pattern: "^cbk_live_[0-9A-Za-z]{32}$", description: "The full key. Shown this once: only its SHA-256 hash is stored." },
			api_key: { $ref: "#/components/schemas/ApiKey" }
		}
	},
	ApiKeyRevoked: {
		type: "object",
		required: ["ok", "api_key"],
		properties: { ok: { const: true }, api_key: { $ref: "#/components/schemas/ApiKey" } }
	},
	ClaimResult: {
		type: "object",
		required: ["ok", "chatbot"],
		properties: {
			ok: { const: true },
			chatbot: {
				type: "object",
				required: ["chatbot_id", "name", "chat_url"],
				properties: {
					chatbot_id: { type: "string" },
					name: { type: "string" },
					chat_url: { type: "string", format: "uri" }
				}
			}
		}
	},
	OkResponse: {
		type: "object",
		required: ["ok"],
		properties: { ok: { const: true } }
	},
	UploadTarget: {
		type: "object",
		required: ["ok", "upload_url", "s3_key"],
		properties: {
			ok: { const: true },
			upload_url: { type: "string", format: "uri", description: "Presigned PUT target; expires 10 minutes after issue." },
			s3_key: { type: "string", description: "Quote it back to addDemoSessionFile as file_s3_key." },
			expires_at: { type: "string", format: "date-time" },
			headers: {
				type: "object",
				additionalProperties: { type: "string" },
				description: "Headers the PUT must carry (Content-Type)."
			}
		}
	},
	ChatbotInfo: {
		type: "object",
		required: ["ok", "slug", "name", "locale", "status", "can_answer", "greeting"],
		properties: {
			ok: { const: true },
			slug: { type: "string" },
			name: { type: "string", description: "The name the chat shows: the owner's display name, or the chatbot's name." },
			locale: { type: "string", enum: ["en", "es"], description: "Language of the chat's own words (buttons, notices, default greeting), as the owner set it for the widget." },
			status: { type: "string", enum: [...DEMO_STATUSES], description: "Training status: `queued`, `training` or `ready`." },
			can_answer: { type: "boolean", description: "True once a training run has completed; during a retraining the previous index keeps answering." },
			greeting: { type: "string", description: "First message of a chat: the owner's welcome message, or a greeting in `locale`." },
			suggested_questions: { type: "array", items: { type: "string" }, maxItems: 4, description: "Questions a visitor can press instead of typing (owner's widget settings)." },
			accent_color: { type: "string", description: "`#rrggbb` colour of the widget's header, bubble and buttons." },
			accent_text_color: { type: "string", description: "`#rrggbb` text colour that reads best on `accent_color`." },
			position: { type: "string", enum: ["right", "left"], description: "The corner of the page the widget's bubble sits in." },
			messages_used: { type: "integer", description: "Messages answered so far (for an account's chatbot: in the current period)." },
			max_messages: { type: "integer", description: "Messages the chatbot will answer in all (for an account's chatbot: per period)." },
			paused: { type: "boolean", description: "True while the chatbot does not answer because its account holds more chatbots than its plan allows (422 `chatbot_paused`)." }
		}
	},
	Citation: {
		type: "object",
		required: ["source_id", "title"],
		description: "A source the answer came from; only retrieved sources are ever cited.",
		properties: {
			source_id: { type: "string" },
			title: { type: "string", description: "Page title, file name, or a label for pasted text." },
			url: { type: "string", format: "uri", description: "For a web page." },
			file_name: { type: "string", description: "For a file." }
		}
	},
	ChatReply: {
		type: "object",
		required: ["ok", "answer", "citations", "answered", "conversation_id", "messages_used", "max_messages"],
		properties: {
			ok: { const: true },
			answer: { type: "string", description: "Plain text (never HTML)." },
			citations: { type: "array", items: { $ref: "#/components/schemas/Citation" } },
			answered: { type: "boolean", description: "False when nothing relevant was found and the chatbot said so instead of guessing." },
			conversation_id: { type: "string", description: "Send it back with the next message to continue the conversation." },
			messages_used: { type: "integer" },
			max_messages: { type: "integer" }
		}
	},
	...DISCOVERY_SCHEMAS
};
