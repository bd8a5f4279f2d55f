/** What the billing service's actions see on `this`. */
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type Stripe from "stripe";
import type { BillingOptions } from "../../lib/billing/options";
import type { BillingFact, SubscriptionState } from "../../lib/billing/subscription";
import type { HttpReply } from "../../lib/http/reply";
import type { DocumentCollection } from "../../mixins/db.mixin";
import type { HttpContext } from "../../middlewares/http-context";

/** A webhook event being processed or processed: replays of its id change nothing. */
export interface ProcessedEvent {
	/** Stripe's event id. */
	_id: string;
	type: string;
	status: "processing" | "done";
	/** What it did: `applied`, `unchanged`, `ignored`, `unknown_customer`, `unknown_account`. */
	outcome: string | null;
	account_id: string | null;
	/** The event's `created`, Unix seconds. */
	created: number;
	received_at: number;
}

/** Calls another service's action (from a request's context, or from the broker in a sweep). */
export type Caller = (action: string, params: object) => Promise<unknown>;

export type Outcome = "applied" | "unchanged" | "ignored" | "unknown_customer" | "unknown_account";

export interface BillingVars {
	now: () => number;
	/** Undefined when billing is off (no STRIPE_SECRET_KEY). */
	options: BillingOptions | undefined;
	stripe: Stripe | undefined;
	subscriptions: DocumentCollection<SubscriptionState>;
	events: DocumentCollection<ProcessedEvent>;
	closers: Array<() => Promise<void>>;
	sweepTimer?: NodeJS.Timeout;
}

export type BillingMethods = {
	/** The billing options, or `not_found` when billing is off. */
	configured(): BillingOptions;
	/** Applies a fact to the account it concerns (stored compare-and-set, then the plan sent to accounts). */
	applyFact(caller: Caller, fact: BillingFact): Promise<{ outcome: Outcome; account_id: string | null }>;
	/**
	 * Stores `next` over `current` (compare-and-set on the revision) with the plan it puts the account
	 * on at `now`, and moves the account to that plan; false when `current` changed meanwhile.
	 */
	storeAndApply(caller: Caller, current: SubscriptionState | null, next: SubscriptionState, now: number): Promise<boolean>;
	/** Moves past-due accounts whose grace ended to Free, and forgets old processed events. */
	sweep(now: number): Promise<{ downgraded: number; forgotten: number }>;
	/** The Billing page for the viewer. */
	billingPage(ctx: HttpContext<unknown>, status: number, extra?: { notice?: string; error?: string }): Promise<HttpReply>;
};

export type BillingThis = Service<ServiceSettingSchema> & BillingVars & BillingMethods;

export type BillingActions = NonNullable<ServiceSchema<ServiceSettingSchema, BillingMethods, BillingVars>["actions"]>;
