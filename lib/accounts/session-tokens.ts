/**
 * Login sessions: an opaque random id in a cookie; the database keeps only its SHA-256, so a
 * leaked sessions table cannot be replayed as cookies. SHA-256 suffices for the same reason as
 * for API keys (256 random bits cannot be guessed at any hash speed) and allows lookup by hash.
 */
import { parseCookieHeader, serializeCookie } from "./cookies";
import { randomBase64Url, sha256Hex } from "./secrets";

export const SESSION_COOKIE_NAME = "cb_session";
/** 14 days: long enough not to nag, short enough that a forgotten login on a shared computer ends. */
export const SESSION_MAX_AGE_SECONDS = 14 * 24 * 60 * 60;

const SESSION_TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding is exactly 43 characters. */
const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface GeneratedSessionToken {
	/** Goes into the cookie; never stored. */
	token: string;
	/** SHA-256 hex of `token`; the stored session key. */
	hash: string;
}

export function generateSessionToken(): GeneratedSessionToken {
	const token = randomBase64Url(SESSION_TOKEN_BYTES);
	return { token, hash: hashSessionToken(token) };
}

export function hashSessionToken(token: string): string {
	return sha256Hex(token);
}

export function looksLikeSessionToken(value: unknown): value is string {
	return typeof value === "string" && SESSION_TOKEN_PATTERN.test(value);
}

export interface SessionCookieOptions {
	publicUrl: string;
	maxAgeSeconds?: number;
}

/** `Set-Cookie` value that stores the session token. */
export function serializeSessionCookie(token: string, options: SessionCookieOptions): string {
	return serializeCookie(SESSION_COOKIE_NAME, token, {
		publicUrl: options.publicUrl,
		maxAgeSeconds: options.maxAgeSeconds ?? SESSION_MAX_AGE_SECONDS
	});
}

/** `Set-Cookie` value that deletes the session cookie (log out). */
export function serializeClearedSessionCookie(options: { publicUrl: string }): string {
	return serializeCookie(SESSION_COOKIE_NAME, "", { publicUrl: options.publicUrl, maxAgeSeconds: 0 });
}

/** The session token from a `Cookie` header, or undefined when absent or malformed. */
export function readSessionToken(cookieHeader: string | undefined): string | undefined {
	const token = parseCookieHeader(cookieHeader)[SESSION_COOKIE_NAME];
	return looksLikeSessionToken(token) ? token : undefined;
}
