/**
 * Stripe's webhook, as the billing service handles it: verify the signature over the raw bytes,
 * take the event id once (a replay changes nothing), read the fact the event reports, apply it to
 * the account's stored subscription (an older event never overwrites a newer state), and move the
 * account to the plan that follows (accounts.changePlan, which applies it to every chatbot).
 *
 * An event for a customer or account we do not know is answered 200 and logged: Stripe would
 * otherwise retry it for days, and nothing we could do later would make it known.
 */
import { verifiedEvent } from "../../lib/billing/stripe-client";
import { factOf, STRIPE_WEBHOOK_MAX_BYTES } from "../../lib/billing/stripe-events";
import { applyFact, blankState, planFor, SubscriptionState } from "../../lib/billing/subscription";
import { appError } from "../../lib/errors";
import type { HttpContext } from "../../middlewares/http-context";
import type { BillingActions, BillingThis, Caller, Outcome, ProcessedEvent } from "./context";

/** An event still `processing` after this long was dropped by a crashed node: a retry takes it over. */
const PROCESSING_LEASE_MS = 60_000;
/** Processed event ids are kept this long; Stripe retries an event for up to three days. */
const KEEP_EVENTS_MS = 30 * 24 * 3600_000;
const DAY_MS = 24 * 3600_000;
/** Compare-and-set rounds when several events for one account arrive at once. */
const STORE_ATTEMPTS = 8;

type C<P> = HttpContext<P>;

/** Takes the event id for this delivery; `duplicate` when it was processed before. */
async function claimEvent(self: BillingThis, id: string, type: string, created: number): Promise<{ duplicate: ProcessedEvent } | { claimed: true }> {
	const now = self.now();
	try {
		await self.events.insert({ _id: id, type, status: "processing", outcome: null, account_id: null, created, received_at: now });
		return { claimed: true };
	} catch {
		const seen = await self.events.findOne({ _id: id });
		if (!seen) throw appError("conflict", "The event is being recorded by another delivery; retry.");
		if (seen.status === "done") return { duplicate: seen };
		const abandoned = now - seen.received_at >= PROCESSING_LEASE_MS;
		if (abandoned && (await self.events.update({ _id: id, status: "processing", received_at: seen.received_at }, { $set: { received_at: now } })) === 1) return { claimed: true };
		throw appError("conflict", "Another delivery of this event is being processed; retry later.");
	}
}

export const webhookActions: BillingActions = {
	/**
	 * A Stripe webhook delivery from the gateway: `payload` is the raw body in base64 (the signature
	 * is over those bytes), `signature` the Stripe-Signature header. Returns `{ok, event_id, outcome}`
	 * (`duplicate: true` for an event id seen before). Throws `not_found` when billing is off,
	 * `invalid_signature` (nothing written) and `invalid_json`.
	 */
	webhook: {
		params: { payload: { type: "string", max: Math.ceil(STRIPE_WEBHOOK_MAX_BYTES / 3) * 4 + 4 }, signature: { type: "string", optional: true, max: 2000 } },
		async handler(this: BillingThis, ctx: C<{ payload: string; signature?: string }>) {
			const options = this.configured();
			const event = verifiedEvent(this.stripe!, Buffer.from(ctx.params.payload, "base64"), ctx.params.signature, options.webhookSecret, this.now());
			if (typeof event.id !== "string" || typeof event.type !== "string" || typeof event.created !== "number") {
				throw appError("validation_failed", "The event has no id, type or created time.");
			}
			const claim = await claimEvent(this, event.id, event.type, event.created);
			if ("duplicate" in claim) return { ok: true, event_id: event.id, outcome: claim.duplicate.outcome, duplicate: true };
			try {
				const fact = factOf(event, options);
				const caller: Caller = (action, params) => ctx.call(action, params);
				const result = fact ? await this.applyFact(caller, fact) : { outcome: "ignored" as Outcome, account_id: null };
				if (result.outcome === "unknown_customer" || result.outcome === "unknown_account") {
					this.logger.warn(`Stripe event ${event.id} (${event.type}) names an ${result.outcome === "unknown_account" ? "account" : "customer"} we do not know; answered 200 and ignored.`);
				}
				await this.events.update({ _id: event.id }, { $set: { status: "done", outcome: result.outcome, account_id: result.account_id } });
				return { ok: true, event_id: event.id, outcome: result.outcome };
			} catch (err) {
				// Not processed: let Stripe's retry take the id again.
				await this.events.remove({ _id: event.id, status: "processing" });
				throw err;
			}
		}
	},

	/** Moves past-due accounts whose grace ended to Free and forgets old event ids; `now` lets tests move the clock. */
	sweep: {
		visibility: "public",
		params: { now: { type: "number", optional: true } },
		handler(this: BillingThis, ctx: C<{ now?: number }>) {
			return this.sweep(ctx.params.now ?? this.now());
		}
	}
};

export const webhookMethods = {
	configured(this: BillingThis) {
		if (!this.options || !this.stripe) throw appError("not_found", "Billing is not enabled on this service.", { hint: "The operator has not configured Stripe (STRIPE_SECRET_KEY)." });
		return this.options;
	},

	async applyFact(this: BillingThis, caller, fact) {
		for (let attempt = 0; attempt < STORE_ATTEMPTS; attempt++) {
			const byCustomer = fact.account_id === null && fact.customer_id !== null ? await this.subscriptions.findOne({ customer_id: fact.customer_id }) : null;
			const accountId = fact.account_id ?? byCustomer?._id ?? null;
			if (accountId === null) return { outcome: "unknown_customer", account_id: null };
			if (fact.account_id !== null && !(await caller("accounts.getAccount", { account_id: accountId }))) return { outcome: "unknown_account", account_id: accountId };
			const current = byCustomer ?? (await this.subscriptions.findOne({ _id: accountId }));
			const next = applyFact(current ?? blankState(accountId), fact);
			if (next === null) return { outcome: "unchanged", account_id: accountId };
			if (await this.storeAndApply(caller, current, next, this.now())) return { outcome: "applied", account_id: accountId };
		}
		throw appError("conflict", "The account's subscription kept changing while the event was applied; retry.");
	},

	async storeAndApply(this: BillingThis, caller, current, next, now) {
		const options = this.configured();
		const decision = planFor(next, now, options.graceDays * DAY_MS);
		const stored: SubscriptionState = { ...next, applied_plan: decision.plan, revision: (current?.revision ?? 0) + 1, updated_at: now };
		if (current) {
			const { _id, ...fields } = stored;
			if ((await this.subscriptions.update({ _id, revision: current.revision }, { $set: fields })) !== 1) return false;
		} else {
			try {
				await this.subscriptions.insert(stored);
			} catch {
				return false; // another event for the account stored its first state: read again
			}
		}
		try {
			await caller("accounts.changePlan", { account_id: stored._id, plan: decision.plan, revision: stored.revision, period: decision.period });
		} catch (err) {
			if ((err as { type?: string }).type !== "not_found") throw err;
			this.logger.warn(`Billing state of account ${stored._id} stored, but the account no longer exists.`);
		}
		return true;
	},

	async sweep(this: BillingThis, now: number) {
		const options = this.options;
		let downgraded = 0;
		if (options) {
			const graceMs = options.graceDays * DAY_MS;
			const lapsed = await this.subscriptions.find({ applied_plan: { $ne: "free" }, past_due_since: { $lte: now - graceMs } }, { limit: 200 });
			for (const state of lapsed) {
				// A fresh revision, so this move is ordered after every plan change sent before it.
				if (await this.storeAndApply((action, params) => this.broker.call(action, params), state, { ...state }, now)) downgraded++;
			}
		}
		const forgotten = await this.events.remove({ status: "done", received_at: { $lte: now - KEEP_EVENTS_MS } });
		return { downgraded, forgotten };
	}
} as Pick<BillingThis, "configured" | "applyFact" | "storeAndApply" | "sweep">;
