/**
 * An account's subscription as the billing service keeps it, and how each fact Stripe reports moves
 * it. Stripe does not promise the order of its events, and sends some more than once, so every move
 * here is decided against what is stored:
 *
 * - a subscription's state (`customer.subscription.*`) is replaced only by an event created at the
 *   same second or later than the one that set it (`state_at`); a subscription that ended is final;
 * - an invoice (`invoice.paid`, `invoice.payment_failed`) counts only if no newer invoice event was
 *   applied (`invoice_at`), and a paid period only moves forward;
 * - a checkout only tells which customer is the account's.
 *
 * `planFor` then says which plan the account is on: the subscription's while it is active or
 * trialing, and while it is past due for less than the grace period; Free otherwise.
 */
import type { AccountPlanId } from "../accounts/plans";
import type { PaidPlanId } from "./options";

/** Stripe's subscription statuses, and `none` before any. */
export type SubscriptionStatus = "none" | "active" | "trialing" | "past_due" | "unpaid" | "canceled" | "incomplete" | "incomplete_expired" | "paused";

export interface Period {
	/** Epoch milliseconds. */
	start: number;
	end: number;
}

export interface SubscriptionState {
	/** The account id. */
	_id: string;
	customer_id: string | null;
	subscription_id: string | null;
	price_id: string | null;
	/** The plan the subscription's price pays for; null for none, or a price this deployment does not sell. */
	paid_plan: PaidPlanId | null;
	status: SubscriptionStatus;
	/** The current paid period. */
	period: Period | null;
	/** When a payment first failed, unpaid since (epoch ms); null while payments go through. */
	past_due_since: number | null;
	/** `created` (Unix seconds) of the newest event that set the subscription's state. */
	state_at: number;
	/** `created` (Unix seconds) of the newest invoice event applied. */
	invoice_at: number;
	/** Subscriptions that ended: their later events change nothing. */
	ended: string[];
	/** The plan last applied to the account. */
	applied_plan: AccountPlanId;
	/** Bumped on every stored change; orders the plan changes sent to the account. */
	revision: number;
	updated_at: number;
}

interface FactBase {
	/** The account the event names (Checkout's `client_reference_id`, the subscription's metadata), if any. */
	account_id: string | null;
	customer_id: string | null;
	/** The event's `created`, Unix seconds. */
	at: number;
}

/** What an event says, in the terms of this module (lib/billing/stripe-events.ts reads it from the event). */
export type BillingFact =
	| (FactBase & { kind: "checkout"; subscription_id: string | null })
	| (FactBase & {
			kind: "subscription";
			subscription_id: string;
			/** `customer.subscription.deleted`. */
			deleted: boolean;
			status: SubscriptionStatus;
			price_id: string | null;
			paid_plan: PaidPlanId | null;
			period: Period | null;
	  })
	| (FactBase & { kind: "invoice"; paid: boolean; subscription_id: string | null; period: Period | null });

export function blankState(accountId: string): SubscriptionState {
	return {
		_id: accountId,
		customer_id: null,
		subscription_id: null,
		price_id: null,
		paid_plan: null,
		status: "none",
		period: null,
		past_due_since: null,
		state_at: 0,
		invoice_at: 0,
		ended: [],
		applied_plan: "free",
		revision: 0,
		updated_at: 0
	};
}

const LIVE: readonly SubscriptionStatus[] = ["active", "trialing", "past_due"];

/** The subscription still stands (it may become paid again): active, trialing or past due. */
export function isLive(state: Pick<SubscriptionState, "status">): boolean {
	return LIVE.includes(state.status);
}

function withCustomer(state: SubscriptionState, fact: FactBase): SubscriptionState {
	return fact.customer_id && !state.customer_id ? { ...state, customer_id: fact.customer_id } : state;
}

function subscriptionMoved(state: SubscriptionState, fact: Extract<BillingFact, { kind: "subscription" }>): SubscriptionState | null {
	if (state.ended.includes(fact.subscription_id)) return null;
	const current = state.subscription_id === null || state.subscription_id === fact.subscription_id;
	if (fact.deleted) {
		const ended = [...state.ended, fact.subscription_id];
		// Another, newer subscription carries the account: only remember that this one ended.
		if (!current) return { ...state, ended };
		return { ...state, ended, subscription_id: fact.subscription_id, status: "canceled", paid_plan: null, period: null, past_due_since: null, state_at: Math.max(state.state_at, fact.at) };
	}
	if (fact.at < state.state_at) return null;
	const pastDue = fact.status === "past_due" || fact.status === "unpaid";
	return {
		...state,
		subscription_id: fact.subscription_id,
		status: fact.status,
		price_id: fact.price_id,
		paid_plan: fact.paid_plan,
		period: fact.period ?? (current ? state.period : null),
		past_due_since: pastDue ? (state.past_due_since ?? fact.at * 1000) : fact.status === "active" || fact.status === "trialing" ? null : state.past_due_since,
		state_at: fact.at
	};
}

function invoiceMoved(state: SubscriptionState, fact: Extract<BillingFact, { kind: "invoice" }>): SubscriptionState | null {
	if (fact.subscription_id !== null && state.subscription_id !== null && fact.subscription_id !== state.subscription_id) return null;
	if (fact.subscription_id !== null && state.ended.includes(fact.subscription_id)) return null;
	if (fact.at < state.invoice_at) return null;
	if (!fact.paid) {
		return { ...state, invoice_at: fact.at, past_due_since: state.past_due_since ?? fact.at * 1000, status: state.status === "active" ? "past_due" : state.status };
	}
	const forward = fact.period !== null && (state.period === null || fact.period.start >= state.period.start);
	return {
		...state,
		subscription_id: state.subscription_id ?? fact.subscription_id,
		invoice_at: fact.at,
		period: forward ? fact.period : state.period,
		past_due_since: null,
		status: state.status === "past_due" || state.status === "unpaid" ? "active" : state.status
	};
}

/**
 * The state after `fact`, or null when the fact changes nothing (an older event, one about a
 * subscription that ended, or one that repeats what is stored).
 */
export function applyFact(state: SubscriptionState, fact: BillingFact): SubscriptionState | null {
	const base = withCustomer(state, fact);
	let next: SubscriptionState | null;
	if (fact.kind === "checkout") next = base;
	else if (fact.kind === "subscription") next = subscriptionMoved(base, fact);
	else next = invoiceMoved(base, fact);
	if (next === null) return base === state ? null : base;
	return sameState(next, state) ? null : next;
}

function sameState(a: SubscriptionState, b: SubscriptionState): boolean {
	const { revision: _ra, updated_at: _ua, ...restA } = a;
	const { revision: _rb, updated_at: _ub, ...restB } = b;
	return JSON.stringify(restA) === JSON.stringify(restB);
}

export interface PlanDecision {
	plan: AccountPlanId;
	/** The paid period messages are counted in; null: UTC calendar months. */
	period: Period | null;
	/** While past due: when the plan falls back to Free (epoch ms). */
	graceEndsAt: number | null;
}

/** Which plan the account is on at `now`, with `graceMs` of grace for a payment that failed. */
export function planFor(state: SubscriptionState, now: number, graceMs: number): PlanDecision {
	const free: PlanDecision = { plan: "free", period: null, graceEndsAt: null };
	if (!state.paid_plan || !isLive(state)) return free;
	const graceEndsAt = state.past_due_since === null ? null : state.past_due_since + graceMs;
	if (graceEndsAt !== null && now >= graceEndsAt) return free;
	return { plan: state.paid_plan, period: state.period, graceEndsAt };
}
