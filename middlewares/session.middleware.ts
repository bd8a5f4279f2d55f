/**
 * `auth`: who is logged in. Reads the `cb_session` cookie, asks the accounts service whose session
 * it is (`accounts.resolveSession`, from whichever node runs the action) and leaves the viewer on
 * the context (`viewerOf(ctx)`), with the CSRF token for forms rendered for that session.
 *
 * `auth: "session"` without a live session throws `unauthorized`: programs get the 401 Error body,
 * browsers the log-in page (http-reply.middleware.ts), which comes back to `returnTo` afterwards.
 */
import type { Middleware } from "moleculer";
import { readSessionToken } from "../lib/accounts/cookies";
import { csrfTokenForSession } from "../lib/accounts/csrf";
import type { AccountView } from "../lib/accounts/views";
import { appError } from "../lib/errors";
import { Handler, headersOf, HttpContext, setViewer, Viewer } from "./http-context";

async function findViewer(ctx: HttpContext, secret: () => string): Promise<Viewer | null> {
	const token = readSessionToken(headersOf(ctx).cookie);
	if (!token) return null;
	const session = (await ctx.call("accounts.resolveSession", { token })) as { account: AccountView } | null;
	return session ? { account: session.account, sessionToken: token, csrfToken: csrfTokenForSession(secret(), token) } : null;
}

export function sessionMiddleware(secret: () => string): Middleware {
	return {
		name: "Session",
		localAction(wrapped, action) {
			const auth = action.auth;
			if (!auth) return wrapped;
			const next = wrapped as Handler;
			return async function session(ctx: HttpContext) {
				const viewer = await findViewer(ctx, secret);
				if (!viewer && auth === "session") {
					throw appError("unauthorized", "Log in first: this needs the session cookie that POST /account/login or /account/signup sets.");
				}
				setViewer(ctx, viewer);
				return next(ctx);
			};
		}
	};
}
