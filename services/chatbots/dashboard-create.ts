/**
 * Making a chatbot from the dashboard: the New chatbot page and its form. A chatbot from a website
 * is created with its site crawl queued (the plan's page budget, training when the crawl ends), as
 * the tool server's create_chatbot does for a key holder; one from content starts empty and the
 * owner adds files, text and Q&A pairs on its Sources tab. The account's plan decides the limits
 * and how many chatbots it may hold (`forbidden` past that).
 */
import type { AppConfig } from "../../config";
import { chatbotLimitsFromPlan } from "../../lib/accounts/chatbot-limits";
import { PLANS } from "../../lib/accounts/plans";
import type { Chatbot } from "../../lib/chatbots/model";
import { MAX_URL_LENGTH } from "../../lib/chatbots/model";
import { normalizePageUrl } from "../../lib/crawl/site-crawl";
import { appError } from "../../lib/errors";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { renderNewChatbotPage, NewChatbotPage } from "../../lib/site/dashboard/new-page";
import { dashboardPath } from "../../lib/site/dashboard/shell";
import { dashboardView } from "../../lib/site/dashboard/view";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, viewerOf } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { call } from "../call";
import type { ChatbotsThis } from "./types";

type C<P> = HttpContext<P>;

interface CreateParams {
	name?: string;
	language?: "en" | "es";
	start?: "website" | "content";
	website_url?: string;
}

const returnTo = "/account/chatbots/new";

export function createActions(config: Readonly<AppConfig>) {
	const publicUrl = config.publicUrl;

	function newPage(ctx: C<unknown>, status = 200, extra: Pick<NewChatbotPage, "error" | "typed"> = {}): HttpReply {
		const { account, csrfToken } = viewerOf(ctx);
		const limits = PLANS[account.plan].limits;
		const plan = { name: PLANS[account.plan].name, pages: limits.pages, files: limits.files, chars: limits.chars, chatbots: limits.chatbots };
		return pageReply(renderNewChatbotPage({ baseUrl: publicUrl, csrfToken, plan, ...extra }), { status });
	}

	return {
		/** The New chatbot page. */
		dashboardNewPage: {
			reply: "page" as const,
			auth: "session" as const,
			returnTo,
			handler(ctx: C<unknown>) {
				return newPage(ctx);
			}
		},

		/** Creates a chatbot from a website (crawl queued) or empty (content added next). */
		dashboardCreate: {
			reply: "form" as const,
			auth: "session" as const,
			csrf: true as const,
			returnTo,
			params: {
				...CSRF_PARAMS,
				name: { type: "string", optional: true, max: 200 },
				language: { type: "enum", values: ["en", "es"], optional: true },
				start: { type: "enum", values: ["website", "content"], optional: true },
				website_url: { type: "string", optional: true, max: MAX_URL_LENGTH }
			},
			handler(this: ChatbotsThis, ctx: C<CreateParams>) {
				const { account } = viewerOf(ctx);
				const typed = { name: ctx.params.name, language: ctx.params.language, start: ctx.params.start, website_url: ctx.params.website_url };
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const rawUrl = ctx.params.website_url?.trim() ?? "";
						const fromSite = ctx.params.start === "website" || (ctx.params.start === undefined && rawUrl !== "");
						const url = fromSite ? normalizePageUrl(rawUrl) : undefined;
						if (fromSite && !url) {
							throw appError("validation_failed", "The website address is not usable.", {
								detail: "Give the website's full address, starting with http:// or https://.",
								fields: [{ field: "website_url", message: "must be an absolute http or https URL" }]
							});
						}
						const plan = PLANS[account.plan];
						const name = ctx.params.name?.trim() || (url ? new URL(url).hostname : "My chatbot");
						let chatbot: Chatbot;
						try {
							chatbot = await call<Chatbot>(ctx, "chatbots.create", {
								kind: "account",
								locale: ctx.params.language ?? "en",
								name,
								limits: chatbotLimitsFromPlan(plan.limits),
								account_id: account.id,
								max_chatbots: plan.limits.chatbots,
								...(url ? { crawl: { url, then_train: true } } : {})
							});
						} catch (err) {
							if ((err as { type?: string }).type !== "forbidden") throw err;
							throw appError("forbidden", `The ${plan.name} plan allows ${plan.limits.chatbots} chatbots and your account has them all.`, {
								detail: `The ${plan.name} plan allows ${plan.limits.chatbots} chatbots and your account has them all. Delete one, or move to a larger plan under Billing.`
							});
						}
						const location = url ? dashboardPath(chatbot._id) : `${dashboardPath(chatbot._id, "sources")}#add-file`;
						if (answersJson(ctx)) return jsonReply({ ok: true, dashboard: dashboardView(chatbot, [], publicUrl, this.now()) }, { status: 201, location });
						return redirectReply(location);
					},
					(status, reason) => newPage(ctx, status, { error: reason, typed })
				);
			}
		}
	};
}
