/**
 * The account and claim pages and their forms: a thin layer over the domain actions. Each action
 * declares what it needs (middlewares/http-context.ts): `reply` (page, or form that programs may
 * post as JSON), `auth` and `csrf`. The middlewares answer refusals; a handler only decides what a
 * successful request shows, and which form to show again, with the reason, when a browser's
 * request is refused.
 */
import { chatbotLimitsFromPlan } from "../../lib/accounts/chatbot-limits";
import { anonymousCsrf } from "../../lib/accounts/csrf";
import { serializeClearedSessionCookie, serializeSessionCookie } from "../../lib/accounts/cookies";
import { safeNext } from "../../lib/accounts/next-path";
import { PLANS } from "../../lib/accounts/plans";
import { hashToken, looksLikeToken } from "../../lib/accounts/tokens";
import type { AccountView, ApiKeyView } from "../../lib/accounts/views";
import type { Chatbot, SourceKind } from "../../lib/chatbots/model";
import { messagesInPeriod } from "../../lib/chatbots/message-period";
import { chatbotState } from "../../lib/chatbots/status";
import { statusLabel } from "../../lib/site/dashboard/shell";
import { chatUrl } from "../../lib/chatbots/views";
import { appError } from "../../lib/errors";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { chatbotSummary } from "../../lib/mcp/chatbot-view";
import { renderAccountPage, renderClaimedPage, renderClaimPage, renderLoginPage, renderSignupPage } from "../../lib/site/account-pages";
import { answersJson, headersOf, HttpContext, optionalViewerOf, Viewer, viewerOf } from "../../middlewares/http-context";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { call } from "../call";
import type { AccountsActions, AccountsThis } from "./context";

type C<P = Record<string, never>> = HttpContext<P>;
type Entry = "signup" | "login";

interface EntryParams {
	email: string;
	password: string;
	next?: string;
}

export type PageMethods = {
	enter(ctx: C<EntryParams>, entry: Entry): Promise<HttpReply>;
	entryPage(ctx: C<unknown>, entry: Entry, status: number, extra: { next: string; email?: string; error?: string }): HttpReply;
	accountPage(ctx: C<unknown>, status: number, extra?: { newKey?: string; error?: string }): Promise<HttpReply>;
	claimTarget(ctx: C<unknown>, token: string): Promise<Chatbot>;
	claimPage(ctx: C<unknown>, chatbot: Chatbot, token: string, status: number, error?: string): HttpReply;
};

/** Sanitised by `safeNext`, which falls back for anything but a short local path. */
const next = { type: "string", optional: true };
const claimToken = "string|min:1|max:200";

const claimGone = () =>
	appError("not_found", "This claim link was already used, or its chatbot no longer exists.", {
		hint: "A claim link works once. If you claimed it, the chatbot is in your account.",
		page: {
			title: "This claim link no longer works",
			message: "It was already used, or the sandbox chatbot was deleted after 8 days. A claim link works once.",
			link: { href: "/account", label: "Your account" }
		}
	});

export function pageActions(publicUrl: string): AccountsActions {
	const base = { baseUrl: publicUrl };

	return {
		signupPage: {
			reply: "page",
			params: { next },
			handler(ctx: C<{ next?: string }>) {
				return this.entryPage(ctx, "signup", 200, { next: safeNext(ctx.params.next) });
			}
		},

		/** Sign up (form or JSON): a new account on the Free plan, logged in at once. */
		signup: {
			reply: "form",
			csrf: true,
			params: { ...CSRF_PARAMS, email: "string|max:1000", password: "string|max:1000", next },
			handler(ctx: C<EntryParams>) {
				return this.enter(ctx, "signup");
			}
		},

		loginPage: {
			reply: "page",
			params: { next },
			handler(ctx: C<{ next?: string }>) {
				return this.entryPage(ctx, "login", 200, { next: safeNext(ctx.params.next) });
			}
		},

		/** Log in (form or JSON): sets the session cookie. */
		login: {
			reply: "form",
			csrf: true,
			params: { ...CSRF_PARAMS, email: "string|max:1000", password: "string|max:1000", next },
			handler(ctx: C<EntryParams>) {
				return this.enter(ctx, "login");
			}
		},

		/** Log out: ends the session, if any, and clears the cookie. */
		logout: {
			reply: "form",
			auth: "optional",
			// Without a session there is nothing to end, so nothing to forge.
			csrf: "session",
			params: CSRF_PARAMS,
			async handler(ctx: C) {
				const viewer = optionalViewerOf(ctx);
				if (viewer) await call(ctx, "accounts.endSession", { token: viewer.sessionToken });
				const cookies = [serializeClearedSessionCookie({ publicUrl })];
				return answersJson(ctx) ? jsonReply({ ok: true }, { cookies }) : redirectReply("/", { cookies });
			}
		},

		/** Account settings: chatbots and API keys. */
		settings: {
			reply: "page",
			auth: "session",
			handler(ctx: C) {
				return this.accountPage(ctx, 200);
			}
		},

		/** Creates an API key, shown once (a browser: on the settings page; JSON: in the body). */
		createApiKey: {
			reply: "form",
			auth: "session",
			csrf: true,
			params: { ...CSRF_PARAMS, name: "string|optional|max:60" },
			handler(ctx: C<{ name?: string }>) {
				const viewer = viewerOf(ctx);
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const created = await call<{ key: string; api_key: ApiKeyView }>(ctx, "accounts.issueKey", { account_id: viewer.account.id, name: ctx.params.name });
						if (answersJson(ctx)) return jsonReply({ ok: true, ...created }, { status: 201, location: "/account" });
						return this.accountPage(ctx, 200, { newKey: created.key });
					},
					(status, error) => this.accountPage(ctx, status, { error })
				);
			}
		},

		/** Revokes one of the account's keys; it stops working at once. */
		revokeApiKey: {
			reply: "form",
			auth: "session",
			csrf: true,
			params: { ...CSRF_PARAMS, id: "string|min:1|max:100" },
			handler(ctx: C<{ id: string }>) {
				const viewer = viewerOf(ctx);
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const revoked = await call<ApiKeyView>(ctx, "accounts.revokeKey", { account_id: viewer.account.id, id: ctx.params.id });
						return answersJson(ctx) ? jsonReply({ ok: true, api_key: revoked }) : redirectReply("/account");
					},
					(status, error) => this.accountPage(ctx, status, { error })
				);
			}
		},

		/** The claim link's page: what the chatbot is, and a button to keep it (or log in first). */
		claimPage: {
			reply: "page",
			auth: "optional",
			params: { token: claimToken },
			async handler(ctx: C<{ token: string }>) {
				return this.claimPage(ctx, await this.claimTarget(ctx, ctx.params.token), ctx.params.token, 200);
			}
		},

		/** Keeps the chatbot: it joins the logged-in account and leaves sandbox retention. Works once. */
		claim: {
			reply: "form",
			auth: "session",
			returnTo: "/claim/{token}",
			csrf: true,
			params: { ...CSRF_PARAMS, token: claimToken },
			async handler(ctx: C<{ token: string }>) {
				const { account } = viewerOf(ctx);
				const chatbot = await this.claimTarget(ctx, ctx.params.token);
				const plan = PLANS[account.plan];
				let claimed: Chatbot;
				try {
					// The chatbots service reserves one of the plan's chatbot slots with the claim, atomically.
					claimed = await call<Chatbot>(ctx, "chatbots.claim", {
						id: chatbot._id,
						claim_hash: hashToken(ctx.params.token),
						account_id: account.id,
						limits: chatbotLimitsFromPlan(plan.limits),
						max_chatbots: plan.limits.chatbots
					});
				} catch (err) {
					const type = (err as { type?: unknown }).type;
					if (type === "not_found") throw claimGone();
					if (type !== "forbidden") throw err;
					const full = appError("forbidden", `The ${plan.name} plan allows ${plan.limits.chatbots} chatbots and this account has them all.`, {
						hint: "Keep it in another account, or delete a chatbot you no longer need."
					});
					if (!answersJson(ctx)) return this.claimPage(ctx, chatbot, ctx.params.token, 403, full.message);
					throw full;
				}
				const view = { chatbot_id: claimed._id, name: claimed.name, chat_url: chatUrl(publicUrl, claimed.slug) };
				return answersJson(ctx) ? jsonReply({ ok: true, chatbot: view }) : pageReply(renderClaimedPage({ ...base, chatbot: view }));
			}
		}
	};
}

export function pageMethods(publicUrl: string): PageMethods {
	const base = { baseUrl: publicUrl };

	const methods: PageMethods & ThisType<AccountsThis> = {
		/**
		 * The one sign-up and log-in flow: the domain action checks the details, a session starts,
		 * and a browser goes on to `next` while a program gets the account as JSON. A browser whose
		 * details are refused sees the form again with the reason and what it typed.
		 */
		enter(ctx, entry) {
			const next = safeNext(ctx.params.next);
			const { email, password } = ctx.params;
			return showFormAgainOnRefusal(
				ctx,
				async () => {
					const account = await call<AccountView>(ctx, entry === "signup" ? "accounts.createAccount" : "accounts.checkCredentials", { email, password });
					const session = await call<{ token: string }>(ctx, "accounts.startSession", { account_id: account.id });
					const cookies = [serializeSessionCookie(session.token, { publicUrl })];
					if (!answersJson(ctx)) return redirectReply(next, { cookies });
					return entry === "signup" ? jsonReply({ ok: true, account }, { status: 201, cookies, location: "/account" }) : jsonReply({ ok: true, account }, { cookies });
				},
				(status, error) => this.entryPage(ctx, entry, status, { next, email, error })
			);
		},

		/** The sign-up or log-in page, with the token of its anonymous form (and its cookie when new). */
		entryPage(ctx, entry, status, extra) {
			const csrf = anonymousCsrf(this.secret, headersOf(ctx).cookie, publicUrl);
			const render = entry === "signup" ? renderSignupPage : renderLoginPage;
			return pageReply(render({ ...base, csrfToken: csrf.token, ...extra }), { status, cookies: csrf.setCookie ? [csrf.setCookie] : [] });
		},

		async accountPage(ctx, status, extra = {}) {
			const viewer: Viewer = viewerOf(ctx);
			const [chatbots, keys] = await Promise.all([
				call<Chatbot[]>(ctx, "chatbots.listByAccount", { account_id: viewer.account.id }),
				call<ApiKeyView[]>(ctx, "accounts.listKeys", { account_id: viewer.account.id })
			]);
			const plan = PLANS[viewer.account.plan];
			const tallies = await call<Record<string, Record<SourceKind, number>>>(ctx, "chatbots.sourceTallies", { ids: chatbots.map(c => c._id) });
			const now = Date.now();
			return pageReply(
				renderAccountPage({
					...base,
					...extra,
					csrfToken: viewer.csrfToken,
					email: viewer.account.email,
					plan: { name: plan.name, limits: plan.limits },
					chatbots: chatbots.map(chatbot => ({
						...chatbotSummary(chatbot, publicUrl),
						status: statusLabel(chatbotState(chatbot)),
						sources: tallies[chatbot._id] ?? { url: 0, file: 0, text: 0, qa: 0 },
						messages: { used: messagesInPeriod(chatbot, now), limit: chatbot.limits.max_messages }
					})),
					keys
				}),
				{ status }
			);
		},

		/** The live, unclaimed sandbox a claim token opens. Throws `not_found` (a page saying so for browsers). */
		async claimTarget(ctx, token) {
			const chatbot = looksLikeToken(token) ? await call<Chatbot | null>(ctx, "chatbots.findByClaimHash", { claim_hash: hashToken(token) }) : null;
			if (!chatbot) throw claimGone();
			return chatbot;
		},

		claimPage(ctx, chatbot, token, status, error) {
			const viewer = optionalViewerOf(ctx);
			return pageReply(
				renderClaimPage({
					...base,
					claimPath: `/claim/${encodeURIComponent(token)}`,
					chatbot: { name: chatbot.name, chat_url: chatUrl(publicUrl, chatbot.slug), website_url: chatbot.crawl.start_url ?? "", expires_at: chatbot.expires_at },
					viewer: viewer ? { email: viewer.account.email, csrfToken: viewer.csrfToken } : null,
					error
				}),
				{ status }
			);
		}
	};
	return methods;
}
