/**
 * Account API keys for `Authorization: Bearer <key>` on the tool server.
 *
 * A key is `cbk_live_` + 32 base62 characters (about 190 random bits). The fixed prefix is
 * published as `token_prefix` in the API index, lets secret scanners recognise a leaked key, and
 * lets the gateway refuse a malformed credential before any database lookup.
 *
 * Only `hashToken(key)` is stored, like every other token (lib/accounts/tokens.ts says why SHA-256).
 */
import { base62Bits, randomBase62 } from "./secrets";
import { hashToken } from "./tokens";

export const API_KEY_PREFIX = "cbk_live_";
/** Random part length: 32 base62 characters ≈ 190.5 bits, well over the 160-bit floor. */
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_ENTROPY_BITS = Math.floor(base62Bits(API_KEY_RANDOM_LENGTH));

const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${API_KEY_RANDOM_LENGTH}}$`);
const KEY_ID_PREFIX = "key_";

export interface GeneratedApiKey {
	/** The full key: shown to its owner once, never stored. */
	key: string;
	/** Public identifier of the key (for listing and revoking); not derived from the key. */
	id: string;
	/** `hashToken(key)`: the stored credential. */
	hash: string;
	/** Last four characters of `key`, stored to help the owner recognise it in a list. */
	last4: string;
}

export function generateApiKey(): GeneratedApiKey {
	const key = API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
	return { key, id: KEY_ID_PREFIX + randomBase62(16), hash: hashToken(key), last4: key.slice(-4) };
}

/** Shape check only (prefix, length, alphabet); whether the key exists is the store's question. */
export function looksLikeApiKey(value: unknown): value is string {
	return typeof value === "string" && API_KEY_PATTERN.test(value);
}

/**
 * The key from an `Authorization` header value: `Bearer <key>` (scheme case-insensitive, per RFC
 * 7235). Returns undefined when the header is absent and `null` when it is present but is not a
 * Bearer credential with a well-formed key, so the caller can tell "anonymous" from "refuse with 401".
 */
export function readBearerApiKey(header: string | undefined): string | null | undefined {
	if (header === undefined || header.trim() === "") return undefined;
	const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header.trim());
	if (!match || !looksLikeApiKey(match[1])) return null;
	return match[1];
}
