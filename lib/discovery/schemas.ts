/**
 * Named JSON Schemas of the discovery documents (SPEC §2.8), merged into `SCHEMAS` and so published
 * in the OpenAPI document. Fields the SPEC calls required are required; the optional ones are
 * described but not required, so a client can tell which it may rely on.
 */
import type { JsonSchema } from "../http/routes/types";
import { ref } from "../http/routes/types";

const uri = (description: string): JsonSchema => ({ type: "string", format: "uri", description });
const text = (description: string): JsonSchema => ({ type: "string", description });
const STREAMABLE_HTTP: JsonSchema = { const: "streamable-http", description: "The MCP Streamable HTTP transport." };

export const DISCOVERY_SCHEMAS: Record<string, JsonSchema> = {
	EndpointSummary: {
		type: "object",
		description: "One callable operation.",
		required: ["path", "method", "operation_id", "summary", "tags"],
		properties: {
			path: text("Path template relative to the base URL, e.g. `/api/tools/sessions/{session_id}`."),
			method: { type: "string", enum: ["GET", "POST", "PUT", "PATCH", "DELETE"] },
			operation_id: text("The operationId in the OpenAPI document."),
			summary: { type: "string" },
			tags: { type: "array", items: { type: "string" } }
		}
	},
	RateLimitPolicies: {
		type: "object",
		required: ["description", "headers", "policies"],
		properties: {
			description: { type: "string" },
			headers: { type: "array", items: { type: "string" }, description: "Names of the rate-limit response headers." },
			policies: {
				type: "array",
				items: {
					type: "object",
					required: ["name", "scope", "limit", "window_seconds"],
					properties: {
						name: text("Policy name, as the `RateLimit-Policy` header reports it."),
						scope: text("What the budget covers and how callers are told apart."),
						limit: { type: "integer", minimum: 1, description: "Requests allowed per window." },
						window_seconds: { type: "integer", minimum: 1 }
					}
				}
			}
		}
	},
	Deprecation: {
		type: "object",
		description: "A surface scheduled for removal.",
		required: ["path_prefix", "deprecated_at", "sunset_at", "successor"],
		properties: {
			path_prefix: text("Every path under this prefix is deprecated."),
			deprecated_at: { type: "string", format: "date-time" },
			sunset_at: { type: "string", format: "date-time", description: "After this instant the surface stops answering." },
			successor: uri("The replacement surface.")
		}
	},
	VersioningPolicy: {
		type: "object",
		required: ["scheme", "current", "policy_url", "deprecations", "major", "deprecation_headers"],
		properties: {
			scheme: { const: "url-path", description: "A breaking change takes a new URL path prefix." },
			current: text("The contract version, echoed in every `API-Version` header."),
			major: { type: "integer", minimum: 1 },
			policy_url: uri("The versioning and deprecation policy."),
			deprecations: {
				type: "array",
				items: ref("Deprecation"),
				description: "Surfaces scheduled for removal; empty means nothing is scheduled."
			},
			deprecation_headers: {
				type: "array",
				items: { type: "string" },
				description: "Headers a deprecated surface carries for its whole notice period."
			}
		}
	},
	ApiIndex: {
		type: "object",
		description: "The starting point for programs: every endpoint, limits, errors, versioning, authentication and the tool server.",
		required: ["name", "version", "documentation_url", "openapi_url", "versioning", "rate_limits", "errors", "endpoints"],
		properties: {
			name: { type: "string" },
			version: text("The contract version."),
			description: { type: "string" },
			documentation_url: uri("The human documentation."),
			openapi_url: uri("The OpenAPI 3.1 document (JSON)."),
			openapi_yaml_url: uri("The same document as YAML."),
			status_url: uri("The health check."),
			contact_email: { type: "string", format: "email" },
			terms_of_service: text("The terms of use of the keyless surfaces, in brief."),
			versioning: ref("VersioningPolicy"),
			rate_limits: ref("RateLimitPolicies"),
			errors: {
				type: "object",
				required: ["description", "media_type", "schema_url", "example"],
				properties: {
					description: { type: "string" },
					media_type: { const: "application/json" },
					schema_url: uri("The Error schema inside the OpenAPI document."),
					example: ref("Error")
				}
			},
			endpoints: { type: "array", items: ref("EndpointSummary"), description: "Every callable endpoint; inbound webhooks are never listed." },
			authentication: {
				type: "object",
				required: ["type", "required", "description", "instructions_url", "token_prefix"],
				properties: {
					type: { const: "bearer" },
					required: { type: "boolean", description: "False: every surface works without a key." },
					description: { type: "string" },
					instructions_url: uri("How to get and use a key."),
					token_prefix: text("Every API key starts with this string.")
				}
			},
			mcp: {
				type: "object",
				required: ["url", "transport", "protocol_versions", "manifest_url", "server_card_url"],
				properties: {
					url: uri("The tool server endpoint (POST)."),
					transport: STREAMABLE_HTTP,
					protocol_versions: { type: "array", items: { type: "string" }, description: "Supported revisions, newest first." },
					manifest_url: uri("The MCP manifest."),
					server_card_url: uri("The MCP server card.")
				}
			}
		}
	},
	McpTool: {
		type: "object",
		description: "A tool definition exactly as `tools/list` returns it.",
		required: ["name", "description", "inputSchema"],
		properties: {
			name: { type: "string" },
			title: { type: "string" },
			description: { type: "string" },
			inputSchema: { type: "object", description: "JSON Schema of the tool's arguments." },
			outputSchema: { type: "object", description: "JSON Schema of the tool's `structuredContent`." },
			annotations: { type: "object", description: "Behaviour hints (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) and the display title." }
		}
	},
	McpManifest: {
		type: "object",
		description: "The tool server and the tools an anonymous caller sees.",
		required: ["name", "version", "transport", "url", "tools"],
		properties: {
			name: { type: "string" },
			version: { type: "string" },
			description: { type: "string" },
			transport: STREAMABLE_HTTP,
			url: uri("The tool server endpoint (POST)."),
			protocolVersions: { type: "array", items: { type: "string" } },
			authentication: {
				type: "object",
				description: "How a caller may authenticate; optional.",
				required: ["type", "required"],
				properties: {
					type: { const: "bearer" },
					required: { type: "boolean" },
					description: { type: "string" },
					token_prefix: { type: "string" },
					instructions_url: { type: "string", format: "uri" }
				}
			},
			tools: { type: "array", items: ref("McpTool"), description: "The anonymous tool set of the newest protocol revision." }
		}
	},
	McpServerCard: {
		type: "object",
		description: "Server card (SEP-1649 shape): who the server is and how to reach it, without a tool list.",
		required: ["version", "protocolVersion", "serverInfo", "transport", "capabilities"],
		properties: {
			$schema: { type: "string", format: "uri" },
			version: text("Version of the card format."),
			protocolVersion: text("The newest protocol revision the server speaks."),
			serverInfo: {
				type: "object",
				required: ["name", "version"],
				properties: {
					name: { type: "string" },
					title: { type: "string" },
					version: { type: "string" },
					description: { type: "string" },
					homepage: { type: "string", format: "uri" }
				}
			},
			transport: {
				type: "object",
				required: ["type", "url"],
				properties: { type: STREAMABLE_HTTP, url: { type: "string", format: "uri" } }
			},
			capabilities: {
				type: "object",
				required: ["tools", "resources", "prompts"],
				properties: { tools: { type: "boolean" }, resources: { type: "boolean" }, prompts: { type: "boolean" } }
			}
		}
	},
	McpEndpointManifest: {
		type: "object",
		description: "Endpoint manifest (SEP-1960 shape): where the tool server answers and how it authenticates.",
		required: ["mcp_version", "endpoints"],
		properties: {
			mcp_version: text("The tool-protocol release targeted (not the version negotiated on the wire)."),
			endpoints: {
				type: "array",
				items: {
					type: "object",
					required: ["url", "transport", "capabilities", "auth"],
					properties: {
						url: { type: "string", format: "uri" },
						transport: STREAMABLE_HTTP,
						capabilities: { type: "array", items: { type: "string" } },
						auth: {
							type: "object",
							required: ["type", "description", "required"],
							properties: { type: { type: "string" }, description: { type: "string" }, required: { type: "boolean" } }
						}
					}
				}
			}
		}
	}
};
