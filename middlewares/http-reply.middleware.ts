/**
 * `reply`: the one place an action's answer becomes an HTTP response. The handler returns an
 * `HttpReply` value (lib/http/reply.ts); this middleware puts its status, media type, headers,
 * cookies and Location on `ctx.meta`, where moleculer-web reads them — locally or back across the
 * bus, since Moleculer merges the callee's meta into the caller's.
 *
 * For people (`page`, and `form` when a browser posts), a refusal is also answered here, as a page:
 * `unauthorized` is a 303 to the log-in page that comes back to the action's `returnTo`, any other
 * 4xx a notice page with the error's status and message (and the title and link the error names in
 * `data.page`). A server fault (5xx) still reaches the gateway, which answers the JSON Error body.
 */
import type { Errors, Middleware } from "moleculer";
import { DEFAULT_NEXT, fillPath, loginPath, safeNext } from "../lib/accounts/next-path";
import type { ErrorData, PageNotice } from "../lib/errors";
import { HttpReply, pageReply, redirectReply, wantsJson } from "../lib/http/reply";
import { renderNoticePage } from "../lib/site/account-pages";
import { answersJson, Handler, headersOf, HttpContext, HttpMeta, setAnswer } from "./http-context";

const DEFAULT_NOTICE: PageNotice = { title: "This did not work", link: { href: "/account", label: "Your account" } };

function clientErrorOf(err: unknown): (Errors.MoleculerError & { code: number; data?: ErrorData }) | undefined {
	const code = (err as { code?: unknown } | null)?.code;
	return typeof code === "number" && code >= 400 && code < 500 ? (err as Errors.MoleculerError & { code: number }) : undefined;
}

/** Puts a reply on the context for moleculer-web and returns the body to send. */
export function putReply(meta: HttpMeta, reply: HttpReply): unknown {
	meta.$statusCode = reply.status;
	if (reply.body !== undefined && reply.contentType) meta.$responseType = reply.contentType;
	const headers: Record<string, string | string[]> = { ...reply.headers };
	if (reply.cookies?.length) headers["Set-Cookie"] = [...reply.cookies];
	if (Object.keys(headers).length > 0) meta.$responseHeaders = headers;
	if (reply.location !== undefined) meta.$location = reply.location;
	return reply.body ?? null;
}

/**
 * For a `form` action: runs the form's work; when a browser's request is refused (a 4xx), shows
 * `again(status, reason)` instead, typically the same form with the reason above it. Programs get
 * the error itself. The reason is the error's detail when it has one (which fields, and why).
 */
export async function showFormAgainOnRefusal(
	ctx: HttpContext,
	work: () => Promise<HttpReply>,
	again: (status: number, reason: string) => HttpReply | Promise<HttpReply>
): Promise<HttpReply> {
	try {
		return await work();
	} catch (err) {
		const refusal = answersJson(ctx) ? undefined : clientErrorOf(err);
		if (!refusal) throw err;
		return again(refusal.code, refusal.data?.detail ?? refusal.message);
	}
}

export function httpReplyMiddleware(publicUrl: string): Middleware {
	const absolute = (href: string) => (href.startsWith("/") ? publicUrl + href : href);

	/** How a browser is told about a refusal. */
	const refusalPage = (err: Errors.MoleculerError & { code: number; data?: ErrorData }, returnTo: string): HttpReply => {
		if (err.type === "unauthorized") return redirectReply(loginPath(safeNext(returnTo)));
		const notice = err.data?.page ?? DEFAULT_NOTICE;
		const link = notice.link && { href: absolute(notice.link.href), label: notice.link.label };
		return pageReply(renderNoticePage({ baseUrl: publicUrl, title: notice.title, message: notice.message ?? err.message, link }), { status: err.code });
	};

	return {
		name: "HttpReply",
		localAction(wrapped, action) {
			const kind = action.reply;
			if (!kind) return wrapped;
			const next = wrapped as Handler<Record<string, unknown>>;
			const returnTo = action.returnTo ?? DEFAULT_NEXT;
			return async function httpReply(ctx: HttpContext<Record<string, unknown>>) {
				const json = kind === "http" || (kind === "form" && wantsJson(headersOf(ctx)));
				setAnswer(ctx, json ? "json" : "html");
				let reply: HttpReply;
				try {
					reply = (await next(ctx)) as HttpReply;
				} catch (err) {
					const refusal = json ? undefined : clientErrorOf(err);
					if (!refusal) throw err;
					reply = refusalPage(refusal, fillPath(returnTo, ctx.params));
				}
				return putReply(ctx.meta, reply);
			};
		}
	};
}
