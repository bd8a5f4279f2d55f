/**
 * accounts: owner of accounts, API keys and web sessions, and of the account and claim pages.
 *
 * Humans use HTML forms (sign up, log in, settings, claim); programs use the same paths with JSON.
 * The tool server asks `verifyApiKey` which account a Bearer key selects. Claiming moves a sandbox
 * chatbot into an account through `chatbots.claim`, which succeeds once per link.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { chatbotLimitsFromPlan } from "../lib/accounts/chatbot-limits";
import { hashClaimToken, looksLikeClaimToken } from "../lib/accounts/claim-tokens";
import { parseCookieHeader } from "../lib/accounts/cookies";
import {
	anonymousFormToken,
	CSRF_COOKIE_NAME,
	csrfTokenForSession,
	generateAnonymousCsrfPair,
	serializeCsrfCookie,
	verifyAnonymousCsrfToken,
	verifySessionCsrfToken
} from "../lib/accounts/csrf";
import { normalizeEmail } from "../lib/accounts/email";
import { checkPasswordPolicy } from "../lib/accounts/password";
import { PLANS } from "../lib/accounts/plans";
import { readSessionToken, serializeClearedSessionCookie, serializeSessionCookie } from "../lib/accounts/session-tokens";
import type { Chatbot } from "../lib/chatbots/model";
import { chatUrl } from "../lib/chatbots/views";
import { appError } from "../lib/errors";
import { chatbotSummary } from "../lib/mcp/chatbot-view";
import { renderAccountPage, renderClaimedPage, renderClaimPage, renderLoginPage, renderNoticePage, renderSignupPage } from "../lib/site/account-pages";
import { resolveSigningSecret } from "../lib/storage/signing-secret";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import { call } from "./call";
import { headersOf, HttpContext, htmlResponse, isJsonRequest, jsonResponse, redirectResponse, safeNext, sameOrigin, wantsJson } from "./accounts/http";
import { AccountDoc, accountView, AccountStore, ApiKeyDoc, apiKeyView, WebSessionDoc } from "./accounts/store";

interface Vars {
	documents?: DocumentCollection<AccountDoc>;
	store: AccountStore;
	secret: string;
	closers: Array<() => Promise<void>>;
}

interface Viewer {
	token: string;
	account: AccountDoc;
}

interface Methods {
	viewer(ctx: HttpContext<unknown>): Promise<Viewer | null>;
	anonymousCsrf(ctx: HttpContext<unknown>): { token: string; cookies: string[] };
	postAllowed(ctx: HttpContext<{ csrf_token?: unknown }>, sessionToken: string | null): boolean;
	refusePost(ctx: HttpContext<unknown>): string;
	credentialsPage(ctx: HttpContext<unknown>, which: "signup" | "login", status: number, extra: { next: string; email?: string; error?: string }): string;
	accountPage(ctx: HttpContext<unknown>, viewer: Viewer, status: number, extra?: { newKey?: string; error?: string }): Promise<string>;
	claimTarget(ctx: HttpContext<unknown>, token: unknown): Promise<Chatbot | null>;
}

interface CredentialParams {
	email?: unknown;
	password?: unknown;
	csrf_token?: unknown;
	next?: unknown;
}

const loose = { type: "any", optional: true };
const LOGIN_PATH = "/account/login";

const claimGone = () =>
	appError("not_found", "This claim link was already used, or its chatbot no longer exists.", {
		hint: "A claim link works once. If you claimed it, the chatbot is in your account."
	});

export default function createAccountsService(config: Readonly<AppConfig>, opts: { now?: () => number } = {}): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const now = opts.now ?? Date.now;
	const base = { baseUrl: config.publicUrl };
	const loginRedirect = (next: string) => `${LOGIN_PATH}?next=${encodeURIComponent(next)}`;

	return {
		name: "accounts",
		mixins: [createDbMixin(config, "accounts") as ServiceSchema],
		async started() {
			this.secret = resolveSigningSecret(config.signingSecret, config.dataDir);
			const keys = await openCollection<ApiKeyDoc>(config, "api_keys", this);
			const sessions = await openCollection<WebSessionDoc>(config, "web_sessions", this);
			this.closers = [keys.close, sessions.close];
			this.store = new AccountStore(this.documents as DocumentCollection<AccountDoc>, keys.collection, sessions.collection, now);
		},
		async stopped() {
			for (const close of this.closers ?? []) await close();
		},
		methods: {
			async viewer(ctx: HttpContext<unknown>): Promise<Viewer | null> {
				const token = readSessionToken(headersOf(ctx).cookie);
				if (!token) return null;
				const account = await this.store.sessionAccount(token);
				return account ? { token, account } : null;
			},
			/** The form token for anonymous forms, reusing the browser's `cb_csrf` cookie when it has one. */
			anonymousCsrf(ctx: HttpContext<unknown>): { token: string; cookies: string[] } {
				const existing = parseCookieHeader(headersOf(ctx).cookie)[CSRF_COOKIE_NAME];
				if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: anonymousFormToken(this.secret, existing), cookies: [] };
				const pair = generateAnonymousCsrfPair(this.secret);
				return { token: pair.formToken, cookies: [serializeCsrfCookie(pair.cookieValue, { publicUrl: config.publicUrl })] };
			},
			/** Same-origin, and either a JSON body or a form carrying a valid CSRF token (see accounts/http.ts). */
			postAllowed(ctx: HttpContext<{ csrf_token?: unknown }>, sessionToken: string | null): boolean {
				const headers = headersOf(ctx);
				if (!sameOrigin(headers, config.publicUrl)) return false;
				if (isJsonRequest(headers)) return true;
				const submitted = ctx.params.csrf_token;
				if (sessionToken !== null) return verifySessionCsrfToken(this.secret, sessionToken, submitted);
				return verifyAnonymousCsrfToken(this.secret, parseCookieHeader(headers.cookie)[CSRF_COOKIE_NAME], submitted);
			},
			refusePost(ctx: HttpContext<unknown>): string {
				if (wantsJson(headersOf(ctx))) {
					throw appError("forbidden", "The request failed the cross-site request check.", {
						hint: "Browsers: reload the page and submit the form again. Programs: send the body as JSON from a server, without a foreign Origin."
					});
				}
				return htmlResponse(
					ctx,
					403,
					renderNoticePage({ ...base, title: "Please try again", message: "This form expired or did not come from this site. Reload the page and submit it again.", link: { href: `${config.publicUrl}/account`, label: "Back to your account" } })
				);
			},
			credentialsPage(ctx: HttpContext<unknown>, which: "signup" | "login", status: number, extra: { next: string; email?: string; error?: string }): string {
				const csrf = this.anonymousCsrf(ctx);
				const render = which === "signup" ? renderSignupPage : renderLoginPage;
				return htmlResponse(ctx, status, render({ ...base, csrfToken: csrf.token, ...extra }), csrf.cookies);
			},
			async accountPage(ctx: HttpContext<unknown>, viewer: Viewer, status: number, extra: { newKey?: string; error?: string } = {}): Promise<string> {
				const [chatbots, keys] = await Promise.all([
					call<Chatbot[]>(ctx, "chatbots.listByAccount", { account_id: viewer.account._id }),
					this.store.activeKeys(viewer.account._id)
				]);
				const plan = PLANS[viewer.account.plan];
				return htmlResponse(
					ctx,
					status,
					renderAccountPage({
						...base,
						...extra,
						csrfToken: csrfTokenForSession(this.secret, viewer.token),
						email: viewer.account.email,
						plan: { name: plan.name, limits: plan.limits },
						chatbots: chatbots.map(chatbot => chatbotSummary(chatbot, config.publicUrl)),
						keys: keys.map(key => ({ id: key._id, name: key.name, last4: key.last4, created_at: key.created_at, last_used_at: key.last_used_at }))
					})
				);
			},
			/** The live, unclaimed sandbox a claim token opens, or null. */
			async claimTarget(ctx: HttpContext<unknown>, token: unknown): Promise<Chatbot | null> {
				if (!looksLikeClaimToken(token)) return null;
				return call<Chatbot | null>(ctx, "chatbots.findByClaimHash", { claim_hash: hashClaimToken(token) });
			}
		},
		actions: {
			/** The account a Bearer key selects: `{account_id, plan}`; throws `unauthorized`. */
			verifyApiKey: {
				params: { key: "string|max:200" },
				handler(ctx: HttpContext<{ key: string }>) {
					return this.store.verifyKey(ctx.params.key);
				}
			},

			signupPage: {
				params: { next: loose },
				handler(ctx: HttpContext<{ next?: unknown }>) {
					return this.credentialsPage(ctx, "signup", 200, { next: safeNext(ctx.params.next) });
				}
			},

			/** Sign up (form or JSON): a new account on the free plan, logged in at once. */
			signup: {
				params: { email: loose, password: loose, csrf_token: loose, next: loose },
				async handler(ctx: HttpContext<CredentialParams>) {
					const json = wantsJson(headersOf(ctx));
					const next = safeNext(ctx.params.next);
					if (!this.postAllowed(ctx, null)) return this.refusePost(ctx);
					const email = normalizeEmail(ctx.params.email);
					const password = typeof ctx.params.password === "string" ? ctx.params.password : "";
					const policy = checkPasswordPolicy(password);
					const fields = [
						...(email.ok ? [] : [{ field: "email", message: email.message }]),
						...(policy.ok ? [] : [{ field: "password", message: policy.message }])
					];
					const typedEmail = typeof ctx.params.email === "string" ? ctx.params.email : "";
					if (fields.length > 0 || !email.ok) {
						const detail = fields.map(f => f.message).join(" ");
						if (json) throw appError("validation_failed", "The sign-up details are not valid.", { detail, fields });
						return this.credentialsPage(ctx, "signup", 400, { next, email: typedEmail, error: detail });
					}
					let account: AccountDoc;
					try {
						account = await this.store.createAccount(email.email, password);
					} catch (err) {
						if (json || (err as { type?: unknown }).type !== "conflict") throw err;
						return this.credentialsPage(ctx, "signup", 409, { next, email: typedEmail, error: (err as Error).message + " Log in instead." });
					}
					const cookie = serializeSessionCookie(await this.store.startSession(account._id), { publicUrl: config.publicUrl });
					if (json) return jsonResponse(ctx, 201, { ok: true, account: accountView(account) }, [cookie], "/account");
					return redirectResponse(ctx, next, [cookie]);
				}
			},

			loginPage: {
				params: { next: loose },
				handler(ctx: HttpContext<{ next?: unknown }>) {
					return this.credentialsPage(ctx, "login", 200, { next: safeNext(ctx.params.next) });
				}
			},

			/** Log in (form or JSON): sets the session cookie. */
			login: {
				params: { email: loose, password: loose, csrf_token: loose, next: loose },
				async handler(ctx: HttpContext<CredentialParams>) {
					const json = wantsJson(headersOf(ctx));
					const next = safeNext(ctx.params.next);
					if (!this.postAllowed(ctx, null)) return this.refusePost(ctx);
					const email = normalizeEmail(ctx.params.email);
					const password = typeof ctx.params.password === "string" ? ctx.params.password : "";
					const account = email.ok && password !== "" ? await this.store.checkCredentials(email.email, password) : null;
					if (!account) {
						const message = "The email address or the password is wrong.";
						if (json) throw appError("unauthorized", message, { hint: "Check both and try again, or sign up at /account/signup." });
						return this.credentialsPage(ctx, "login", 401, { next, email: typeof ctx.params.email === "string" ? ctx.params.email : "", error: message });
					}
					const cookie = serializeSessionCookie(await this.store.startSession(account._id), { publicUrl: config.publicUrl });
					if (json) return jsonResponse(ctx, 200, { ok: true, account: accountView(account) }, [cookie]);
					return redirectResponse(ctx, next, [cookie]);
				}
			},

			/** Log out: ends the session and clears the cookie. */
			logout: {
				params: { csrf_token: loose },
				async handler(ctx: HttpContext<{ csrf_token?: unknown }>) {
					const viewer = await this.viewer(ctx);
					if (viewer) {
						if (!this.postAllowed(ctx, viewer.token)) return this.refusePost(ctx);
						await this.store.endSession(viewer.token);
					}
					const cleared = serializeClearedSessionCookie({ publicUrl: config.publicUrl });
					if (wantsJson(headersOf(ctx))) return jsonResponse(ctx, 200, { ok: true }, [cleared]);
					return redirectResponse(ctx, "/", [cleared]);
				}
			},

			/** Account settings: chatbots and API keys. */
			settings: {
				async handler(ctx: HttpContext<Record<string, unknown>>) {
					const viewer = await this.viewer(ctx);
					if (!viewer) return redirectResponse(ctx, loginRedirect("/account"));
					return this.accountPage(ctx, viewer, 200);
				}
			},

			/** Creates an API key, shown once (HTML: on the settings page; JSON: in the body). */
			createApiKey: {
				params: { name: loose, csrf_token: loose },
				async handler(ctx: HttpContext<{ name?: unknown; csrf_token?: unknown }>) {
					const json = wantsJson(headersOf(ctx));
					const viewer = await this.viewer(ctx);
					if (!viewer) {
						if (json) throw appError("unauthorized", "Log in first: this needs the session cookie of POST /account/login.");
						return redirectResponse(ctx, loginRedirect("/account"));
					}
					if (!this.postAllowed(ctx, viewer.token)) return this.refusePost(ctx);
					const name = typeof ctx.params.name === "string" && ctx.params.name.trim() !== "" ? ctx.params.name.trim().slice(0, 60) : null;
					try {
						const { key, doc } = await this.store.createKey(viewer.account._id, name);
						if (json) return jsonResponse(ctx, 201, { ok: true, key, api_key: apiKeyView(doc) }, [], "/account");
						return this.accountPage(ctx, viewer, 200, { newKey: key });
					} catch (err) {
						if (json || (err as { type?: unknown }).type !== "conflict") throw err;
						return this.accountPage(ctx, viewer, 409, { error: (err as Error).message });
					}
				}
			},

			/** Revokes one of the account's keys; it stops working at once. */
			revokeApiKey: {
				params: { id: "string|max:100", csrf_token: loose },
				async handler(ctx: HttpContext<{ id: string; csrf_token?: unknown }>) {
					const json = wantsJson(headersOf(ctx));
					const viewer = await this.viewer(ctx);
					if (!viewer) {
						if (json) throw appError("unauthorized", "Log in first: this needs the session cookie of POST /account/login.");
						return redirectResponse(ctx, loginRedirect("/account"));
					}
					if (!this.postAllowed(ctx, viewer.token)) return this.refusePost(ctx);
					try {
						const doc = await this.store.revokeKey(viewer.account._id, ctx.params.id);
						if (json) return jsonResponse(ctx, 200, { ok: true, api_key: apiKeyView(doc) });
						return redirectResponse(ctx, "/account");
					} catch (err) {
						if (json || (err as { type?: unknown }).type !== "not_found") throw err;
						return this.accountPage(ctx, viewer, 404, { error: (err as Error).message });
					}
				}
			},

			/** The claim link's page: what the chatbot is, and a button to keep it (or log in first). */
			claimPage: {
				params: { token: "string|max:200" },
				async handler(ctx: HttpContext<{ token: string }>) {
					const chatbot = await this.claimTarget(ctx, ctx.params.token);
					if (!chatbot) {
						return htmlResponse(
							ctx,
							404,
							renderNoticePage({ ...base, title: "This claim link no longer works", message: "It was already used, or the sandbox chatbot was deleted after 8 days. A claim link works once.", link: { href: `${config.publicUrl}/account`, label: "Your account" } })
						);
					}
					const viewer = await this.viewer(ctx);
					return htmlResponse(
						ctx,
						200,
						renderClaimPage({
							...base,
							claimPath: `/claim/${encodeURIComponent(ctx.params.token)}`,
							chatbot: { name: chatbot.name, chat_url: chatUrl(config.publicUrl, chatbot.slug), website_url: chatbot.crawl.start_url ?? "", expires_at: chatbot.expires_at },
							viewer: viewer ? { email: viewer.account.email, csrfToken: csrfTokenForSession(this.secret, viewer.token) } : null
						})
					);
				}
			},

			/** Keeps the chatbot: it joins the logged-in account and leaves sandbox retention. Works once. */
			claim: {
				params: { token: "string|max:200", csrf_token: loose },
				async handler(ctx: HttpContext<{ token: string; csrf_token?: unknown }>) {
					const json = wantsJson(headersOf(ctx));
					const claimPath = `/claim/${encodeURIComponent(ctx.params.token)}`;
					const viewer = await this.viewer(ctx);
					if (!viewer) {
						if (json) throw appError("unauthorized", "Log in first: claiming needs the session cookie of POST /account/login or /account/signup.");
						return redirectResponse(ctx, loginRedirect(claimPath));
					}
					if (!this.postAllowed(ctx, viewer.token)) return this.refusePost(ctx);
					const gone = () => {
						if (json) throw claimGone();
						return htmlResponse(ctx, 404, renderNoticePage({ ...base, title: "This claim link no longer works", message: claimGone().message, link: { href: `${config.publicUrl}/account`, label: "Your account" } }));
					};
					const chatbot = await this.claimTarget(ctx, ctx.params.token);
					if (!chatbot) return gone();

					const plan = PLANS[viewer.account.plan];
					const owned = await call<Chatbot[]>(ctx, "chatbots.listByAccount", { account_id: viewer.account._id });
					if (owned.length >= plan.limits.chatbots) {
						const message = `The ${plan.name} plan allows ${plan.limits.chatbots} chatbots and this account has ${owned.length}.`;
						if (json) throw appError("forbidden", message, { hint: "Keep it in another account; plans with more chatbots are coming." });
						return htmlResponse(
							ctx,
							403,
							renderClaimPage({
								...base,
								claimPath,
								chatbot: { name: chatbot.name, chat_url: chatUrl(config.publicUrl, chatbot.slug), website_url: chatbot.crawl.start_url ?? "", expires_at: chatbot.expires_at },
								viewer: { email: viewer.account.email, csrfToken: csrfTokenForSession(this.secret, viewer.token) },
								error: message
							})
						);
					}
					let claimed: Chatbot;
					try {
						claimed = await call<Chatbot>(ctx, "chatbots.claim", {
							id: chatbot._id,
							claim_hash: hashClaimToken(ctx.params.token),
							account_id: viewer.account._id,
							limits: chatbotLimitsFromPlan(plan.limits)
						});
					} catch (err) {
						if ((err as { type?: unknown }).type === "not_found") return gone();
						throw err;
					}
					const view = { chatbot_id: claimed._id, name: claimed.name, chat_url: chatUrl(config.publicUrl, claimed.slug) };
					if (json) return jsonResponse(ctx, 200, { ok: true, chatbot: view });
					return htmlResponse(ctx, 200, renderClaimedPage({ ...base, chatbot: view }));
				}
			}
		}
	};
}
