/**
 * billing: owner of subscriptions and processed webhook events. Stripe moves accounts between plans:
 * its webhook (verified with the `stripe` package over the raw body) reports checkouts, subscription
 * changes and invoices; this service keeps each account's subscription, ordered and idempotent
 * (lib/billing/subscription.ts), and moves the account to the plan that follows through
 * `accounts.changePlan`, which applies it to every chatbot. It also serves the Billing page, opens
 * Checkout Sessions and the customer portal, and ends the grace of accounts whose payment failed.
 *
 * - billing/webhook.ts: the webhook, applying facts, the grace sweep;
 * - billing/pages.ts: the Billing page and its forms.
 *
 * Without Stripe configuration (STRIPE_SECRET_KEY) the page says billing is off and the webhook
 * answers 404.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { createStripeClient } from "../lib/billing/stripe-client";
import type { SubscriptionState } from "../lib/billing/subscription";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import type { BillingMethods, BillingThis, BillingVars, ProcessedEvent } from "./billing/context";
import { pageActions, pageMethods } from "./billing/pages";
import { webhookActions, webhookMethods } from "./billing/webhook";

/** How often past-due accounts are checked for the end of their grace period. */
const SWEEP_EVERY_MS = 10 * 60_000;

export interface BillingServiceOptions {
	now?: () => number;
}

export default function createBillingService(config: Readonly<AppConfig>, opts: BillingServiceOptions = {}): ServiceSchema<ServiceSettingSchema, BillingMethods, BillingVars> {
	return {
		name: "billing",
		mixins: [createDbMixin(config, "subscriptions") as ServiceSchema],

		actions: { ...webhookActions, ...pageActions(config.publicUrl) },

		methods: { ...webhookMethods, ...pageMethods(config.publicUrl) } as BillingMethods,

		async started(this: BillingThis) {
			this.now = opts.now ?? Date.now;
			this.options = config.billing;
			this.stripe = config.billing ? createStripeClient(config.billing) : undefined;
			this.subscriptions = (this as unknown as { documents: DocumentCollection<SubscriptionState> }).documents;
			const events = await openCollection<ProcessedEvent>(config, "billing_events", this);
			this.events = events.collection;
			this.closers = [events.close];
			this.sweepTimer = setInterval(() => {
				this.sweep(this.now()).catch(err => this.logger.warn("Billing sweep failed:", (err as Error).message));
			}, SWEEP_EVERY_MS);
			this.sweepTimer.unref();
		},

		async stopped(this: BillingThis) {
			clearInterval(this.sweepTimer);
			for (const close of this.closers ?? []) await close();
		}
	};
}
