/**
 * MCP protocol revisions: which ones we speak, how `initialize` negotiates, how the
 * `MCP-Protocol-Version` header is checked, and the `initialize` result.
 */
import { SANDBOX_LIMITS } from "../accounts/plans";

/** Newest first: `negotiateVersion` falls back to the first entry. */
export const SUPPORTED_VERSIONS = ["2025-06-18", "2025-03-26", "2024-11-05"] as const;
export type ProtocolVersion = (typeof SUPPORTED_VERSIONS)[number];

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_VERSIONS[0];
/** Applies when a request carries no `MCP-Protocol-Version` header (SPEC §4.2). */
export const OLDEST_PROTOCOL_VERSION: ProtocolVersion = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1];

export function isSupportedVersion(value: unknown): value is ProtocolVersion {
	return typeof value === "string" && (SUPPORTED_VERSIONS as readonly string[]).includes(value);
}

/** The version `initialize` answers: the client's when we speak it, else our newest (the client then decides whether to continue). */
export function negotiateVersion(requested: unknown): ProtocolVersion {
	return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * Revisions are ISO dates, so string order is time order. Used to decide which fields a revision
 * knows (`atLeast(v, "2025-06-18")` → `title`, `outputSchema`, `structuredContent`).
 */
export function atLeast(version: ProtocolVersion, minimum: ProtocolVersion): boolean {
	return version >= minimum;
}

export type ProtocolHeaderCheck =
	| { ok: true; version: ProtocolVersion }
	| {
			ok: false;
			/** Render as HTTP 400 with the SPEC Error body: `appError(error.code, error.message, { hint: error.hint })`. */
			error: { code: "validation_failed"; message: string; hint: string };
	  };

/**
 * Checks the `MCP-Protocol-Version` request header. Absent (or empty) → the oldest supported
 * revision; present → it must name a supported one. A repeated header counts only when every
 * copy agrees.
 */
export function checkProtocolHeader(headerValue: string | string[] | undefined): ProtocolHeaderCheck {
	// The usual header, one supported version as it is, decided without splitting anything.
	if (typeof headerValue === "string" && isSupportedVersion(headerValue)) return { ok: true, version: headerValue };
	const values = (Array.isArray(headerValue) ? headerValue : [headerValue])
		.flatMap(value => (value === undefined ? [] : value.split(",")))
		.map(value => value.trim())
		.filter(value => value !== "");
	if (values.length === 0) return { ok: true, version: OLDEST_PROTOCOL_VERSION };
	const [first] = values;
	if (values.every(value => value === first) && isSupportedVersion(first)) return { ok: true, version: first };
	const shown = first.length > 40 ? `${first.slice(0, 40)}…` : first;
	return {
		ok: false,
		error: {
			code: "validation_failed",
			message: `Unsupported MCP-Protocol-Version "${shown}".`,
			hint: `Send one of ${SUPPORTED_VERSIONS.join(", ")} (the version negotiated by initialize), or omit the header.`
		}
	};
}

export interface ServerInfo {
	name: string;
	version: string;
	/** Display name; only revisions from 2025-06-18 know it, older ones get it stripped. */
	title?: string;
}

export interface InitializeResult {
	[key: string]: unknown;
	protocolVersion: ProtocolVersion;
	capabilities: { tools: { listChanged: boolean } };
	serverInfo: ServerInfo;
	instructions: string;
}

/** Read by the agent's model (it may go into the system prompt): the workflow in a few steps. */
export const SERVER_INSTRUCTIONS = [
	"Build a chatbot that answers questions from a website's content.",
	"1. Call create_chatbot with website_url (and language 'en' or 'es'). It returns at once with chatbot_id, chat_url, embed_snippet and, without an API key, a claim_url.",
	`2. The site is crawled and trained in the background. Call get_chatbot with chatbot_id every 10-20 seconds until ready is true or status is 'failed'; pages shows crawl progress.`,
	"3. Optionally improve answers with add_knowledge_url (one more page), add_knowledge_text (plain text) or add_qa (a question with its exact answer). Each restarts training; poll get_chatbot again.",
	"4. Give the human the chat_url to try it and the embed_snippet to paste into their site.",
	`Without an API key the chatbot is a sandbox: ${SANDBOX_LIMITS.pages} pages, ${SANDBOX_LIMITS.messages} answered messages, ${SANDBOX_LIMITS.chars.toLocaleString("en-US")} training characters, deleted after ${SANDBOX_LIMITS.retentionDays} days. Always give the human the claim_url: opening it and signing in keeps the chatbot in their account.`,
	"With an API key (Authorization: Bearer), chatbots belong to the key's account under its plan limits, there is no claim step, and list_chatbots lists them.",
	"A tool result with isError true explains what went wrong and what to change; do not retry it unchanged."
].join("\n");

export function initializeResult(version: ProtocolVersion, serverInfo: ServerInfo): InitializeResult {
	const info: ServerInfo = { name: serverInfo.name, version: serverInfo.version };
	if (serverInfo.title !== undefined && atLeast(version, "2025-06-18")) info.title = serverInfo.title;
	return {
		protocolVersion: version,
		capabilities: { tools: { listChanged: false } },
		serverInfo: info,
		instructions: SERVER_INSTRUCTIONS
	};
}
