/**
 * Who the service is and where its documents live: one place for the names, prose and URLs the
 * discovery documents repeat, so the API index, the MCP descriptors and the OpenAPI document agree.
 */
import { SANDBOX_LIMITS } from "../accounts/plans";
import { DEMO_LIMITS } from "../chatbots/model";

export const SERVICE_NAME = "Chatbot Builder";

export const SERVICE_DESCRIPTION =
	"Build chatbots trained on your own content (web pages, files, free text, question-and-answer pairs) and share them by chat link or website widget. " +
	"Two machine surfaces: a keyless demo-tool API under /api/tools and an MCP tool server at POST /mcp.";

/**
 * The MCP server's identity. It must match the `serverInfo` that `initialize` returns (the tool
 * server's service reports `chatbot-builder`); the discovery test compares them over HTTP.
 */
export const MCP_SERVER = {
	name: "chatbot-builder",
	title: "Chatbot Builder",
	description:
		"Create a chatbot from a website, add pages, text and Q&A pairs, and get a chat link and an embed snippet. Anonymous callers get a sandbox with a claim link; an API key works on the account's chatbots."
} as const;

/** The terms of the keyless surfaces in brief; the demo lifetime is a deployment setting. */
export function termsOfService(demoTtlHours: number): string {
	return (
		`The demo API and the anonymous tool server are free trial surfaces, provided as is. A demo session lives ${demoTtlHours} hours and answers ${DEMO_LIMITS.max_messages} messages; ` +
		`an anonymous sandbox chatbot is deleted after ${SANDBOX_LIMITS.retentionDays} days unless claimed. ` +
		"Only send content you have the right to use, respect the published rate limits, and do not use the service to reach hosts you may not access."
	);
}

export interface DiscoveryUrls {
	docs: string;
	openApiJson: string;
	openApiYaml: string;
	health: string;
	versioningPolicy: string;
	authentication: string;
	mcp: string;
	mcpManifest: string;
	mcpServerCard: string;
	mcpEndpointManifest: string;
	mcpDocs: string;
	developers: string;
}

export function discoveryUrls(publicUrl: string): DiscoveryUrls {
	return {
		docs: `${publicUrl}/docs`,
		openApiJson: `${publicUrl}/openapi.json`,
		openApiYaml: `${publicUrl}/openapi.yaml`,
		health: `${publicUrl}/v2/health`,
		versioningPolicy: `${publicUrl}/docs/reference/versioning`,
		authentication: `${publicUrl}/docs/reference/authentication`,
		mcp: `${publicUrl}/mcp`,
		mcpManifest: `${publicUrl}/.well-known/mcp.json`,
		mcpServerCard: `${publicUrl}/.well-known/mcp/server-card.json`,
		mcpEndpointManifest: `${publicUrl}/.well-known/mcp`,
		mcpDocs: `${publicUrl}/docs/mcp/overview`,
		developers: `${publicUrl}/developers`
	};
}
