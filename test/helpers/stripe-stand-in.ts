/**
 * A stand-in for Stripe, which cannot run here: a loopback HTTP server speaking the part of
 * Stripe's API the billing service calls through the official `stripe` package (pointed at it by
 * STRIPE_API_URL) — `POST /v1/checkout/sessions` and `POST /v1/billing_portal/sessions`, with
 * form-encoded requests, Bearer authentication and JSON objects back — recording every request,
 * and serving the hosted pages it hands out (`/checkout/{id}`, `/portal/{id}`) as small HTML pages a
 * browser can land on.
 *
 * Webhook deliveries are signed the way Stripe signs them, with the package's own
 * `webhooks.generateTestHeaderString`.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export const TEST_SECRET_KEY = "sk_test_stand_in_0123456789";
export const TEST_WEBHOOK_SECRET = "whsec_stand_in_secret_0123456789";
export const TEST_PRICES = { pro: "price_pro_monthly", business: "price_business_monthly" } as const;

/** The environment that points the app's billing at the stand-in. */
export function billingEnv(standIn: StripeStandIn): Record<string, string> {
	return {
		STRIPE_SECRET_KEY: TEST_SECRET_KEY,
		STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
		STRIPE_API_URL: standIn.url,
		STRIPE_PRICE_PRO: TEST_PRICES.pro,
		STRIPE_PRICE_BUSINESS: TEST_PRICES.business,
		PRICE_LABEL_PRO: "€19 / month",
		PRICE_LABEL_BUSINESS: "€99 / month"
	};
}

export interface StandInRequest {
	method: string;
	path: string;
	authorization: string | undefined;
	form: URLSearchParams;
}

export interface StripeStandIn {
	url: string;
	requests: StandInRequest[];
	/** Answer the next `n` API calls with a 500 Stripe error (an outage). */
	failNext(n: number): void;
	stop(): Promise<void>;
}

let ids = 0;
const nextId = (prefix: string) => `${prefix}_test_${Date.now().toString(36)}${(++ids).toString(36)}`;

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(body));
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
	const requests: StandInRequest[] = [];
	let failures = 0;
	let origin = "";
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", chunk => chunks.push(chunk as Buffer));
		req.on("end", () => {
			const path = (req.url ?? "/").split("?")[0];
			const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
			if (req.method === "GET" && (path.startsWith("/checkout/") || path.startsWith("/portal/"))) {
				const what = path.startsWith("/checkout/") ? "Checkout" : "Customer portal";
				res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
				res.end(`<!doctype html><html><head><title>${what} (stand-in)</title></head><body><main><h1>${what} (Stripe stand-in)</h1><p>${path}</p></main></body></html>`);
				return;
			}
			requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, form });
			if (req.headers.authorization !== `Bearer ${TEST_SECRET_KEY}`) {
				sendJson(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided." } });
				return;
			}
			if (failures > 0) {
				failures--;
				sendJson(res, 500, { error: { type: "api_error", message: "Stand-in outage." } });
				return;
			}
			if (req.method === "POST" && path === "/v1/checkout/sessions") {
				const id = nextId("cs");
				sendJson(res, 200, {
					id,
					object: "checkout.session",
					mode: form.get("mode"),
					client_reference_id: form.get("client_reference_id"),
					customer: form.get("customer"),
					customer_email: form.get("customer_email"),
					status: "open",
					url: `${origin}/checkout/${id}`
				});
				return;
			}
			if (req.method === "POST" && path === "/v1/billing_portal/sessions") {
				const id = nextId("bps");
				sendJson(res, 200, { id, object: "billing_portal.session", customer: form.get("customer"), return_url: form.get("return_url"), url: `${origin}/portal/${id}` });
				return;
			}
			sendJson(res, 404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${path}).` } });
		});
	});
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url: origin,
		requests,
		failNext(n) {
			failures = n;
		},
		stop: () =>
			new Promise<void>(resolve => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

/** Signs a webhook body as Stripe does, at `timestamp` (Unix seconds; default now). */
export function stripeSignature(payload: string, timestamp?: number, secret = TEST_WEBHOOK_SECRET): string {
	return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp !== undefined ? { timestamp } : {}) });
}

export interface Delivery {
	/** Unix seconds of the signature (default: now). */
	timestamp?: number;
	/** Changes the body after it was signed. */
	tamper?: (body: string) => string;
	/** A signature header to send instead; null sends none. */
	signature?: string | null;
}

/** POSTs an event to the app's /webhooks/stripe as Stripe would, signed unless told otherwise. */
export async function deliverEvent(baseUrl: string, event: Record<string, unknown>, opts: Delivery = {}): Promise<{ status: number; headers: Headers; text: string; body: unknown }> {
	const body = JSON.stringify(event);
	const signature = opts.signature === undefined ? stripeSignature(body, opts.timestamp ?? Math.floor(Date.now() / 1000)) : opts.signature;
	const res = await fetch(`${baseUrl}/webhooks/stripe`, {
		method: "POST",
		headers: { "Content-Type": "application/json", ...(signature === null ? {} : { "Stripe-Signature": signature }) },
		body: opts.tamper ? opts.tamper(body) : body
	});
	const text = await res.text();
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = undefined;
	}
	return { status: res.status, headers: res.headers, text, body: parsed };
}

let events = 0;

/** A Stripe event of `type` about `object`, created at `created` (Unix seconds). */
export function stripeEvent(type: string, object: Record<string, unknown>, created: number, id = `evt_test_${++events}`): Record<string, unknown> {
	return { id, object: "event", api_version: "2026-10-28.endive", created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } };
}

/** A subscription as Stripe sends it in `customer.subscription.*` events (period on its item). */
export function stripeSubscription(fields: { id: string; customer: string; status: string; price: string; start: number; end: number; accountId?: string }): Record<string, unknown> {
	return {
		id: fields.id,
		object: "subscription",
		customer: fields.customer,
		status: fields.status,
		metadata: fields.accountId ? { account_id: fields.accountId } : {},
		items: {
			object: "list",
			data: [{ id: `si_${fields.id}`, object: "subscription_item", price: { id: fields.price, object: "price" }, current_period_start: fields.start, current_period_end: fields.end }]
		}
	};
}

/** An invoice as Stripe sends it in `invoice.*` events (subscription under `parent`, the paid period on its line). */
export function stripeInvoice(fields: { id: string; customer: string; subscription: string; start: number; end: number; accountId?: string }): Record<string, unknown> {
	return {
		id: fields.id,
		object: "invoice",
		customer: fields.customer,
		parent: { type: "subscription_details", subscription_details: { subscription: fields.subscription, metadata: fields.accountId ? { account_id: fields.accountId } : {} } },
		lines: {
			object: "list",
			data: [{ id: `il_${fields.id}`, object: "line_item", parent: { type: "subscription_item_details" }, period: { start: fields.start, end: fields.end } }]
		}
	};
}
