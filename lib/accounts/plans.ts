/**
 * Plans and their limits. Anonymous tool-server sandboxes use `sandbox` (SPEC §8.3); new accounts
 * start on `free`; the billing service moves them between `free`, `pro` and `business` on Stripe's
 * word (accounts.changePlan).
 *
 * Every limit except `chatbots` applies per chatbot, because that is how usage is reported to the
 * agent (`get_chatbot` returns `limits` and `usage` of one chatbot).
 */

export type PlanId = "sandbox" | "free" | "pro" | "business";

export interface PlanLimits {
	/** Chatbots the owner may have at once. */
	chatbots: number;
	/** Pages crawled per chatbot. */
	pages: number;
	/** Answers per chatbot in each `messagesPeriod`. */
	messages: number;
	/** `lifetime` for the sandbox (its 10 answers are a trial), `month` for accounts. */
	messagesPeriod: "lifetime" | "month";
	/** Training characters per chatbot (all sources together). */
	chars: number;
	/** Uploaded files per chatbot (the dashboard uploads them; the tool server has no file tool). */
	files: number;
	/** Days before an unclaimed chatbot is deleted; null keeps it while the account exists. */
	retentionDays: number | null;
	/**
	 * Days each chat exchange (question, answer, citations) stays in the conversation log. The
	 * sandbox keeps them as long as its chatbot lives; accounts keep them for the analytics page's
	 * longest range (90 days). Daily message and widget counters are not transcripts and stay longer.
	 */
	conversationDays: number;
}

export interface Plan {
	id: PlanId;
	name: string;
	limits: Readonly<PlanLimits>;
}

export const PLANS: Readonly<Record<PlanId, Readonly<Plan>>> = Object.freeze({
	sandbox: {
		id: "sandbox",
		name: "Anonymous sandbox",
		limits: { chatbots: 1, pages: 5, messages: 10, messagesPeriod: "lifetime", chars: 50_000, files: 0, retentionDays: 8, conversationDays: 8 }
	},
	free: {
		id: "free",
		name: "Free",
		limits: { chatbots: 3, pages: 50, messages: 100, messagesPeriod: "month", chars: 400_000, files: 20, retentionDays: null, conversationDays: 90 }
	},
	pro: {
		id: "pro",
		name: "Pro",
		limits: { chatbots: 10, pages: 1_000, messages: 5_000, messagesPeriod: "month", chars: 5_000_000, files: 500, retentionDays: null, conversationDays: 90 }
	},
	business: {
		id: "business",
		name: "Business",
		limits: { chatbots: 50, pages: 10_000, messages: 40_000, messagesPeriod: "month", chars: 40_000_000, files: 5_000, retentionDays: null, conversationDays: 90 }
	}
});

/** The plans an account can be on (the sandbox is for anonymous chatbots only). */
export const ACCOUNT_PLANS = ["free", "pro", "business"] as const;
export type AccountPlanId = (typeof ACCOUNT_PLANS)[number];

/** The plan a new account starts on. */
export const DEFAULT_ACCOUNT_PLAN: PlanId = "free";

/** Limits of an anonymous tool-server sandbox (SPEC §8.3: 5 pages, 10 messages, 50,000 characters, 8 days). */
export const SANDBOX_LIMITS: Readonly<PlanLimits> = PLANS.sandbox.limits;

export function isPlanId(value: unknown): value is PlanId {
	return typeof value === "string" && Object.prototype.hasOwnProperty.call(PLANS, value);
}

export function planLimits(planId: PlanId): Readonly<PlanLimits> {
	return PLANS[planId].limits;
}
