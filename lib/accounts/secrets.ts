/**
 * Random tokens, digests and comparisons shared by every secret the accounts domain hands out
 * (API keys, session ids, claim links, CSRF tokens). One place, so every token gets its entropy
 * from the OS CSPRNG and every check of a secret runs in constant time.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `bytes` random bytes as base64url (no padding): 4 characters per 3 bytes, URL- and cookie-safe. */
export function randomBase64Url(bytes: number): string {
	return randomBytes(bytes).toString("base64url");
}

/**
 * `length` random base62 characters. Bytes of 248 and above are discarded (248 = 4 × 62), so every
 * character is uniform: a plain `byte % 62` would favour the first eight characters.
 */
export function randomBase62(length: number): string {
	let out = "";
	while (out.length < length) {
		for (const byte of randomBytes(length * 2)) {
			if (byte >= 248) continue;
			out += BASE62[byte % 62];
			if (out.length === length) break;
		}
	}
	return out;
}

/** Bits of entropy carried by `length` uniform base62 characters. */
export function base62Bits(length: number): number {
	return length * Math.log2(62);
}

export function sha256Hex(value: string): string {
	return createHash("sha256").update(value, "utf8").digest("hex");
}

export function hmacSha256Base64Url(secret: string, message: string): string {
	return createHmac("sha256", secret).update(message, "utf8").digest("base64url");
}

/**
 * Compares two strings without revealing, through timing, how many leading characters match.
 * Both sides are hashed first so inputs of different lengths still take the same path (a length
 * mismatch would otherwise make `timingSafeEqual` throw, and an early return would leak it).
 */
export function constantTimeEqual(a: string, b: string): boolean {
	const left = createHash("sha256").update(a, "utf8").digest();
	const right = createHash("sha256").update(b, "utf8").digest();
	return timingSafeEqual(left, right);
}
