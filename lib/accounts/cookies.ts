/**
 * Minimal cookie serialising and parsing (RFC 6265) for the session and CSRF cookies.
 *
 * Attributes are decided here once, not per route: HttpOnly (scripts never need these cookies),
 * SameSite=Lax (sent on top-level navigation, so links into the site keep the login, but not on
 * cross-site POSTs), Path=/, and Secure whenever the public URL is https, because a cookie marked
 * Secure is dropped by browsers on plain-http development setups.
 */

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
