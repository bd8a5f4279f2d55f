/**
 * Where a browser goes after logging in. The target travels in a `next` query parameter and a
 * hidden form field, so it is checked here: only a local path is followed, never another site.
 */

export const LOGIN_PATH = "/account/login";
/** Where a log-in with no (or an unusable) `next` lands. */
export const DEFAULT_NEXT = "/account";

/**
 * A local path to continue to after logging in (`/account`, `/claim/...`); anything else (absolute
 * URLs, `//host`, backslashes, over 300 characters) falls back, so the parameter cannot become an
 * open redirect.
 */
export function safeNext(value: string | undefined, fallback = DEFAULT_NEXT): string {
	if (value === undefined || value.length > 300) return fallback;
	if (!/^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@/%?]*$/.test(value)) return fallback;
	return value;
}

/** The log-in page that returns to `next` afterwards: `/account/login?next=%2Faccount`. */
export function loginPath(next: string): string {
	return `${LOGIN_PATH}?next=${encodeURIComponent(next)}`;
}

/**
 * Fills a path template of the route table (`/claim/{token}`) from an action's params, each value
 * URL-encoded; a missing value leaves an empty segment, which `safeNext` still accepts as local.
 */
export function fillPath(template: string, params: Readonly<Record<string, unknown>>): string {
	return template.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value = params[name];
		return typeof value === "string" || typeof value === "number" ? encodeURIComponent(String(value)) : "";
	});
}
