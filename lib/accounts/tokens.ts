/**
 * Every bearer secret the service hands out, in one place: what each looks like, how it is made and
 * how it is stored.
 *
 * | secret               | made as                                   | stored as            |
 * |----------------------|-------------------------------------------|----------------------|
 * | log-in session       | `newToken()`, in the `cb_session` cookie  | `hashToken(token)`   |
 * | demo session id      | `newToken()`, in the demo API's paths     | `hashToken(token)`   |
 * | sandbox claim link   | `sandboxClaimToken(secret, chatbot id)`   | `hashToken(token)`   |
 * | account API key      | `generateApiKey()` (./api-keys.ts)        | `hashToken(key)`     |
 *
 * Every one carries at least 190 random bits, so SHA-256 is the right digest, not scrypt: a slow,
 * salted hash exists to make guessing *low-entropy* secrets (passwords) expensive, but guessing one
 * of 2^190 values is infeasible at any hash speed. A fast, unsalted digest is also deterministic, so
 * a presented token is found by an indexed lookup on its hash instead of an scrypt run per row, and a
 * leaked table of hashes cannot be replayed.
 */
import { hmacSha256Base64Url, randomBase64Url, sha256Hex } from "./secrets";

/** 32 random bytes: 256 bits. */
const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding are exactly 43 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A fresh opaque token: 256 random bits as base64url, safe in URLs and cookies. Never stored. */
export function newToken(): string {
	return randomBase64Url(TOKEN_BYTES);
}

/** The stored form of any token or key: SHA-256, hex. */
export function hashToken(token: string): string {
	return sha256Hex(token);
}

/** Shape check of an opaque or claim token (43 base64url characters); whether it exists is the store's question. */
export function looksLikeToken(value: unknown): value is string {
	return typeof value === "string" && TOKEN_PATTERN.test(value);
}

// --- Claim links -------------------------------------------------------------------------------

/** Path prefix of the claim page; the gateway routes `GET`/`POST ${CLAIM_PATH_PREFIX}:token`. */
export const CLAIM_PATH_PREFIX = "/claim/";

/**
 * The claim token of a sandbox chatbot, derived from its id with the server secret:
 * HMAC-SHA256(secret, "claim:" + chatbot_id), 32 bytes in base64url (the shape `looksLikeToken`
 * accepts).
 *
 * Derived rather than random so that `get_chatbot` can hand the claim link out again: an agent that
 * lost the `create_chatbot` result still holds the chatbot_id, which already lets it act on the
 * sandbox. The chatbot stores only `hashToken(token)`, so a leaked database without the secret
 * claims nothing, and the link stops working once used because the claim clears the hash.
 */
export function sandboxClaimToken(secret: string, chatbotId: string): string {
	// A short secret would make tokens guessable; a deployment error caught at first use.
	if (secret.length < 16) throw new TypeError("The signing secret must have at least 16 characters");
	return hmacSha256Base64Url(secret, `claim:${chatbotId}`);
}

/** The claim link; `publicUrl` may end with a slash. */
export function claimUrl(publicUrl: string, token: string): string {
	return `${publicUrl.replace(/\/+$/, "")}${CLAIM_PATH_PREFIX}${encodeURIComponent(token)}`;
}
