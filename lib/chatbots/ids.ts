import { randomBytes, randomUUID } from "node:crypto";

const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"; // no 0/o, 1/l: slugs get read aloud and typed

/** A short public slug for chat links: 12 characters, 60 random bits. */
export function newSlug(): string {
	const bytes = randomBytes(12);
	let out = "";
	for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
	return out;
}

export const newId = (): string => randomUUID();
