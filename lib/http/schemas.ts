/**
 * Named JSON Schemas of the public resources (SPEC §2). The OpenAPI document publishes them under
 * `components.schemas`; the gateway and the tests validate against the same objects.
 */
import { ERROR_CODES } from "../errors";
import type { JsonSchema } from "./routes/types";

const nullable = (type: string, extra: JsonSchema = {}): JsonSchema => ({ type: [type, "null"], ...extra });

export const SOURCE_STATUSES = ["pending", "processing", "ready", "failed"] as const;
export const SESSION_STATUSES = ["queued", "training", "ready"] as const;
export const FAILURE_CODES = ["empty", "char_cap", "unreadable", "file_type", "file_size", "timeout", "blocked", "fetch_failed"] as const;

const sourceFailure: JsonSchema = {
	description: "Why a source failed; null unless status is `failed`.",
	oneOf: [
		{ type: "null" },
		{
			type: "object",
			required: ["code", "message"],
			properties: { code: { type: "string", enum: [...FAILURE_CODES] }, message: { type: "string" } }
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
				enum: [...SESSION_STATUSES],
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
	}
};
