/**
 * POST /webhooks/stripe: reads the raw body (Stripe signs the exact bytes, so nothing may parse it
 * first) and hands it, with the Stripe-Signature header, to the billing service, which verifies and
 * applies it. 404 when billing is not configured, 413 past STRIPE_WEBHOOK_MAX_BYTES.
 */
import type { ServerResponse } from "node:http";
import { STRIPE_WEBHOOK_MAX_BYTES } from "../../lib/billing/stripe-events";
import { appError } from "../../lib/errors";
import type { GatewayHandler, GatewayRequest } from "./context";
import { sendJson } from "./context";

/** The whole body, or why not (over the limit: the rest is not read and the connection closes). */
function rawBody(req: GatewayRequest, limit: number): Promise<Buffer | "too_large" | "aborted"> {
	const declared = Number(req.headers["content-length"] ?? NaN);
	if (Number.isFinite(declared) && declared > limit) return Promise.resolve("too_large");
	return new Promise(resolve => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on("data", (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				req.removeAllListeners("data");
				resolve("too_large");
			} else chunks.push(chunk);
		});
		req.on("end", () => resolve(Buffer.concat(chunks)));
		req.on("error", () => resolve("aborted"));
		req.on("close", () => {
			if (!req.complete) resolve("aborted");
		});
	});
}

function header(req: GatewayRequest, name: string): string | undefined {
	const value = req.headers[name];
	return Array.isArray(value) ? value[0] : value;
}

export const stripeWebhook: GatewayHandler = async (deps, req: GatewayRequest, res: ServerResponse) => {
	if (!deps.config.billing) {
		req.resume();
		throw appError("not_found", "Billing is not enabled on this service.", { hint: "The operator has not configured Stripe (STRIPE_SECRET_KEY)." });
	}
	const body = await rawBody(req, STRIPE_WEBHOOK_MAX_BYTES);
	if (body === "too_large") {
		res.setHeader("Connection", "close");
		throw appError("payload_too_large", `A webhook body may be at most ${STRIPE_WEBHOOK_MAX_BYTES} bytes.`);
	}
	if (body === "aborted") throw appError("validation_failed", "The request ended before its whole body arrived.");
	const result = await deps.call("billing.webhook", { payload: body.toString("base64"), signature: header(req, "stripe-signature") });
	sendJson(res, 200, result, { "Cache-Control": "no-store" });
};
