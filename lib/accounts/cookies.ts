/**
 * Minimal cookie serialising and parsing (RFC 6265), and the log-in session cookie.
 *
 * Attributes are decided here once, not per route: HttpOnly (scripts never need these cookies),
 * SameSite=Lax (sent on top-level navigation, so links into the site keep the login, but not on
 * cross-site POSTs), Path=/, and Secure whenever the public URL is https, because a cookie marked
 * Secure is dropped by browsers on plain-http development setups.
 */

import { looksLikeToken } from "./tokens";

export interface CookieOptions {
	/** The service's public base URL; `https:` turns on the Secure attribute. */
	publicUrl: string;
	/** Lifetime in seconds; 0 deletes the cookie. */
	maxAgeSeconds: number;
}

/** Cookie names and values we emit are restricted to RFC 6265 token / cookie-octet characters. */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const COOKIE_VALUE = /^[!#-+\--:<-[\]-~]*$/;

export function isHttpsUrl(publicUrl: string): boolean {
	try {
		return new URL(publicUrl).protocol === "https:";
	} catch {
		return false;
	}
}

/** A `Set-Cookie` header value. Throws on a name or value we would never emit (a programming error). */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
	if (!COOKIE_NAME.test(name)) throw new TypeError(`Invalid cookie name: ${name}`);
	if (!COOKIE_VALUE.test(value)) throw new TypeError(`Invalid value for cookie ${name}`);
	if (!Number.isInteger(options.maxAgeSeconds) || options.maxAgeSeconds < 0) {
		throw new TypeError("maxAgeSeconds must be a non-negative integer");
	}
	const parts = [`${name}=${value}`, "Path=/", `Max-Age=${options.maxAgeSeconds}`, "HttpOnly", "SameSite=Lax"];
	if (options.maxAgeSeconds === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
	if (isHttpsUrl(options.publicUrl)) parts.push("Secure");
	return parts.join("; ");
}

/**
 * Name → value from a `Cookie` request header. The first occurrence of a name wins (browsers send
 * the most specific path first); malformed pairs are skipped, never thrown on.
 */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
	const cookies: Record<string, string> = Object.create(null) as Record<string, string>;
	if (!header) return cookies;
	for (const pair of header.split(";")) {
		const eq = pair.indexOf("=");
		if (eq <= 0) continue;
		const name = pair.slice(0, eq).trim();
		let value = pair.slice(eq + 1).trim();
		if (!name || name in cookies) continue;
		if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
		try {
			cookies[name] = decodeURIComponent(value);
		} catch {
			cookies[name] = value;
		}
	}
	return cookies;
}

/** The log-in session's cookie: its value is a `newToken()`; the database keeps only its hash. */
export const SESSION_COOKIE_NAME = "cb_session";
/** 14 days: long enough not to nag, short enough that a forgotten login on a shared computer ends. */
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60;

/** `Set-Cookie` value that stores the session token. */
export function serializeSessionCookie(token: string, options: { publicUrl: string; maxAgeSeconds?: number }): string {
	return serializeCookie(SESSION_COOKIE_NAME, token, { publicUrl: options.publicUrl, maxAgeSeconds: options.maxAgeSeconds ?? SESSION_MAX_AGE_SECONDS });
}

/** `Set-Cookie` value that deletes the session cookie (log out). */
export function serializeClearedSessionCookie(options: { publicUrl: string }): string {
	return serializeCookie(SESSION_COOKIE_NAME, "", { publicUrl: options.publicUrl, maxAgeSeconds: 0 });
}

/** The session token from a `Cookie` header, or undefined when absent or malformed. */
export function readSessionToken(cookieHeader: string | undefined): string | undefined {
	const token = parseCookieHeader(cookieHeader)[SESSION_COOKIE_NAME];
	return looksLikeToken(token) ? token : undefined;
}
