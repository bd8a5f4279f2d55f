/**
 * Claim links for anonymous sandbox chatbots: `<publicUrl>/claim/<token>`.
 *
 * The token is 32 random bytes (256 bits, base64url) handed to the agent once in the
 * `create_chatbot` result; the chatbot record stores only its SHA-256, so a database leak does not
 * let anyone claim other people's sandboxes. Whoever holds the link may claim, once.
 */
import { randomBase64Url, sha256Hex } from "./secrets";

/** Path prefix of the claim page; the gateway routes `GET`/`POST ${CLAIM_PATH_PREFIX}:token`. */
export const CLAIM_PATH_PREFIX = "/claim/";

const CLAIM_TOKEN_BYTES = 32;
const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface GeneratedClaimToken {
	/** Goes into the claim URL; never stored. */
	token: string;
	/** SHA-256 hex of `token`; stored on the sandbox chatbot. */
	hash: string;
}

export function generateClaimToken(): GeneratedClaimToken {
	const token = randomBase64Url(CLAIM_TOKEN_BYTES);
	return { token, hash: hashClaimToken(token) };
}

export function hashClaimToken(token: string): string {
	return sha256Hex(token);
}

export function looksLikeClaimToken(value: unknown): value is string {
	return typeof value === "string" && CLAIM_TOKEN_PATTERN.test(value);
}

/** The claim link; `publicUrl` may end with a slash. */
export function claimUrl(publicUrl: string, token: string): string {
	return `${publicUrl.replace(/\/+$/, "")}${CLAIM_PATH_PREFIX}${encodeURIComponent(token)}`;
}
