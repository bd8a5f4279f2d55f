/**
 * Cross-site request forgery protection for every form the site posts (account, claim and, later,
 * dashboard forms). A POST is accepted when both hold:
 *
 * 1. **Its Origin is ours, or it sends none.** Browsers send Origin on every POST. A page on another
 *    origin (including another port of the same host, which is *same-site*, so SameSite=Lax cookies
 *    still ride along) is refused here. `Origin: null` is refused too: it is what sandboxed iframes,
 *    `data:` and `file:` documents send, i.e. exactly the opaque origins a forger can hide behind.
 *    Our own pages therefore must not make Chromium send `null`: under `Referrer-Policy:
 *    no-referrer` it does, on same-origin form posts too (Fetch standard, "serializing a request
 *    origin"). Pages with a form are served with `strict-origin` instead (lib/http/reply.ts), which
 *    sends our origin as Origin and only the origin, never the path, as Referer, so a claim token in
 *    the URL still reaches no one. A request with no Origin at all comes from a program or an old
 *    browser and is judged by rule 2 alone.
 * 2. **It is JSON, or it carries the form's CSRF token.** A cross-site page cannot send
 *    `Content-Type: application/json` without a CORS preflight, which this service never grants, so
 *    a JSON body needs no token. A form body must carry the hidden `csrf_token` field:
 *    - logged-in forms (synchronizer token tied to the session): HMAC(secret, "session:" +
 *      sessionToken). It needs no storage, changes with every login, and a token lifted from another
 *      session is useless because the HMAC cannot be computed without the server secret;
 *    - anonymous forms (log in, sign up), where no session exists yet: a signed double-submit
 *      cookie. The server sets a random value in the `cb_csrf` cookie and puts HMAC(secret, "anon:" +
 *      value) in the form; the submission must carry both. A cross-site page can neither read the
 *      cookie nor forge the matching field. This guards against login CSRF; it is weaker than the
 *      session-bound token (someone able to plant cookies on our domain could reuse a pair they
 *      obtained), which is acceptable for forms that do not act on an existing account.
 *
 * Every check compares in constant time and returns false, never throws, on malformed input.
 */
import { parseCookieHeader, serializeCookie } from "./cookies";
import { constantTimeEqual, hmacSha256Base64Url } from "./secrets";
import { looksLikeToken, newToken } from "./tokens";

export const CSRF_COOKIE_NAME = "cb_csrf";
/** Name of the hidden form field carrying the token. */
export const CSRF_FIELD_NAME = "csrf_token";
/** Two hours: enough to fill a form, short enough that a stale page asks for a reload. */
export const CSRF_COOKIE_MAX_AGE_SECONDS = 2 * 60 * 60;

function requireSecret(secret: string): void {
	// A short secret would make the HMAC guessable; this is a deployment error, caught at first use.
	if (secret.length < 16) throw new TypeError("The CSRF secret must have at least 16 characters");
}

/** The token to embed in a form rendered for the session `sessionToken`. */
export function csrfTokenForSession(secret: string, sessionToken: string): string {
	requireSecret(secret);
	return hmacSha256Base64Url(secret, `session:${sessionToken}`);
}

export function verifySessionCsrfToken(secret: string, sessionToken: string, submitted: unknown): boolean {
	if (typeof submitted !== "string" || submitted === "" || sessionToken === "") return false;
	return constantTimeEqual(csrfTokenForSession(secret, sessionToken), submitted);
}

export interface AnonymousCsrfPair {
	/** Value of the `cb_csrf` cookie. */
	cookieValue: string;
	/** Value of the hidden form field. */
	formToken: string;
}

/** A fresh cookie value and its form token, for a page with a log-in or sign-up form. */
export function generateAnonymousCsrfPair(secret: string): AnonymousCsrfPair {
	const cookieValue = newToken();
	return { cookieValue, formToken: anonymousFormToken(secret, cookieValue) };
}

/** The form token matching an existing `cb_csrf` cookie (reuse it instead of resetting the cookie on each page view). */
export function anonymousFormToken(secret: string, cookieValue: string): string {
	requireSecret(secret);
	return hmacSha256Base64Url(secret, `anon:${cookieValue}`);
}

export function verifyAnonymousCsrfToken(secret: string, cookieValue: unknown, submitted: unknown): boolean {
	if (typeof cookieValue !== "string" || cookieValue === "") return false;
	if (typeof submitted !== "string" || submitted === "") return false;
	return constantTimeEqual(anonymousFormToken(secret, cookieValue), submitted);
}

/** `Set-Cookie` value for the anonymous CSRF cookie. */
export function serializeCsrfCookie(cookieValue: string, options: { publicUrl: string }): string {
	return serializeCookie(CSRF_COOKIE_NAME, cookieValue, {
		publicUrl: options.publicUrl,
		maxAgeSeconds: CSRF_COOKIE_MAX_AGE_SECONDS
	});
}

/** The form token for an anonymous form, reusing the browser's `cb_csrf` cookie when it has a well-formed one. */
export function anonymousCsrf(secret: string, cookieHeader: string | undefined, publicUrl: string): { token: string; setCookie?: string } {
	const existing = parseCookieHeader(cookieHeader)[CSRF_COOKIE_NAME];
	if (looksLikeToken(existing)) return { token: anonymousFormToken(secret, existing) };
	const pair = generateAnonymousCsrfPair(secret);
	return { token: pair.formToken, setCookie: serializeCsrfCookie(pair.cookieValue, { publicUrl }) };
}

/** Rule 1: no Origin, or exactly the service's own. `null` and every other value are refused. */
export function originAllowed(origin: string | undefined, publicUrl: string): boolean {
	return origin === undefined || origin.trim() === new URL(publicUrl).origin;
}

export interface FormPost {
	/** The Origin request header. */
	origin: string | undefined;
	/** The body is `application/json`. */
	jsonBody: boolean;
	/** The Cookie request header (for the anonymous pair). */
	cookieHeader: string | undefined;
	/** The submitted `csrf_token` field. */
	submitted: unknown;
	/** The logged-in viewer's session token, or null on an anonymous form. */
	sessionToken: string | null;
}

/** Rules 1 and 2 together: may this POST act? */
export function formPostAllowed(secret: string, publicUrl: string, post: FormPost): boolean {
	if (!originAllowed(post.origin, publicUrl)) return false;
	if (post.jsonBody) return true;
	if (post.sessionToken !== null) return verifySessionCsrfToken(secret, post.sessionToken, post.submitted);
	return verifyAnonymousCsrfToken(secret, parseCookieHeader(post.cookieHeader)[CSRF_COOKIE_NAME], post.submitted);
}
