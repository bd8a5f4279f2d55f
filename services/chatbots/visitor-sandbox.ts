/**
 * The home page's "paste your website URL" flow, for visitors without an account: a sandbox chatbot
 * made with exactly the rules of an anonymous `create_chatbot` (5 pages, 10 messages, 50,000
 * characters, deleted after 8 days unless claimed; the same per-network `mcp-create-chatbot` budget,
 * which the route table applies to `POST /sandbox`), its page following the crawl and the training,
 * a chat in place, and "Keep this chatbot" — the claim link, as the tool server hands it out.
 *
 * Anyone holding the sandbox's id reaches its page, as with the tool server's `get_chatbot`; once
 * claimed it belongs to an account and the page answers 404.
 */
import type { AppConfig } from "../../config";
import { SANDBOX_CHATBOT_LIMITS, SANDBOX_TTL_MS } from "../../lib/accounts/chatbot-limits";
import { anonymousCsrf } from "../../lib/accounts/csrf";
import { SANDBOX_LIMITS } from "../../lib/accounts/plans";
import { claimUrl, hashToken, sandboxClaimToken } from "../../lib/accounts/tokens";
import { newId } from "../../lib/chatbots/ids";
import { type Chatbot, MAX_URL_LENGTH, type Source } from "../../lib/chatbots/model";
import { normalizePageUrl } from "../../lib/crawl/site-crawl";
import { appError } from "../../lib/errors";
import type { Locale } from "../../lib/locales";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { renderSandboxConfirmPage, renderSandboxPage, sandboxUnderway, sandboxView } from "../../lib/site/sandbox-page";
import { resolveSigningSecret } from "../../lib/storage/signing-secret";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, headersOf, HttpContext } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { call } from "../call";
import { id } from "./params";
import type { ChatbotsThis } from "./types";

type C<P> = HttpContext<P>;

const gone = (locale: Locale) =>
	appError("not_found", "No sandbox chatbot has this id: it was kept in an account, or deleted after 8 days.", {
		page: {
			title: locale === "es" ? "Este chatbot ya no está aquí" : "This chatbot is not here any more",
			message:
				locale === "es"
					? "Alguien se lo quedó en su cuenta, o se borró a los 8 días. Crea otro desde la página de inicio."
					: "It was kept in an account, or deleted after 8 days. Build another from the home page.",
			link: { href: locale === "es" ? "/es/" : "/", label: locale === "es" ? "Inicio" : "Home" }
		}
	});

const language = { type: "enum", values: ["en", "es"], optional: true } as const;

export function visitorSandboxActions(config: Readonly<AppConfig>) {
	const publicUrl = config.publicUrl;
	let secret: string | undefined;
	const signingSecret = () => (secret ??= resolveSigningSecret(config.signingSecret, config.dataDir));

	async function viewOf(self: ChatbotsThis, chatbot: Chatbot) {
		const sources = await self.sourceDocs.find({ chatbot_id: chatbot._id, kind: "url" });
		return sandboxView(chatbot, sources as Source[], { publicUrl, claimUrl: claimUrl(publicUrl, sandboxClaimToken(signingSecret(), chatbot._id)) });
	}

	function confirmPage(ctx: C<unknown>, locale: Locale, websiteUrl: string, status = 200, error?: string): HttpReply {
		const csrf = anonymousCsrf(signingSecret(), headersOf(ctx).cookie, publicUrl);
		return pageReply(renderSandboxConfirmPage({ baseUrl: publicUrl, locale, csrfToken: csrf.token, websiteUrl, error }), { status, cookies: csrf.setCookie ? [csrf.setCookie] : [] });
	}

	return {
		/** The page the home form reaches without a script: the address again, with a CSRF-protected button. */
		sandboxConfirm: {
			reply: "page" as const,
			params: { website_url: { type: "string", optional: true, max: MAX_URL_LENGTH }, language },
			handler(ctx: C<{ website_url?: string; language?: Locale }>) {
				return confirmPage(ctx, ctx.params.language ?? "en", ctx.params.website_url ?? "");
			}
		},

		/**
		 * Makes the sandbox and queues its site crawl (training follows). JSON: 201 with the sandbox and
		 * its `page_url` and `claim_url`; a browser goes to the sandbox's page.
		 */
		sandboxCreate: {
			reply: "form" as const,
			csrf: true as const,
			params: { ...CSRF_PARAMS, website_url: { type: "string", max: MAX_URL_LENGTH }, language },
			handler(this: ChatbotsThis, ctx: C<{ website_url: string; language?: Locale }>) {
				const locale = ctx.params.language ?? "en";
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const url = normalizePageUrl(ctx.params.website_url.trim());
						if (!url) {
							throw appError("validation_failed", "This is not a website address.", {
								detail: locale === "es" ? "Escribe la dirección completa, empezando por http:// o https://." : "Give the full address, starting with http:// or https://.",
								fields: [{ field: "website_url", message: "must be an absolute http or https URL" }]
							});
						}
						// The claim token is derived from the id, so the id is chosen here and stored with its hash in one write.
						const chatbotId = newId();
						const chatbot = await call<Chatbot>(ctx, "chatbots.create", {
							id: chatbotId,
							kind: "sandbox",
							locale,
							name: new URL(url).hostname,
							limits: SANDBOX_CHATBOT_LIMITS,
							ttl_ms: SANDBOX_TTL_MS,
							claim_hash: hashToken(sandboxClaimToken(signingSecret(), chatbotId)),
							crawl: { url, then_train: true }
						});
						const view = await viewOf(this, chatbot);
						if (answersJson(ctx)) return jsonReply({ ok: true, page_url: view.page_url, claim_url: view.claim_url, sandbox: view }, { status: 201, location: view.page_url });
						return redirectReply(`/sandbox/${encodeURIComponent(chatbot._id)}`);
					},
					(status, reason) => confirmPage(ctx, locale, ctx.params.website_url, status, reason)
				);
			}
		},

		/** The sandbox's page (progress, chat, keep it); JSON: its progress, which the page polls. */
		sandboxPage: {
			reply: "form" as const,
			params: { id },
			async handler(this: ChatbotsThis, ctx: C<{ id: string }>) {
				let chatbot: Chatbot;
				try {
					chatbot = await this.requireLive(ctx.params.id, { account_id: null });
				} catch {
					throw gone("en");
				}
				if (chatbot.claim_hash === null) throw gone(chatbot.locale);
				const view = await viewOf(this, chatbot);
				if (answersJson(ctx)) return jsonReply({ ok: true, underway: sandboxUnderway(view), sandbox: view });
				return pageReply(renderSandboxPage({ baseUrl: publicUrl, locale: chatbot.locale, view, retentionDays: SANDBOX_LIMITS.retentionDays ?? 8 }));
			}
		}
	};
}
