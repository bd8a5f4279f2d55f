/**
 * What an action answers over HTTP, as a value: status, body, media type, headers, cookies and
 * Location. Actions that declare `reply` (middlewares/http-reply.middleware.ts) return one of these;
 * the middleware alone puts it on `ctx.meta` for moleculer-web. Building replies is pure, so it is
 * tested without a broker, and no handler touches `ctx.meta.$statusCode` and friends.
 */

export type HeaderValues = Record<string, string | string[]>;

export interface HttpReply {
	status: number;
	/** A string (HTML, text) or a value moleculer-web sends as JSON; absent for 204, 303 and 304. */
	body?: unknown;
	/** Full Content-Type, charset included where the type has one. */
	contentType?: string;
	headers?: Readonly<HeaderValues>;
	/** `Set-Cookie` values. */
	cookies?: readonly string[];
	/** Location of a 201 or a redirect. */
	location?: string;
}

const NO_STORE = { "Cache-Control": "no-store" };
const HTML = "text/html; charset=utf-8";

/**
 * Headers of every page for people that is built from an account's data (account, claim, later the
 * dashboard): never cached, never framed (keep-this-chatbot and revoke buttons must not be
 * clickjacked), never sniffed.
 *
 * Referrer-Policy: `no-referrer` by default, so nothing about the page (a claim token in its path)
 * leaves in a Referer. A page with a form gets `strict-origin` instead: under `no-referrer`
 * Chromium posts the form with `Origin: null`, which the CSRF check refuses because opaque origins
 * (sandboxed iframes, `data:` URLs) send the same; `strict-origin` sends our origin as Origin and
 * only the origin as Referer, so the path still reaches no one (lib/accounts/csrf.ts).
 */
function pageHeaders(html: string): HeaderValues {
	// Our renderers escape every `<` of user text, so `<form` appears only where a renderer put a form.
	const hasForm = html.includes("<form");
	return {
		...NO_STORE,
		"Referrer-Policy": hasForm ? "strict-origin" : "no-referrer",
		"X-Frame-Options": "DENY",
		"Content-Security-Policy": "frame-ancestors 'none'",
		"X-Content-Type-Options": "nosniff"
	};
}

interface ReplyOptions {
	status?: number;
	cookies?: readonly string[];
	headers?: Readonly<HeaderValues>;
}

/** An HTML page for people (200 unless told), with the page headers above. */
export function pageReply(html: string, options: ReplyOptions = {}): HttpReply {
	return { status: options.status ?? 200, body: html, contentType: HTML, headers: { ...pageHeaders(html), ...options.headers }, cookies: options.cookies };
}

/** A JSON body (200 unless told), not cached; `location` goes with a 201. */
export function jsonReply(body: unknown, options: ReplyOptions & { location?: string } = {}): HttpReply {
	return {
		status: options.status ?? 200,
		body,
		contentType: "application/json; charset=utf-8",
		headers: { ...NO_STORE, ...options.headers },
		cookies: options.cookies,
		location: options.location
	};
}

/** 303 See Other: after a form POST the browser GETs `location` (a local path). */
export function redirectReply(location: string, options: { cookies?: readonly string[] } = {}): HttpReply {
	return { status: 303, location, headers: NO_STORE, cookies: options.cookies };
}

/** 204 No Content. */
export function noContentReply(): HttpReply {
	return { status: 204 };
}

function mediaType(value: string | undefined): string {
	return (value ?? "").split(";")[0].trim().toLowerCase();
}

/** The request body is JSON (a program's request). */
export function isJsonBody(contentType: string | undefined): boolean {
	return mediaType(contentType) === "application/json";
}

/**
 * The answer should be JSON: a JSON body, or an Accept that names JSON and not HTML. Browsers name
 * HTML in Accept on every navigation and form post, so they get pages.
 */
export function wantsJson(headers: { "content-type"?: string; accept?: string }): boolean {
	if (isJsonBody(headers["content-type"])) return true;
	const accept = (headers.accept ?? "").toLowerCase();
	return accept.includes("application/json") && !accept.includes("text/html");
}
