/**
 * The Billing page and its forms (each also answers programs posting JSON): Upgrade opens a Stripe
 * Checkout Session in subscription mode for the account (`client_reference_id` and the
 * subscription's metadata name it), Manage billing opens Stripe's customer portal, and the choice
 * of which chatbots answer goes to the chatbots service. The page is rendered here, by the service
 * that owns the subscription, with the account's chatbots from their owner.
 */
import { ACCOUNT_PLANS, AccountPlanId, PLANS } from "../../lib/accounts/plans";
import { PAID_PLANS, PaidPlanId } from "../../lib/billing/options";
import { isLive, planFor } from "../../lib/billing/subscription";
import { calendarMonth, messagesInPeriod, periodAt } from "../../lib/chatbots/message-period";
import type { Chatbot } from "../../lib/chatbots/model";
import { chatUrl } from "../../lib/chatbots/views";
import { appError } from "../../lib/errors";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { BillingPage, renderBillingPage } from "../../lib/site/billing-page";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, viewerOf } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { call } from "../call";
import type { BillingActions, BillingThis } from "./context";

type C<P = Record<string, never>> = HttpContext<P>;

const DAY_MS = 24 * 3600_000;
const NOTICES: Record<string, string> = {
	done: "Thank you. Your plan changes as soon as Stripe confirms the payment, usually within seconds: reload this page to see it.",
	canceled: "Checkout was canceled; nothing was charged."
};

const stripeDown = () => appError("unavailable", "Stripe did not answer; nothing was changed. Try again in a moment.");

/** Runs a call to Stripe's API; its failures become `unavailable` (the page says so to a browser). */
async function withStripe<T>(self: BillingThis, work: () => Promise<T>): Promise<T> {
	try {
		return await work();
	} catch (err) {
		self.logger.warn("Stripe API call failed:", (err as Error).message);
		throw stripeDown();
	}
}

/** Sends a browser on to Stripe's page, or tells a program where it is; a browser meeting a Stripe outage sees the Billing page with the reason. */
async function toStripe(self: BillingThis, ctx: C<unknown>, open: () => Promise<{ id: string; url: string | null }>): Promise<HttpReply> {
	let session: { id: string; url: string | null };
	try {
		session = await withStripe(self, open);
	} catch (err) {
		if (answersJson(ctx)) throw err;
		return self.billingPage(ctx, 503, { error: (err as Error).message });
	}
	if (!session.url) throw stripeDown();
	return answersJson(ctx) ? jsonReply({ ok: true, id: session.id, url: session.url }) : redirectReply(session.url);
}

export function pageActions(publicUrl: string): BillingActions {
	return {
		/** The Billing page; `checkout` (`done` or `canceled`) is where Stripe's Checkout sends the person back. */
		page: {
			reply: "page",
			auth: "session",
			returnTo: "/account/billing",
			params: { checkout: { type: "string", optional: true, max: 20 } },
			handler(this: BillingThis, ctx: C<{ checkout?: string }>) {
				return this.billingPage(ctx, 200, { notice: NOTICES[ctx.params.checkout ?? ""] });
			}
		},

		/**
		 * Upgrade: a Checkout Session in subscription mode for the plan's configured price, for this
		 * account (`client_reference_id`, and `account_id` in the subscription's metadata, so every
		 * later event names the account whatever order it comes in). Browsers are sent on to Stripe
		 * (303); programs get `{ok, id, url}`. Throws `not_found` when billing is off,
		 * `validation_failed` for a plan without a price, `conflict` when a subscription already
		 * stands (plans then change in the portal), `unavailable` when Stripe does not answer.
		 */
		checkout: {
			reply: "form",
			auth: "session",
			returnTo: "/account/billing",
			csrf: true,
			params: { ...CSRF_PARAMS, plan: { type: "enum", values: [...PAID_PLANS] } },
			handler(this: BillingThis, ctx: C<{ plan: PaidPlanId }>) {
				const { account } = viewerOf(ctx);
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const options = this.configured();
						const price = options.prices[ctx.params.plan];
						if (!price) throw appError("validation_failed", `The ${PLANS[ctx.params.plan].name} plan cannot be bought here.`, { fields: [{ field: "plan", message: "has no price configured" }] });
						const state = await this.subscriptions.findOne({ _id: account.id });
						if (state && isLive(state)) throw appError("conflict", "This account already has a subscription: change plans with Manage billing.");
						return toStripe(this, ctx, () =>
							this.stripe!.checkout.sessions.create({
								mode: "subscription",
								line_items: [{ price: price.priceId, quantity: 1 }],
								client_reference_id: account.id,
								...(state?.customer_id ? { customer: state.customer_id } : { customer_email: account.email }),
								subscription_data: { metadata: { account_id: account.id } },
								metadata: { account_id: account.id },
								success_url: `${publicUrl}/account/billing?checkout=done`,
								cancel_url: `${publicUrl}/account/billing?checkout=canceled`
							})
						);
					},
					(status, error) => this.billingPage(ctx, status, { error })
				);
			}
		},

		/** Manage billing: Stripe's customer portal (payment method, invoices, plan changes, cancelling). Throws `conflict` before the first checkout. */
		portal: {
			reply: "form",
			auth: "session",
			returnTo: "/account/billing",
			csrf: true,
			params: CSRF_PARAMS,
			handler(this: BillingThis, ctx: C) {
				const { account } = viewerOf(ctx);
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						this.configured();
						const state = await this.subscriptions.findOne({ _id: account.id });
						if (!state?.customer_id) throw appError("conflict", "There is nothing to manage yet: this account has not subscribed to a plan.");
						return toStripe(this, ctx, () => this.stripe!.billingPortal.sessions.create({ customer: state.customer_id as string, return_url: `${publicUrl}/account/billing` }));
					},
					(status, error) => this.billingPage(ctx, status, { error })
				);
			}
		},

		/**
		 * Which chatbots answer while the account holds more than its plan allows (`chatbot_ids`: the
		 * ones to keep answering). Browsers go back to the Billing page; programs get the chatbots with
		 * their `paused` flag. Throws `validation_failed` (more than the plan allows), `not_found`.
		 */
		chooseChatbots: {
			reply: "form",
			auth: "session",
			returnTo: "/account/billing",
			csrf: true,
			params: {
				...CSRF_PARAMS,
				chatbot_ids: { type: "multi", optional: true, rules: [{ type: "array", items: "string|min:1|max:100", max: 200 }, { type: "string", min: 1, max: 100 }] }
			},
			handler(this: BillingThis, ctx: C<{ chatbot_ids?: string | string[] }>) {
				const { account } = viewerOf(ctx);
				const raw = ctx.params.chatbot_ids;
				const ids = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const chatbots = await call<Chatbot[]>(ctx, "chatbots.chooseAnswering", { account_id: account.id, ids, max_chatbots: PLANS[account.plan].limits.chatbots });
						if (!answersJson(ctx)) return redirectReply("/account/billing");
						return jsonReply({ ok: true, chatbots: chatbots.map(c => ({ chatbot_id: c._id, name: c.name, paused: c.paused === true })) });
					},
					(status, error) => this.billingPage(ctx, status, { error })
				);
			}
		}
	};
}

export function pageMethods(publicUrl: string): Pick<BillingThis, "billingPage"> {
	return {
		async billingPage(this: BillingThis, ctx, status, extra = {}) {
			const { account, csrfToken } = viewerOf(ctx);
			const now = this.now();
			const plan: AccountPlanId = account.plan === "sandbox" ? "free" : account.plan;
			const [chatbots, state] = await Promise.all([
				call<Chatbot[]>(ctx, "chatbots.listByAccount", { account_id: account.id }),
				this.options ? this.subscriptions.findOne({ _id: account.id }) : Promise.resolve(null)
			]);
			const decision = state && this.options ? planFor(state, now, this.options.graceDays * DAY_MS) : null;
			const paidPeriod = plan !== "free" && decision?.period ? periodAt({ anchor: "paid", ...decision.period }, now) : null;
			const period = paidPeriod ? { start: paidPeriod.start, end: paidPeriod.end, paid: true } : { ...calendarMonth(now), paid: false };
			const view: BillingPage = {
				baseUrl: publicUrl,
				csrfToken,
				email: account.email,
				enabled: this.options !== undefined,
				plan,
				period,
				plans: ACCOUNT_PLANS.map(id => {
					const price = id === "free" ? undefined : this.options?.prices[id];
					return { id, name: PLANS[id].name, limits: PLANS[id].limits, price: price?.label ?? null, buyable: price !== undefined };
				}),
				subscribed: state !== null && isLive(state),
				customer: Boolean(state?.customer_id),
				pastDue: plan !== "free" && decision?.graceEndsAt ? { graceEndsAt: decision.graceEndsAt } : null,
				maxChatbots: PLANS[plan].limits.chatbots,
				chatbots: chatbots.map(c => ({
					id: c._id,
					name: c.name,
					chat_url: chatUrl(publicUrl, c.slug),
					paused: c.paused === true,
					messages: messagesInPeriod(c, now),
					max_messages: c.limits.max_messages,
					chars: c.counts.chars,
					max_chars: c.limits.max_chars,
					pages: c.counts.urls,
					max_pages: c.limits.max_urls
				})),
				...extra
			};
			return pageReply(renderBillingPage(view), { status });
		}
	};
}
