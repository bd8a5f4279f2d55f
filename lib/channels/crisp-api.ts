/**
 * Replies into a Crisp conversation through the REST API as a plugin: `POST
 * /v1/website/{website_id}/conversation/{session_id}/message` with Basic authentication of the plugin
 * token (identifier and key) and `X-Crisp-Tier: plugin`. Each message carries a fingerprint the
 * service chose, so the copy Crisp sends back as `message:received` is recognised as the bot's own.
 */
import { callProvider, RetryPolicy } from "./provider-call";

/** A Crisp website id (a UUID). */
export const CRISP_WEBSITE_ID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

export interface CrispApiOptions {
	baseUrl: string;
	identifier: string;
	key: string;
	policy: RetryPolicy;
}

const describe = (body: unknown): string | undefined => {
	const reason = (body as { reason?: unknown } | undefined)?.reason;
	return typeof reason === "string" ? reason.slice(0, 300) : undefined;
};

export class CrispApi {
	constructor(private readonly options: CrispApiOptions) {}

	/**
	 * Sends one text message. `delivered`, asked before each retry, tells whether Crisp has echoed the
	 * fingerprint meanwhile (then the message went through and is not sent again).
	 */
	async sendText(websiteId: string, sessionId: string, content: string, fingerprint: number, options: { signal?: AbortSignal; delivered?: () => Promise<boolean> } = {}): Promise<void> {
		const { baseUrl, identifier, key, policy } = this.options;
		await callProvider(
			{
				method: "POST",
				url: `${baseUrl}/v1/website/${encodeURIComponent(websiteId)}/conversation/${encodeURIComponent(sessionId)}/message`,
				headers: { Authorization: `Basic ${Buffer.from(`${identifier}:${key}`, "utf8").toString("base64")}`, "X-Crisp-Tier": "plugin" },
				body: { type: "text", from: "operator", origin: "chat", content, fingerprint }
			},
			{ policy, signal: options.signal, provider: "Crisp", describe, confirmed: options.delivered }
		);
	}
}
