/**
 * CSRF protection for the account pages' HTML forms.
 *
 * Logged-in forms (synchronizer token tied to the session): the hidden field carries
 * HMAC(secret, "session:" + sessionToken). It needs no storage, changes with every login, and a
 * token lifted from another session is useless here because the attacker cannot compute the HMAC
 * for the victim's session without the server secret.
 *
 * Anonymous forms (log in, sign up), where no session exists yet: a signed double-submit cookie.
 * The server sets a random value in the `cb_csrf` cookie and puts HMAC(secret, "anon:" + value)
 * in the form; the submission must carry both. A cross-site page can make the browser send the
 * cookie (SameSite=Lax already stops that for POST) but can neither read it nor forge the matching
 * field. This guards against login CSRF; it is weaker than the session-bound token (someone able
 * to plant cookies on our domain could reuse a pair they obtained), which is acceptable for forms
 * that do not act on an existing account.
 *
 * Every check compares in constant time and returns false, never throws, on malformed input.
 */
import { serializeCookie } from "./cookies";
import { constantTimeEqual, hmacSha256Base64Url, randomBase64Url } from "./secrets";

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
	const cookieValue = randomBase64Url(32);
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
