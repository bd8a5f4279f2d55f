/**
 * The accounts domain, for the pages below it and for other services: accounts, log-in
 * credentials, web sessions and API keys. Every action validates its params here, at its edge;
 * none knows about HTTP.
 */
import { chatbotLimitsFromPlan } from "../../lib/accounts/chatbot-limits";
import { normalizeEmail } from "../../lib/accounts/email";
import { checkPasswordPolicy } from "../../lib/accounts/password";
import { ACCOUNT_PLANS, PLANS, PlanId } from "../../lib/accounts/plans";
import type { AccountView, ApiKeyView } from "../../lib/accounts/views";
import { appError } from "../../lib/errors";
import type { HttpContext } from "../../middlewares/http-context";
import { call } from "../call";
import type { AccountsActions } from "./context";
import { AccountDoc, accountView, apiKeyView } from "./store";

type C<P> = HttpContext<P>;
interface PlanChange {
	account_id: string;
	plan: PlanId;
	revision: number;
	period?: { start: number; end: number } | null;
}
interface Credentials {
	email: string;
	password: string;
}

/** The route schemas cap both at 1,000 characters; the policies below are stricter. */
const credentials = { email: "string|max:1000", password: "string|max:1000" };
const accountId = "string|min:1|max:100";
const sessionToken = "string|min:1|max:100";

const wrongCredentials = () =>
	appError("unauthorized", "The email address or the password is wrong.", { hint: "Check both and try again, or sign up at /account/signup." });

export const domainActions: AccountsActions = {
	/** The account a Bearer key selects: `{account_id, plan}`. Throws `unauthorized`. */
	verifyApiKey: {
		params: { key: "string|max:200" },
		handler(ctx: C<{ key: string }>) {
			return this.store.verifyKey(ctx.params.key);
		}
	},

	/** A new account on the Free plan: AccountView. Throws `validation_failed` (naming the fields) and `conflict`. */
	createAccount: {
		params: credentials,
		async handler(ctx: C<Credentials>): Promise<AccountView> {
			const email = normalizeEmail(ctx.params.email);
			const policy = checkPasswordPolicy(ctx.params.password);
			const fields = [...(email.ok ? [] : [{ field: "email", message: email.message }]), ...(policy.ok ? [] : [{ field: "password", message: policy.message }])];
			if (!email.ok || fields.length > 0) {
				throw appError("validation_failed", "The sign-up details are not valid.", { detail: fields.map(f => f.message).join(" "), fields });
			}
			return accountView(await this.store.createAccount(email.email, ctx.params.password));
		}
	},

	/**
	 * The account whose email and password these are: AccountView. Throws `unauthorized`, and
	 * `rate_limited` (with Retry-After) once the account's log-in budget is spent
	 * (lib/accounts/login-throttle.ts): then the password is not even checked.
	 */
	checkCredentials: {
		params: credentials,
		async handler(ctx: C<Credentials>): Promise<AccountView> {
			const email = normalizeEmail(ctx.params.email);
			if (!email.ok || ctx.params.password === "") throw wrongCredentials();
			const attempt = await this.throttle.attempt(email.email);
			if (!attempt.allowed) {
				const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
				throw appError("rate_limited", `Too many log-in attempts for this account. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`, {
					retryAfter: attempt.retryAfterSeconds,
					hint: "Wait for the number of seconds in Retry-After. The limit counts attempts for the account from every address."
				});
			}
			const account = await this.store.checkCredentials(email.email, ctx.params.password);
			if (!account) throw wrongCredentials();
			await this.throttle.succeeded(email.email);
			return accountView(account);
		}
	},

	/** The account with this id: AccountView, or null. */
	getAccount: {
		params: { account_id: accountId },
		async handler(ctx: C<{ account_id: string }>): Promise<AccountView | null> {
			const account = await this.store.findAccount(ctx.params.account_id);
			return account ? accountView(account) : null;
		}
	},

	/**
	 * Moves the account to a plan (the billing service calls this on Stripe's word) and applies the
	 * plan to every chatbot of the account (`chatbots.applyPlan`: limits, the message period — `period`
	 * for a subscriber, UTC calendar months when null — and which chatbots answer). Ordered by
	 * `revision`: an older change than the one applied changes nothing (`applied: false`).
	 * Idempotent. Returns `{applied, account, paused}`. Throws `not_found` for an unknown account.
	 */
	changePlan: {
		params: {
			account_id: accountId,
			plan: { type: "enum", values: [...ACCOUNT_PLANS] },
			revision: "number|integer|min:1",
			period: { type: "object", nullable: true, optional: true, props: { start: "number|integer|min:0", end: "number|integer|min:0" } }
		},
		async handler(ctx: C<PlanChange>): Promise<{ applied: boolean; account: AccountView; paused: string[] }> {
			const { account_id, plan, revision, period } = ctx.params;
			const moved = await this.store.changePlan(account_id, plan, revision);
			if (!moved) return { applied: false, account: accountView((await this.store.findAccount(account_id)) as AccountDoc), paused: [] };
			const limits = PLANS[plan].limits;
			const applied = await call<{ applied: boolean; paused: string[] }>(ctx, "chatbots.applyPlan", {
				account_id,
				limits: chatbotLimitsFromPlan(limits),
				max_chatbots: limits.chatbots,
				period: period ? { anchor: "paid", start: period.start, end: period.end } : null,
				revision
			});
			return { applied: true, account: accountView(moved), paused: applied.paused };
		}
	},

	/** Starts a web session for the account: `{token}` for the `cb_session` cookie (only its hash is stored). */
	startSession: {
		params: { account_id: accountId },
		async handler(ctx: C<{ account_id: string }>): Promise<{ token: string }> {
			return { token: await this.store.startSession(ctx.params.account_id) };
		}
	},

	/** Whose live session a cookie's token is: `{account}`, or null (unknown, expired or ended). */
	resolveSession: {
		params: { token: sessionToken },
		async handler(ctx: C<{ token: string }>): Promise<{ account: AccountView } | null> {
			const account = await this.store.sessionAccount(ctx.params.token);
			return account ? { account: accountView(account) } : null;
		}
	},

	/** Ends a web session (log out). */
	endSession: {
		params: { token: sessionToken },
		async handler(ctx: C<{ token: string }>): Promise<{ ok: true }> {
			await this.store.endSession(ctx.params.token);
			return { ok: true };
		}
	},

	/** The account's active API keys, newest first. */
	listKeys: {
		params: { account_id: accountId },
		async handler(ctx: C<{ account_id: string }>): Promise<ApiKeyView[]> {
			return (await this.store.activeKeys(ctx.params.account_id)).map(apiKeyView);
		}
	},

	/** Issues an API key: `{key, api_key}`; the key itself is in this answer only. Throws `conflict` at 20 active keys. */
	issueKey: {
		params: { account_id: accountId, name: { type: "string", optional: true, trim: true, max: 60 } },
		async handler(ctx: C<{ account_id: string; name?: string }>): Promise<{ key: string; api_key: ApiKeyView }> {
			const { key, doc } = await this.store.createKey(ctx.params.account_id, ctx.params.name || null);
			return { key, api_key: apiKeyView(doc) };
		}
	},

	/** Revokes one of the account's keys; it stops working at once. Throws `not_found`. */
	revokeKey: {
		params: { account_id: accountId, id: "string|min:1|max:100" },
		async handler(ctx: C<{ account_id: string; id: string }>): Promise<ApiKeyView> {
			return apiKeyView(await this.store.revokeKey(ctx.params.account_id, ctx.params.id));
		}
	}
};
