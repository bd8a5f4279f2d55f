/**
 * The tool server's three descriptors (SPEC §2.8):
 * - `/.well-known/mcp.json` (McpManifest): the anonymous tool set, produced by the very function
 *   `tools/list` answers with, so the two cannot differ.
 * - `/.well-known/mcp/server-card.json` (McpServerCard, SEP-1649 shape): identity, transport and
 *   capabilities, no tool list.
 * - `/.well-known/mcp` (McpEndpointManifest, SEP-1960 shape): endpoints and how they authenticate.
 */
import { API_KEY_PREFIX } from "../accounts/api-keys";
import { API_VERSION } from "../http/versioning";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_VERSIONS } from "../mcp/protocol";
import { McpTool, toolsForVersion } from "../mcp/tools";
import { discoveryUrls, MCP_SERVER } from "./service-info";

export interface McpManifest {
	name: string;
	version: string;
	description: string;
	transport: "streamable-http";
	url: string;
	protocolVersions: string[];
	authentication: { type: "bearer"; required: false; description: string; token_prefix: string; instructions_url: string };
	tools: McpTool[];
}

export interface McpServerCard {
	version: string;
	protocolVersion: string;
	serverInfo: { name: string; title: string; version: string; description: string; homepage: string };
	transport: { type: "streamable-http"; url: string };
	capabilities: { tools: boolean; resources: boolean; prompts: boolean };
}

export interface McpEndpointManifest {
	mcp_version: string;
	endpoints: Array<{
		url: string;
		transport: "streamable-http";
		capabilities: string[];
		auth: { type: string; description: string; required: boolean };
	}>;
}

/** Version of the server-card format we publish. */
const SERVER_CARD_FORMAT_VERSION = "1.0";

const AUTH_DESCRIPTION =
	"Optional. Without a key the caller is anonymous and works in a sandbox; `Authorization: Bearer <API key>` works on the account's chatbots and adds list_chatbots.";

export function mcpManifest(publicUrl: string): McpManifest {
	const urls = discoveryUrls(publicUrl);
	return {
		name: MCP_SERVER.name,
		version: API_VERSION,
		description: MCP_SERVER.description,
		transport: "streamable-http",
		url: urls.mcp,
		protocolVersions: [...SUPPORTED_VERSIONS],
		authentication: {
			type: "bearer",
			required: false,
			description: AUTH_DESCRIPTION,
			token_prefix: API_KEY_PREFIX,
			instructions_url: urls.authentication
		},
		// The same call the tool server makes for an anonymous tools/list at the newest revision.
		tools: toolsForVersion(LATEST_PROTOCOL_VERSION, { authenticated: false })
	};
}

/**
 * No `$schema`: SEP-1649 has not published a schema URL yet, and naming one that does not resolve
 * would mislead validators. The field stays optional in McpServerCard.
 */
export function mcpServerCard(publicUrl: string): McpServerCard {
	const urls = discoveryUrls(publicUrl);
	return {
		version: SERVER_CARD_FORMAT_VERSION,
		protocolVersion: LATEST_PROTOCOL_VERSION,
		serverInfo: {
			name: MCP_SERVER.name,
			title: MCP_SERVER.title,
			version: API_VERSION,
			description: MCP_SERVER.description,
			homepage: urls.mcpDocs
		},
		transport: { type: "streamable-http", url: urls.mcp },
		// Tools only: the server offers no resources and no prompts.
		capabilities: { tools: true, resources: false, prompts: false }
	};
}

export function mcpEndpointManifest(publicUrl: string): McpEndpointManifest {
	const urls = discoveryUrls(publicUrl);
	return {
		mcp_version: LATEST_PROTOCOL_VERSION,
		endpoints: [
			{
				url: urls.mcp,
				transport: "streamable-http",
				capabilities: ["tools"],
				auth: { type: "bearer", description: AUTH_DESCRIPTION, required: false }
			}
		]
	};
}
