/**
 * The Deploy page of a chatbot and its widget settings form. The settings are stored on the
 * chatbot (this service owns it) and the chat service's public info hands them to the widget and
 * the chat page. The page is for a browser and JSON for a program (`reply: "form"`); the owner's
 * session is needed (`auth`), the form is CSRF-checked, and any chatbot that is not the viewer's
 * answers 404 `not_found` without saying whether it exists.
 */
import type { AppConfig } from "../../config";
import type { Chatbot } from "../../lib/chatbots/model";
import { chatUrl, embedSnippet } from "../../lib/chatbots/views";
import { jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { renderDeployPage } from "../../lib/site/dashboard/deploy-page";
import { chatbotPagePath } from "../../lib/site/dashboard/insights-frame";
import { applyWidgetSettings, widgetSettingsOf, WidgetSettingsInput } from "../../lib/widget/settings";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, ownedChatbotOf, viewerOf } from "../../middlewares/http-context";
import type { ChatbotsThis } from "./types";

type C<P> = HttpContext<P>;

const chatbotIdParam = "string|min:1|max:100";
/** The owner's session, and the chatbot in `params.id` must be the viewer's (middlewares/owns.middleware.ts). */
const OWNER = { reply: "form" as const, auth: "session" as const, owns: "chatbot" as const };
const optionalField = (max: number) => ({ type: "string", optional: true, max });

type SaveParams = WidgetSettingsInput & { id: string };

export function widgetActions(config: Readonly<AppConfig>) {
	const baseUrl = config.publicUrl;
	const view = (chatbot: Chatbot) => ({ chat_url: chatUrl(baseUrl, chatbot.slug), embed_snippet: embedSnippet(baseUrl, chatbot.slug), widget: widgetSettingsOf(chatbot) });

	return {
		/** The chat link, the embed snippet and the widget settings (`saved=1` after saving). */
		deployPage: {
			...OWNER,
			returnTo: "/account/chatbots/{id}/deploy",
			params: { id: chatbotIdParam, saved: { type: "enum", values: ["1"], optional: true } },
			async handler(this: ChatbotsThis, ctx: C<{ id: string; saved?: "1" }>) {
				const chatbot = ownedChatbotOf(ctx);
				if (answersJson(ctx)) return jsonReply({ ok: true, ...view(chatbot) });
				return pageReply(renderDeployPage({ baseUrl, chatbot, csrfToken: viewerOf(ctx).csrfToken, settings: widgetSettingsOf(chatbot), saved: ctx.params.saved === "1" }));
			}
		},

		/**
		 * Saves the widget settings (absent fields keep their value). Throws `validation_failed` naming
		 * each refused field, with nothing saved; browsers see the form again with what they typed.
		 */
		saveWidget: {
			...OWNER,
			returnTo: "/account/chatbots/{id}/deploy",
			csrf: true as const,
			params: {
				...CSRF_PARAMS,
				id: chatbotIdParam,
				display_name: optionalField(1000),
				welcome_message: optionalField(5000),
				suggested_questions: optionalField(5000),
				accent_color: optionalField(100),
				position: optionalField(100),
				language: optionalField(100)
			},
			async handler(this: ChatbotsThis, ctx: C<SaveParams & { csrf_token?: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				const { id: _id, csrf_token: _token, ...input } = ctx.params;
				const current = widgetSettingsOf(chatbot);
				let next;
				try {
					next = applyWidgetSettings(current, input);
				} catch (err) {
					if (answersJson(ctx)) throw err;
					const fields = ((err as { data?: { fields?: Array<{ field: string }> } }).data?.fields ?? []).map(f => f.field);
					// The form again, with what was typed where it can be shown and the saved value elsewhere.
					const typed = { ...current, display_name: input.display_name ?? current.display_name, welcome_message: input.welcome_message ?? current.welcome_message };
					const html = renderDeployPage({ baseUrl, chatbot, csrfToken: viewerOf(ctx).csrfToken, settings: typed, suggestedText: input.suggested_questions, error: { message: (err as Error).message, fields } });
					return pageReply(html, { status: 400 });
				}
				const now = this.now();
				await this.chatbots.update({ _id: chatbot._id }, { $set: { widget: next, updated_at: now } });
				if (answersJson(ctx)) return jsonReply({ ok: true, ...view({ ...chatbot, widget: next }) });
				return redirectReply(`${chatbotPagePath(chatbot._id, "deploy")}?saved=1`);
			}
		}
	};
}
