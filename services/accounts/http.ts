/**
 * How the account actions answer over the gateway: HTML for browsers, JSON for programs, and the
 * request checks both share (same-origin POSTs, safe redirect targets).
 *
 * A request is a program's when its body is JSON or it asks for JSON (and not HTML). Programs need
 * no CSRF token: a cross-site page cannot send `Content-Type: application/json` without a CORS
 * preflight, which this service never grants, and SameSite=Lax keeps the session cookie off
 * cross-site POSTs anyway. HTML forms carry a CSRF token. Either way an Origin header, when present,
 * must be our own.
 */
import type { Context } from "moleculer";

export type RequestHeaders = Record<string, string | undefined>;

export interface GatewayMeta extends Record<string, unknown> {
	headers?: RequestHeaders;
	$statusCode?: number;
	$responseType?: string;
	$responseHeaders?: Record<string, string | string[]>;
	$location?: string;
}

export type HttpContext<P> = Context<P, GatewayMeta>;

export function headersOf(ctx: HttpContext<unknown>): RequestHeaders {
	return ctx.meta.headers ?? {};
}

function mediaType(value: string | undefined): string {
	return (value ?? "").split(";")[0].trim().toLowerCase();
}

/** The body is JSON (a program's request). */
export function isJsonRequest(headers: RequestHeaders): boolean {
	return mediaType(headers["content-type"]) === "application/json";
}

/** The answer should be JSON: a JSON body, or an Accept that names JSON and not HTML. */
export function wantsJson(headers: RequestHeaders): boolean {
	if (isJsonRequest(headers)) return true;
	const accept = (headers.accept ?? "").toLowerCase();
	return accept.includes("application/json") && !accept.includes("text/html");
}

/** True when no Origin is sent, or it is the service's own. */
export function sameOrigin(headers: RequestHeaders, publicUrl: string): boolean {
	const origin = headers.origin;
	return origin === undefined || origin.trim() === new URL(publicUrl).origin;
}

/**
 * A local path to continue to after logging in (`/account`, `/claim/...`); anything else (absolute
 * URLs, `//host`, backslashes) falls back, so the parameter cannot become an open redirect.
 */
export function safeNext(value: unknown, fallback = "/account"): string {
	if (typeof value !== "string" || value.length > 300) return fallback;
	if (!/^\/(?![/\\])[A-Za-z0-9\-._~!$&'()*+,;=:@/%?]*$/.test(value)) return fallback;
	return value;
}

const PAGE_HEADERS = {
	"Cache-Control": "no-store",
	// Claim links carry their token in the path: never send it on in a Referer.
	"Referrer-Policy": "no-referrer",
	// Keep-this-chatbot and revoke buttons must not be clickjacked from a frame.
	"X-Frame-Options": "DENY",
	"Content-Security-Policy": "frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff"
};

function setCookies(cookies: string[]): Record<string, string | string[]> {
	return cookies.length > 0 ? { "Set-Cookie": cookies } : {};
}

/** Answers an HTML page. */
export function htmlResponse(ctx: HttpContext<unknown>, status: number, html: string, cookies: string[] = []): string {
	ctx.meta.$statusCode = status;
	ctx.meta.$responseType = "text/html; charset=utf-8";
	ctx.meta.$responseHeaders = { ...PAGE_HEADERS, ...setCookies(cookies) };
	return html;
}

/** Answers JSON; `location` goes with a 201. */
export function jsonResponse<T>(ctx: HttpContext<unknown>, status: number, body: T, cookies: string[] = [], location?: string): T {
	ctx.meta.$statusCode = status;
	ctx.meta.$responseType = "application/json; charset=utf-8";
	ctx.meta.$responseHeaders = { "Cache-Control": "no-store", ...setCookies(cookies) };
	if (location !== undefined) ctx.meta.$location = location;
	return body;
}

/** 303 See Other: after a form POST the browser GETs `location`. */
export function redirectResponse(ctx: HttpContext<unknown>, location: string, cookies: string[] = []): null {
	ctx.meta.$statusCode = 303;
	ctx.meta.$location = location;
	ctx.meta.$responseHeaders = { "Cache-Control": "no-store", ...setCookies(cookies) };
	return null;
}
