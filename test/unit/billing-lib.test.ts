/**
 * The pure parts of billing: the billing configuration, reading Stripe events into facts (both
 * places an invoice's subscription has lived in Stripe's API), the subscription state's moves
 * (order, replays of state, ended subscriptions, invoices) and the plan that follows, with the
 * grace period of a failed payment.
 */
import type Stripe from "stripe";
import { ConfigError, loadConfig } from "../../config";
import type { BillingOptions } from "../../lib/billing/options";
import { factOf } from "../../lib/billing/stripe-events";
import { applyFact, BillingFact, blankState, planFor, SubscriptionState } from "../../lib/billing/subscription";
import { calendarMonth, periodAt } from "../../lib/chatbots/message-period";

const OPTIONS: Pick<BillingOptions, "prices"> = { prices: { pro: { priceId: "price_pro", label: undefined }, business: { priceId: "price_biz", label: "€99" } } };
const DAY_MS = 86_400_000;
const event = (type: string, object: Record<string, unknown>, created = 1_000) => ({ id: "evt_1", object: "event", type, created, data: { object } }) as unknown as Stripe.Event;

function configError(env: Record<string, string>): string | undefined {
	try {
		loadConfig(env);
		return undefined;
	} catch (err) {
		return err instanceof ConfigError ? err.variable : "not a ConfigError";
	}
}

describe("billing configuration", () => {
	it("is off without STRIPE_SECRET_KEY, and complete with it", () => {
		expect(loadConfig({}).billing).toBeUndefined();
		const config = loadConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_PRICE_PRO: "price_1", PRICE_LABEL_PRO: "€19 / month", STRIPE_API_URL: "http://127.0.0.1:9" });
		expect(config.billing).toEqual({ secretKey: "sk_test_1", webhookSecret: "whsec_1", apiUrl: "http://127.0.0.1:9", prices: { pro: { priceId: "price_1", label: "€19 / month" } }, graceDays: 7 });
		expect(config.services).toEqual([]);
		expect(loadConfig({ SERVICES: "billing" }).services).toEqual(["billing"]);
	});

	it.each([
		[{ STRIPE_WEBHOOK_SECRET: "whsec_1" }, "STRIPE_SECRET_KEY"],
		[{ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PRICE_PRO: "price_1" }, "STRIPE_WEBHOOK_SECRET"],
		[{ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1" }, "STRIPE_PRICE_PRO"],
		[{ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_PRICE_BUSINESS: "prod_123" }, "STRIPE_PRICE_BUSINESS"],
		[{ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_PRICE_PRO: "price_1", BILLING_GRACE_DAYS: "90" }, "BILLING_GRACE_DAYS"],
		[{ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_WEBHOOK_SECRET: "whsec_1", STRIPE_PRICE_PRO: "price_1", STRIPE_API_URL: "ftp://x" }, "STRIPE_API_URL"]
	])("refuses %j naming %s", (env, variable) => {
		expect(configError(env)).toBe(variable);
	});
});

describe("reading Stripe events", () => {
	it("reads a subscription's price, plan, status, account and the period of its item", () => {
		const fact = factOf(
			event("customer.subscription.updated", {
				id: "sub_1",
				customer: { id: "cus_1", object: "customer" },
				status: "past_due",
				metadata: { account_id: "acc_1" },
				items: { data: [{ price: { id: "price_biz" }, current_period_start: 100, current_period_end: 200 }] }
			}),
			OPTIONS
		);
		expect(fact).toEqual({ kind: "subscription", account_id: "acc_1", customer_id: "cus_1", at: 1000, subscription_id: "sub_1", deleted: false, status: "past_due", price_id: "price_biz", paid_plan: "business", period: { start: 100_000, end: 200_000 } });
		const unsold = factOf(event("customer.subscription.created", { id: "sub_2", customer: "cus_1", status: "active", items: { data: [{ price: "price_other" }] } }), OPTIONS);
		expect(unsold).toMatchObject({ paid_plan: null, price_id: "price_other", account_id: null, period: null });
	});

	it("finds an invoice's subscription under `parent` (current API) or `subscription` (older), and the period on its subscription line", () => {
		const lines = { data: [{ type: "invoiceitem", period: { start: 1, end: 2 } }, { parent: { type: "subscription_item_details" }, period: { start: 300, end: 400 } }] };
		const current = factOf(event("invoice.paid", { customer: "cus_1", parent: { subscription_details: { subscription: "sub_1", metadata: { account_id: "acc_1" } } }, lines, period_start: 0, period_end: 300 }), OPTIONS);
		expect(current).toEqual({ kind: "invoice", paid: true, account_id: "acc_1", customer_id: "cus_1", at: 1000, subscription_id: "sub_1", period: { start: 300_000, end: 400_000 } });
		const older = factOf(event("invoice.payment_failed", { customer: "cus_1", subscription: "sub_9", lines: { data: [{ type: "subscription", period: { start: 5, end: 9 } }] } }), OPTIONS);
		expect(older).toMatchObject({ paid: false, subscription_id: "sub_9", period: { start: 5000, end: 9000 } });
	});

	it("ignores other event types and one-off (payment mode) checkouts", () => {
		expect(factOf(event("customer.created", { id: "cus_1" }), OPTIONS)).toBeNull();
		expect(factOf(event("checkout.session.completed", { mode: "payment", client_reference_id: "acc_1" }), OPTIONS)).toBeNull();
		expect(factOf(event("checkout.session.completed", { mode: "subscription", client_reference_id: "acc_1", customer: "cus_1", subscription: "sub_1" }), OPTIONS)).toMatchObject({ kind: "checkout", account_id: "acc_1", customer_id: "cus_1", subscription_id: "sub_1" });
	});
});

describe("the subscription state", () => {
	const sub = (at: number, fields: Partial<Extract<BillingFact, { kind: "subscription" }>> = {}): BillingFact => ({
		kind: "subscription",
		account_id: null,
		customer_id: "cus_1",
		at,
		subscription_id: "sub_1",
		deleted: false,
		status: "active",
		price_id: "price_pro",
		paid_plan: "pro",
		period: { start: 0, end: 30 * DAY_MS },
		...fields
	});
	const invoice = (at: number, paid: boolean, period = { start: 30 * DAY_MS, end: 60 * DAY_MS }): BillingFact => ({ kind: "invoice", paid, account_id: null, customer_id: "cus_1", at, subscription_id: "sub_1", period });
	const run = (facts: BillingFact[]) => facts.reduce<SubscriptionState>((state, fact) => applyFact(state, fact) ?? state, blankState("acc_1"));

	it("an older event never overwrites a newer state, whatever the delivery order", () => {
		const inOrder = run([sub(10, { paid_plan: "business", price_id: "price_biz" }), sub(20)]);
		const reversed = run([sub(20), sub(10, { paid_plan: "business", price_id: "price_biz" })]);
		expect(inOrder.paid_plan).toBe("pro");
		expect(reversed).toEqual(inOrder);
		expect(applyFact(inOrder, sub(15, { status: "canceled" }))).toBeNull();
		// The same state again changes nothing.
		expect(applyFact(inOrder, sub(20))).toBeNull();
	});

	it("a deleted subscription is final; the deletion of an older one leaves a newer subscription alone", () => {
		const ended = run([sub(10), sub(30, { deleted: true, status: "canceled" })]);
		expect(ended).toMatchObject({ status: "canceled", paid_plan: null, ended: ["sub_1"] });
		expect(applyFact(ended, sub(40))).toBeNull();
		const renewed = run([sub(10), sub(50, { subscription_id: "sub_2", paid_plan: "business" }), sub(60, { deleted: true, status: "canceled" })]);
		expect(renewed).toMatchObject({ subscription_id: "sub_2", status: "active", paid_plan: "business", ended: ["sub_1"] });
	});

	it("invoices: a failure marks the account past due once; a payment clears it and only moves the period forward", () => {
		const failed = run([sub(10), invoice(20, false), invoice(25, false)]);
		expect(failed).toMatchObject({ status: "past_due", past_due_since: 20_000 });
		const paid = run([sub(10), invoice(20, false), invoice(30, true)]);
		expect(paid).toMatchObject({ status: "active", past_due_since: null, period: { start: 30 * DAY_MS, end: 60 * DAY_MS } });
		// An older failure delivered after the payment changes nothing; an older period never comes back.
		expect(applyFact(paid, invoice(20, false))).toBeNull();
		expect(applyFact(paid, invoice(40, true, { start: 0, end: 30 * DAY_MS }))?.period).toEqual({ start: 30 * DAY_MS, end: 60 * DAY_MS });
		// An invoice of another subscription is not this one's.
		expect(applyFact(paid, { ...invoice(50, false), subscription_id: "sub_other" })).toBeNull();
	});

	it("the plan: the subscription's while live, through the grace period after a failed payment, then Free", () => {
		const grace = 7 * DAY_MS;
		const active = run([sub(10)]);
		expect(planFor(active, 0, grace)).toEqual({ plan: "pro", period: { start: 0, end: 30 * DAY_MS }, graceEndsAt: null });
		const pastDue = run([sub(10), invoice(20, false)]);
		expect(planFor(pastDue, 20_000 + grace - 1, grace)).toMatchObject({ plan: "pro", graceEndsAt: 20_000 + grace });
		expect(planFor(pastDue, 20_000 + grace, grace).plan).toBe("free");
		for (const status of ["unpaid", "canceled", "incomplete", "paused"] as const) expect(planFor(run([sub(10, { status })]), 0, grace).plan).toBe("free");
		expect(planFor(run([sub(10, { status: "trialing" })]), 0, grace).plan).toBe("pro");
		expect(planFor(run([sub(10, { paid_plan: null })]), 0, grace).plan).toBe("free");
	});
});

describe("message periods", () => {
	it("calendar months in UTC, and a paid period followed by one of the same length when no invoice told the next", () => {
		expect(calendarMonth(Date.UTC(2032, 1, 29, 23, 59))).toEqual({ anchor: "calendar", start: Date.UTC(2032, 1, 1), end: Date.UTC(2032, 2, 1) });
		expect(calendarMonth(Date.UTC(2032, 11, 31, 23, 59))).toEqual({ anchor: "calendar", start: Date.UTC(2032, 11, 1), end: Date.UTC(2033, 0, 1) });
		const paid = { anchor: "paid" as const, start: 0, end: 30 * DAY_MS };
		expect(periodAt(paid, 29 * DAY_MS)).toBe(paid);
		expect(periodAt(paid, 30 * DAY_MS)).toEqual({ anchor: "paid", start: 30 * DAY_MS, end: 60 * DAY_MS });
		expect(periodAt(paid, 95 * DAY_MS)).toEqual({ anchor: "paid", start: 90 * DAY_MS, end: 120 * DAY_MS });
	});
});
