/**
 * POST /webhooks/telegram/{uuid} and POST /webhooks/crisp/{chatbot_id}: inbound messaging webhooks
 * (SPEC §6). Served, never listed in /api or OpenAPI. In order:
 *
 *   1. the `webhooks` budget of this path (one bot, one website), whatever address calls: 429;
 *   2. the raw body, at most WEBHOOK_MAX_BODY_BYTES: 413 (the Crisp signature covers the raw bytes);
 *   3. the channels service finds the connection (404), checks the sender's proof (401/403), parses
 *      the body (400) and queues a reply job, or ignores what the bot does not use (200).
 *
 * The answer goes back as soon as the job is stored: the reply is sent from the job, never here.
 */
import type { ServerResponse } from "node:http";
import { appError } from "../../lib/errors";
import type { GatewayDeps, GatewayHandler, GatewayRequest } from "./context";
import { sendJson } from "./context";
import { applyRateDecision } from "./rate-limit";

/** Telegram updates and Crisp events are a few kilobytes; a megabyte is generous. */
export const WEBHOOK_MAX_BODY_BYTES = 1_000_000;
/** The channels service only stores a job: this is far more than it needs. */
const RECEIVE_TIMEOUT_MS = 10_000;

function header(req: GatewayRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** The raw body, refusing (413) one over the limit before reading the rest of it. */
async function rawBody(req: GatewayRequest): Promise<Buffer> {
	const declared = Number(req.headers["content-length"] ?? NaN);
	const tooLarge = () => {
		req.resume();
		return appError("payload_too_large", `A webhook body may hold at most ${WEBHOOK_MAX_BODY_BYTES} bytes.`);
	};
	if (Number.isFinite(declared) && declared > WEBHOOK_MAX_BODY_BYTES) throw tooLarge();
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > WEBHOOK_MAX_BODY_BYTES) throw tooLarge();
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

async function receive(deps: GatewayDeps, req: GatewayRequest, res: ServerResponse, action: string, params: Record<string, unknown>): Promise<void> {
	applyRateDecision(res, await deps.limiter.consume("webhooks", req.$path));
	const body = await rawBody(req);
	const result = await deps.call(action, { ...params, body: body.toString("base64") }, { timeout: RECEIVE_TIMEOUT_MS });
	sendJson(res, 200, result, { "Cache-Control": "no-store" });
}

export const telegramWebhook: GatewayHandler = (deps, req, res) =>
	receive(deps, req, res, "channels.receiveTelegram", {
		webhook_id: String(req.$params?.uuid ?? ""),
		...(header(req, "x-telegram-bot-api-secret-token") !== undefined ? { secret_token: header(req, "x-telegram-bot-api-secret-token") } : {})
	});

export const crispWebhook: GatewayHandler = (deps, req, res) => {
	const key = new URL(req.url ?? "/", "http://webhook.invalid").searchParams.get("key");
	// The key is a credential: taken out of the URL, it cannot reach a log line about this request.
	req.url = req.$path;
	const signature = header(req, "x-crisp-signature");
	const timestamp = header(req, "x-crisp-request-timestamp");
	return receive(deps, req, res, "channels.receiveCrisp", {
		chatbot_id: String(req.$params?.chatbot_id ?? ""),
		...(key !== null ? { key } : {}),
		...(signature !== undefined ? { signature } : {}),
		...(timestamp !== undefined ? { timestamp } : {})
	});
};
