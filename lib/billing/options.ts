/** What the billing code takes from the configuration (config/index.ts builds it from the environment). */
import type { PlanId } from "../accounts/plans";

/** The plans a subscription can pay for. */
export const PAID_PLANS = ["pro", "business"] as const;
export type PaidPlanId = (typeof PAID_PLANS)[number];

export interface PlanPrice {
	/** The Stripe price a Checkout Session subscribes to (`price_...`). */
	priceId: string;
	/** The price as the Billing page shows it, e.g. "€19 / month"; undefined: shown at checkout. */
	label: string | undefined;
}

export interface BillingOptions {
	/** Stripe's secret API key (`sk_...` or a restricted `rk_...`). */
	secretKey: string;
	/** The signing secret of the webhook endpoint (`whsec_...`). */
	webhookSecret: string;
	/** Stripe's API base URL; undefined is Stripe itself. Tests point it at a loopback stand-in. */
	apiUrl: string | undefined;
	/** The price of each plan that can be bought; a plan without one has no Upgrade button. */
	prices: Partial<Record<PaidPlanId, PlanPrice>>;
	/** Days a past-due subscription keeps its plan while Stripe retries the payment. */
	graceDays: number;
}

/** The paid plan a Stripe price stands for, or undefined for a price this deployment does not sell. */
export function planOfPrice(options: Pick<BillingOptions, "prices">, priceId: string | null | undefined): PlanId | undefined {
	if (!priceId) return undefined;
	return PAID_PLANS.find(plan => options.prices[plan]?.priceId === priceId);
}
