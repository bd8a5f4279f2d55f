/**
 * `csrf`: a form post must come from this site (lib/accounts/csrf.ts has the rules and why). Runs
 * after `auth`, so a logged-in form is checked against the token of its own session and an
 * anonymous one (log in, sign up) against the signed `cb_csrf` cookie.
 *
 * A refusal is `forbidden`: programs get the 403 Error body, browsers a page asking them to reload
 * the form (http-reply.middleware.ts). Nothing of the action runs.
 */
import type { Middleware } from "moleculer";
import { formPostAllowed } from "../lib/accounts/csrf";
import { appError } from "../lib/errors";
import { isJsonBody } from "../lib/http/reply";
import { Handler, headersOf, HttpContext, optionalViewerOf } from "./http-context";

/** Spread into the params of every `csrf` action: the hidden field its forms post (lib/accounts/csrf.ts). */
export const CSRF_PARAMS = { csrf_token: "string|optional|max:200" } as const;

const refused = () =>
	appError("forbidden", "The request failed the cross-site request check.", {
		hint: "Browsers: reload the page and submit the form again. Programs: send the body as JSON from a server, without a foreign Origin.",
		page: {
			title: "Please try again",
			message: "This form expired or did not come from this site. Reload the page and submit it again.",
			link: { href: "/account", label: "Back to your account" }
		}
	});

export function csrfMiddleware(publicUrl: string, secret: () => string): Middleware {
	return {
		name: "Csrf",
		localAction(wrapped, action) {
			const csrf = action.csrf;
			if (!csrf) return wrapped;
			const next = wrapped as Handler<{ csrf_token?: string }>;
			if (csrf === "session" && !action.auth) throw new Error(`Action ${action.name}: csrf "session" needs auth`);
			return function csrfCheck(ctx: HttpContext<{ csrf_token?: string }>) {
				const viewer = optionalViewerOf(ctx);
				if (csrf === "session" && !viewer) return next(ctx);
				const headers = headersOf(ctx);
				const allowed = formPostAllowed(secret(), publicUrl, {
					origin: headers.origin,
					jsonBody: isJsonBody(headers["content-type"]),
					cookieHeader: headers.cookie,
					submitted: ctx.params.csrf_token,
					sessionToken: viewer?.sessionToken ?? null
				});
				if (!allowed) throw refused();
				return next(ctx);
			};
		}
	};
}
