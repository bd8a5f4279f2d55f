/**
 * `owns: "chatbot"`: the chatbot named by `params.id` belongs to the logged-in account. The one
 * place every dashboard page and form of a chatbot (overview, sources, training, try it, deploy,
 * conversations, improve, analytics) checks ownership: it loads the chatbot through
 * `chatbots.get` with the viewer's account as `owner` and leaves it on the context
 * (`ownedChatbotOf(ctx)`).
 *
 * Someone else's chatbot, an expired one and an id that never existed all answer the same 404
 * `not_found`, so the answer never tells whether another account's chatbot exists. Programs get
 * the JSON Error body, browsers the notice page (http-reply.middleware.ts).
 */
import type { Middleware } from "moleculer";
import type { Chatbot } from "../lib/chatbots/model";
import { appError } from "../lib/errors";
import { Handler, HttpContext, setOwnedChatbot, viewerOf } from "./http-context";

export const notYourChatbot = () =>
	appError("not_found", "No chatbot of this account has this id.", {
		hint: "Open the chatbot from your account's list of chatbots (GET /account).",
		page: { title: "Chatbot not found", message: "No chatbot of your account has this address.", link: { href: "/account", label: "Your account" } }
	});

export function ownsMiddleware(): Middleware {
	return {
		name: "Owns",
		localAction(wrapped, action) {
			if (!action.owns) return wrapped;
			if (action.auth !== "session") throw new Error(`Action ${action.name}: owns "chatbot" needs auth "session"`);
			const next = wrapped as Handler<{ id?: unknown }>;
			return async function owns(ctx: HttpContext<{ id?: unknown }>) {
				const id = ctx.params.id;
				if (typeof id !== "string" || id.length === 0 || id.length > 100) throw notYourChatbot();
				let chatbot: Chatbot;
				try {
					chatbot = (await ctx.call<{ chatbot: Chatbot }, object>("chatbots.get", { id, with_sources: false, owner: { account_id: viewerOf(ctx).account.id } })).chatbot;
				} catch (err) {
					const type = (err as { type?: string }).type;
					if (type === "expired" || type === "not_found") throw notYourChatbot();
					throw err;
				}
				setOwnedChatbot(ctx, chatbot);
				return next(ctx);
			};
		}
	};
}
