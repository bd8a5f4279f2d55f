/**
 * Reads a verified Stripe event into a BillingFact (lib/billing/subscription.ts), or says it is one
 * we ignore. Only the fields we use are read, defensively: an object may be expanded or not, and
 * the invoice's subscription moved between API versions (`parent.subscription_details` now,
 * `subscription` before), as did the period (subscription items now, the subscription before).
 */
import type Stripe from "stripe";
import { BillingOptions, planOfPrice } from "./options";
import type { BillingFact, Period, SubscriptionStatus } from "./subscription";

/** Largest webhook body accepted, in bytes (Stripe's events are a few kilobytes). */
export const STRIPE_WEBHOOK_MAX_BYTES = 256 * 1024;

/** The events that move a subscription; every other event is answered 200 and ignored. */
export const HANDLED_EVENTS = [
	"checkout.session.completed",
	"customer.subscription.created",
	"customer.subscription.updated",
	"customer.subscription.deleted",
	"invoice.paid",
	"invoice.payment_failed"
] as const;

const STATUSES: readonly SubscriptionStatus[] = ["active", "trialing", "past_due", "unpaid", "canceled", "incomplete", "incomplete_expired", "paused"];

type Loose = Record<string, unknown>;

const obj = (value: unknown): Loose | null => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : null);
const str = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);
/** An id, whether the field holds it or the expanded object. */
const idOf = (value: unknown): string | null => str(value) ?? str(obj(value)?.id);
const accountIn = (metadata: unknown): string | null => str(obj(metadata)?.account_id);

/** A period from Unix seconds. */
function period(start: unknown, end: unknown): Period | null {
	const s = num(start);
	const e = num(end);
	return s !== null && e !== null && e > s ? { start: s * 1000, end: e * 1000 } : null;
}

function firstItem(subscription: Loose): Loose | null {
	const items = obj(subscription.items)?.data;
	return Array.isArray(items) ? obj(items[0]) : null;
}

function subscriptionFact(event: Stripe.Event, data: Loose, options: Pick<BillingOptions, "prices">): BillingFact | null {
	const subscriptionId = str(data.id);
	if (!subscriptionId) return null;
	const item = firstItem(data);
	const priceId = idOf(item?.price);
	const status = STATUSES.find(s => s === data.status) ?? "incomplete";
	const paidPlan = planOfPrice(options, priceId);
	return {
		kind: "subscription",
		account_id: accountIn(data.metadata),
		customer_id: idOf(data.customer),
		at: event.created,
		subscription_id: subscriptionId,
		deleted: event.type === "customer.subscription.deleted",
		status,
		price_id: priceId,
		paid_plan: paidPlan === "pro" || paidPlan === "business" ? paidPlan : null,
		period: period(item?.current_period_start ?? data.current_period_start, item?.current_period_end ?? data.current_period_end)
	};
}

function invoiceFact(event: Stripe.Event, data: Loose): BillingFact {
	const details = obj(obj(data.parent)?.subscription_details);
	const lines = obj(data.lines)?.data;
	const line = Array.isArray(lines) ? lines.map(obj).find(l => l !== null && (l.type === "subscription" || obj(l.parent)?.type === "subscription_item_details")) : null;
	const linePeriod = obj(line?.period);
	return {
		kind: "invoice",
		paid: event.type === "invoice.paid",
		account_id: accountIn(details?.metadata),
		customer_id: idOf(data.customer),
		at: event.created,
		subscription_id: idOf(details?.subscription) ?? idOf(data.subscription),
		// The line of the subscription carries the period paid for (the invoice's own period is the one before).
		period: period(linePeriod?.start, linePeriod?.end)
	};
}

/** The fact an event reports, or null for an event we do not act on (answered 200 all the same). */
export function factOf(event: Stripe.Event, options: Pick<BillingOptions, "prices">): BillingFact | null {
	const data = obj(event.data?.object);
	if (!data) return null;
	switch (event.type) {
		case "checkout.session.completed":
			if (data.mode !== "subscription") return null;
			return {
				kind: "checkout",
				account_id: str(data.client_reference_id),
				customer_id: idOf(data.customer),
				at: event.created,
				subscription_id: idOf(data.subscription)
			};
		case "customer.subscription.created":
		case "customer.subscription.updated":
		case "customer.subscription.deleted":
			return subscriptionFact(event, data, options);
		case "invoice.paid":
		case "invoice.payment_failed":
			return invoiceFact(event, data);
		default:
			return null;
	}
}
