/**
 * The action properties the middlewares in this folder implement, and what they leave on a context
 * for the handler. An action declares what it needs; each middleware does its one job for every
 * action that declares it:
 *
 * ```ts
 * createApiKey: {
 *   reply: "form",        // JSON for programs, pages and redirects for browsers (http-reply.middleware.ts)
 *   auth: "session",      // a logged-in viewer, else 401 / 303 to the log-in page (session.middleware.ts)
 *   returnTo: "/account", // where that log-in comes back to (a route-table path, `{param}`s filled)
 *   csrf: true,           // same Origin and the form's token, else 403 (csrf.middleware.ts)
 *   params: { ...CSRF_PARAMS, name: "string|optional|max:60" },
 *   handler(ctx) { const viewer = viewerOf(ctx); ... return jsonReply(...) or pageReply(...) }
 * }
 * ```
 */
import type { Context } from "moleculer";
import type { AccountView } from "../lib/accounts/views";
import type { Chatbot } from "../lib/chatbots/model";

/**
 * How an action answers over HTTP; the handler returns an `HttpReply` (lib/http/reply.ts).
 * - `http`: a program's reply; errors go to the gateway, which answers the JSON Error body.
 * - `page`: a page for people; a refusal (4xx) is shown as a page, `unauthorized` as the log-in page.
 * - `form`: a form that programs may also post as JSON: JSON callers get `http`, browsers `page`.
 */
export type ReplyKind = "http" | "page" | "form";
/** `session`: a logged-in viewer is required. `optional`: the viewer when there is one. */
export type AuthKind = "session" | "optional";
/**
 * `true`: every POST is checked (lib/accounts/csrf.ts). `"session"`: only when a session is present,
 * for actions that do nothing without one (log out); needs `auth`.
 */
export type CsrfKind = true | "session";
/**
 * `chatbot`: `params.id` names a chatbot of the logged-in account (owns.middleware.ts); the handler
 * reads it with `ownedChatbotOf(ctx)`. Any other id, someone else's or none, is `not_found`. Needs `auth: "session"`.
 */
export type OwnsKind = "chatbot";

declare module "moleculer/src/service" {
	interface ActionSchema<TThis> {
		reply?: ReplyKind;
		auth?: AuthKind;
		/** With `auth`: the page a browser returns to after logging in, e.g. `/claim/{token}`. Default `/account`. */
		returnTo?: string;
		csrf?: CsrfKind;
		owns?: OwnsKind;
	}
}

/** The request headers the gateway hands to actions (services/gateway.service.ts, onBeforeCall). */
export interface RequestHeaders {
	accept?: string;
	cookie?: string;
	origin?: string;
	"content-type"?: string;
	"if-none-match"?: string;
	authorization?: string;
	"user-agent"?: string;
}

export interface HttpMeta extends Record<string, unknown> {
	headers?: RequestHeaders;
	clientIp?: string;
	$statusCode?: number;
	$responseType?: string;
	$responseHeaders?: Record<string, string | string[]>;
	$location?: string;
}

export type HttpContext<P = unknown> = Context<P, HttpMeta>;

/** What a middleware wraps: the handler, already bound to its service. */
export type Handler<P = unknown> = (ctx: HttpContext<P>) => Promise<unknown> | unknown;

export function headersOf(ctx: HttpContext): RequestHeaders {
	return ctx.meta.headers ?? {};
}

/** The logged-in person behind a request. */
export interface Viewer {
	account: AccountView;
	/** The `cb_session` cookie's token (to end the session). */
	sessionToken: string;
	/** The CSRF token for forms rendered for this session. */
	csrfToken: string;
}

interface Locals {
	viewer?: Viewer | null;
	answer?: "json" | "html";
	chatbot?: Chatbot;
}

const locals = (ctx: HttpContext) => ctx.locals as Locals;

export function setViewer(ctx: HttpContext, viewer: Viewer | null): void {
	locals(ctx).viewer = viewer;
}

export function setAnswer(ctx: HttpContext, answer: "json" | "html"): void {
	locals(ctx).answer = answer;
}

/** The viewer of an `auth: "session"` action. */
export function viewerOf(ctx: HttpContext): Viewer {
	const viewer = locals(ctx).viewer;
	if (!viewer) throw new Error("viewerOf() needs an action with `auth: \"session\"`");
	return viewer;
}

/** The viewer of an `auth: "optional"` action, or null. */
export function optionalViewerOf(ctx: HttpContext): Viewer | null {
	return locals(ctx).viewer ?? null;
}

/** True when a `form` action answers a program (JSON); false for a browser. */
export function answersJson(ctx: HttpContext): boolean {
	return locals(ctx).answer === "json";
}

export function setOwnedChatbot(ctx: HttpContext, chatbot: Chatbot): void {
	locals(ctx).chatbot = chatbot;
}

/** The chatbot of an `owns: "chatbot"` action: live, and the viewer's. */
export function ownedChatbotOf(ctx: HttpContext): Chatbot {
	const chatbot = locals(ctx).chatbot;
	if (!chatbot) throw new Error('ownedChatbotOf() needs an action with `owns: "chatbot"`');
	return chatbot;
}
