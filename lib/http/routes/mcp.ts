/** The tool server's endpoint (SPEC §4.2): POST for JSON-RPC, GET (and DELETE) answered 405. */
import { RATE_POLICIES } from "../rate-policies";
import type { ParamDef, RouteDef } from "./types";
import { ref } from "./types";
import { error } from "./responses";

/** Largest POST /mcp body: JSON-RPC messages are small; the largest legitimate one is a 50,000-character text escaped as \uXXXX. */
export const MCP_MAX_BODY_BYTES = 1_000_000;

const createBudget = RATE_POLICIES["mcp-create-chatbot"];
const bytes = MCP_MAX_BODY_BYTES.toLocaleString("en-US");

const protocolVersion: ParamDef = {
	name: "MCP-Protocol-Version",
	in: "header",
	required: false,
	description: "The protocol revision negotiated by initialize. When omitted, the oldest supported revision (`2024-11-05`) applies; an unsupported value answers 400.",
	schema: { type: "string", enum: ["2025-06-18", "2025-03-26", "2024-11-05"] }
};

const sessionId: ParamDef = {
	name: "Mcp-Session-Id",
	in: "header",
	required: false,
	description: "Accepted and ignored: the server is stateless and never issues a session id.",
	schema: { type: "string" }
};


export const mcpRoutes: RouteDef[] = [
	{
		operationId: "callMcpServer",
		method: "POST",
		path: "/mcp",
		summary: "Send JSON-RPC messages to the MCP tool server",
		description:
			"JSON-RPC 2.0 over the Streamable HTTP transport, stateless: `initialize`, `notifications/initialized`, `ping`, `tools/list`, `tools/call`. " +
			"A request with an `id` gets one JSON body (never an event stream); a batch gets an array; notifications only get 202 with no body. " +
			"Without `Authorization` the caller is anonymous and works in a sandbox; `Authorization: Bearer <API_KEY>` selects the account's chatbots and adds `list_chatbots`. " +
			`When \`Origin\` is sent it must be the service's own origin or an allowed one. Bodies over ${bytes} bytes are refused. ` +
			"Each `tools/call` in the body counts one point of the `mcp` budget (a body counts at least one), so a batch of 50 tool calls costs what 50 requests cost. " +
			`Each \`tools/call\` of \`create_chatbot\` also counts against \`mcp-create-chatbot\` (${createBudget.limit} per ${createBudget.windowSeconds / 60} minutes per client network).`,
		tags: ["MCP"],
		handler: "mcpPost",
		params: [protocolVersion, sessionId],
		body: {
			kind: "json",
			required: true,
			description: "One JSON-RPC message, or a batch (array) of at most 50.",
			schema: { oneOf: [ref("JsonRpcRequest"), { type: "array", minItems: 1, maxItems: 50, items: ref("JsonRpcRequest") }] }
		},
		responses: {
			"200": {
				description: "The JSON-RPC response, or an array of responses for a batch. Always `application/json`.",
				content: { "application/json": { oneOf: [ref("JsonRpcResponse"), { type: "array", items: ref("JsonRpcResponse") }] } }
			},
			"202": { description: "The body held only notifications: accepted, no body." },
			"400": error("`validation_failed`: the MCP-Protocol-Version header names an unsupported revision."),
			"401": error("`unauthorized`: the API key is malformed, unknown or revoked. Sent before any JSON-RPC handling.", ["WWW-Authenticate"]),
			"403": error("`forbidden`: the Origin header names an origin that may not call the tool server."),
			"413": error(`\`payload_too_large\`: the body is over ${bytes} bytes.`),
			"415": error("`unsupported_media_type`: the body is not UTF-8 `application/json`."),
			"429": error("`rate_limited`: the `mcp` or `mcp-create-chatbot` budget is exhausted; see Retry-After.")
		},
		rateLimit: "mcp",
		security: "bearer-optional",
		documented: true
	},
	{
		operationId: "describeMcpTransport",
		method: "GET",
		path: "/mcp",
		summary: "No event stream: always 405",
		description: "The tool server offers no server-initiated stream. Always answers 405 with `Allow: POST` and an Error body (`method_not_allowed`).",
		tags: ["MCP"],
		handler: "mcpGet",
		params: [protocolVersion],
		responses: { "405": error("`method_not_allowed`; the `Allow` header lists POST.", ["Allow"]) },
		documented: true
	},
	{
		// Clients end sessions with DELETE; with no sessions there is nothing to end.
		operationId: "deleteMcpSession",
		method: "DELETE",
		path: "/mcp",
		summary: "No sessions: always 405",
		tags: ["MCP"],
		handler: "mcpGet",
		responses: { "405": error("`method_not_allowed`; the `Allow` header lists POST.", ["Allow"]) },
		documented: false
	}
];
