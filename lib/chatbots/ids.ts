import { createHash, randomBytes, randomUUID } from "node:crypto";

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // no 0/o, 1/l: slugs get read aloud and typed

/** A short public slug for chat links: 12 characters, 60 random bits. */
export function newSlug(): string {
	const bytes = randomBytes(12);
	let out = "";
	for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
	return out;
}

export const newId = (): string => randomUUID();

/** An opaque bearer token of 256 random bits, URL-safe. */
export function newToken(): string {
	return randomBytes(32).toString("base64url");
}

/** Tokens are stored only as their SHA-256: they are high-entropy, so a slow hash adds nothing. */
export function hashToken(token: string): string {
	return createHash("sha256").update(token, "utf8").digest("hex");
}
