/**
 * The official Stripe client, pointed at Stripe or, when `apiUrl` is set, at another base (tests use
 * a loopback stand-in of Stripe's API), and the verification of a webhook's signature.
 */
import type Stripe from "stripe";
import { appError } from "../errors";
import type { BillingOptions } from "./options";

/** The package, required when billing is configured: an idle process without it need not hold it (some 25 MB). */
function stripePackage(): typeof Stripe {
	return require("stripe") as typeof Stripe;
}

export function createStripeClient(options: Pick<BillingOptions, "secretKey" | "apiUrl">): Stripe {
	const base = options.apiUrl ? new URL(options.apiUrl) : undefined;
	const protocol = base?.protocol === "http:" ? "http" : "https";
	const StripeClient = stripePackage();
	return new StripeClient(options.secretKey, {
		...(base ? { host: base.hostname, port: base.port || (protocol === "http" ? 80 : 443), protocol } : {}),
		maxNetworkRetries: 2,
		timeout: 20_000,
		telemetry: false,
		appInfo: { name: "chatbot-builder" }
	});
}

/**
 * The event a webhook request carries, verified with the package's `constructEvent` over the raw
 * bytes and the `Stripe-Signature` header, with Stripe's default tolerance of 300 seconds counted
 * from `receivedAt` (epoch ms). Throws `invalid_signature` (a missing, wrong or stale signature)
 * or `invalid_json`; either way nothing has been read from the body yet.
 */
export function verifiedEvent(stripe: Stripe, raw: Buffer, signature: string | undefined, secret: string, receivedAt: number): Stripe.Event {
	if (!signature) throw appError("invalid_signature", "The Stripe-Signature header is missing.");
	try {
		return stripe.webhooks.constructEvent(raw, signature, secret, undefined, undefined, receivedAt);
	} catch (err) {
		if (err instanceof stripePackage().errors.StripeSignatureVerificationError) {
			const stale = /tolerance/i.test(err.message);
			throw appError("invalid_signature", stale ? "The webhook's signature is older than 300 seconds." : "The webhook's signature does not match its body.");
		}
		if (err instanceof SyntaxError) throw appError("invalid_json", "The webhook's body is not JSON.");
		throw err;
	}
}
