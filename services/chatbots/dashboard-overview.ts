/**
 * The owner's dashboard of one chatbot, the parts the chatbots service owns: the Overview tab (with
 * its JSON twin, which the page's live-progress script polls), training from the dashboard, and
 * deleting the chatbot. Every action is `owns: "chatbot"`: the middleware has already checked that
 * `params.id` is the logged-in account's chatbot and hands it over (`ownedChatbotOf`).
 */
import type { AppConfig } from "../../config";
import type { Chatbot } from "../../lib/chatbots/model";
import { appError } from "../../lib/errors";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { renderOverviewPage } from "../../lib/site/dashboard/overview-page";
import { dashboardPath } from "../../lib/site/dashboard/shell";
import { renderTryPage } from "../../lib/site/dashboard/try-page";
import { dashboardView, underway } from "../../lib/site/dashboard/view";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, ownedChatbotOf, viewerOf } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { call } from "../call";
import { id } from "./params";
import type { ChatbotsThis } from "./types";

type C<P> = HttpContext<P>;

/** Every dashboard action: a logged-in owner of `params.id`; JSON for programs, pages for people. */
export const OWNER_PAGE = { reply: "form" as const, auth: "session" as const, owns: "chatbot" as const, returnTo: "/account/chatbots/{id}" };
export const OWNER_FORM = { ...OWNER_PAGE, csrf: true as const };

export function overviewActions(config: Readonly<AppConfig>) {
	const publicUrl = config.publicUrl;

	async function viewOf(self: ChatbotsThis, chatbot: Chatbot) {
		const sources = await self.sourceDocs.find({ chatbot_id: chatbot._id });
		return dashboardView(chatbot, sources, publicUrl, self.now());
	}

	async function overview(self: ChatbotsThis, ctx: C<unknown>, status = 200, extra: { error?: string; notice?: string } = {}): Promise<HttpReply> {
		// Read again: a form may have changed the chatbot since the middleware loaded it.
		const chatbot = (await self.chatbots.findOne({ _id: ownedChatbotOf(ctx)._id })) ?? ownedChatbotOf(ctx);
		const view = await viewOf(self, chatbot);
		return pageReply(renderOverviewPage({ baseUrl: publicUrl, csrfToken: viewerOf(ctx).csrfToken, chatbot, view, ...extra }), { status });
	}

	return {
		/** The Overview tab; with `Accept: application/json`, the dashboard view and whether work is under way. */
		dashboardOverview: {
			...OWNER_PAGE,
			params: { id },
			async handler(this: ChatbotsThis, ctx: C<{ id: string }>) {
				if (answersJson(ctx)) {
					const view = await viewOf(this, ownedChatbotOf(ctx));
					return jsonReply({ ok: true, underway: underway(view), dashboard: view });
				}
				return overview(this, ctx);
			}
		},

		/** The Try it tab: chat with the chatbot through the public chat API. */
		dashboardTry: {
			...OWNER_PAGE,
			params: { id },
			handler(this: ChatbotsThis, ctx: C<{ id: string }>) {
				return pageReply(renderTryPage({ baseUrl: publicUrl, chatbot: ownedChatbotOf(ctx) }));
			}
		},

		/**
		 * Trains the chatbot on its current sources now. The index it answers from keeps answering until
		 * the new run is done. Throws `empty` when no source has text, `char_cap` over the plan's limit.
		 */
		dashboardTrain: {
			...OWNER_FORM,
			params: { ...CSRF_PARAMS, id },
			async handler(this: ChatbotsThis, ctx: C<{ id: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						await call(ctx, "chatbots.train", { id: chatbot._id });
						if (answersJson(ctx)) {
							const fresh = (await this.chatbots.findOne({ _id: chatbot._id })) ?? chatbot;
							return jsonReply({ ok: true, underway: true, dashboard: await viewOf(this, fresh) }, { status: 202 });
						}
						return redirectReply(dashboardPath(chatbot._id));
					},
					(status, reason) => overview(this, ctx, status, { error: reason })
				);
			}
		},

		/** Deletes the chatbot with its sources, files and vectors, once `confirm` is `yes`. */
		dashboardDelete: {
			...OWNER_FORM,
			params: { ...CSRF_PARAMS, id, confirm: { type: "string", optional: true, max: 10 } },
			async handler(this: ChatbotsThis, ctx: C<{ id: string; confirm?: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						if (ctx.params.confirm !== "yes") {
							throw appError("validation_failed", "Deleting needs confirmation.", {
								detail: "Tick the box to confirm that the chatbot and everything in it is deleted (JSON: \"confirm\": \"yes\").",
								fields: [{ field: "confirm", message: "must be \"yes\"" }]
							});
						}
						const removed = await call<{ chatbots: number; sources: number; files: number }>(ctx, "chatbots.remove", { id: chatbot._id });
						if (answersJson(ctx)) return jsonReply({ ok: true, deleted: true, chatbot_id: chatbot._id, sources: removed.sources, files: removed.files });
						return redirectReply("/account");
					},
					(status, reason) => overview(this, ctx, status, { error: reason })
				);
			}
		}
	};
}
