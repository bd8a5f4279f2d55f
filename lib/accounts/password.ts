/**
 * Password hashing with scrypt (memory-hard, built into Node) and the sign-up password policy.
 *
 * Stored form: `scrypt$<N>$<r>$<p>$<salt base64url>$<hash base64url>`. The string carries its own
 * cost parameters, so raising the cost later does not break existing hashes: `verifyPassword`
 * reads them back, and `needsRehash` tells the login flow to store a fresh hash.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

export interface ScryptParams {
	/** CPU/memory cost, a power of two. Memory used is about 128 × N × r bytes. */
	N: number;
	/** Block size. */
	r: number;
	/** Parallelisation. */
	p: number;
}

/**
 * N=2^15, r=8, p=3: one of the equivalent settings the OWASP Password Storage Cheat Sheet lists
 * beside N=2^17 r=8 p=1. It costs the same CPU but needs 32 MiB per hash instead of 128 MiB, which
 * matters when several logins arrive at once.
 */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 15, r: 8, p: 3 });

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PREFIX = "scrypt";
/** Refuse to run a stored hash whose parameters would exhaust memory or CPU (a tampered row must not DoS the login). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

export type PasswordPolicyResult = { ok: true } | { ok: false; message: string };

/**
 * Length is the only rule (NIST SP 800-63B): composition rules push people to predictable
 * patterns, while the upper bound keeps a huge "password" from becoming a hashing DoS.
 * Length counts Unicode code points, so an emoji counts as one character.
 */
export function checkPasswordPolicy(password: string): PasswordPolicyResult {
	const length = [...password].length;
	if (length < PASSWORD_MIN_LENGTH) {
		return { ok: false, message: `The password must have at least ${PASSWORD_MIN_LENGTH} characters.` };
	}
	if (length > PASSWORD_MAX_LENGTH) {
		return { ok: false, message: `The password must have at most ${PASSWORD_MAX_LENGTH} characters.` };
	}
	if (password.trim() === "") return { ok: false, message: "The password must not be only spaces." };
	return { ok: true };
}

function derive(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
	// Normalised so the same password typed on two keyboards (composed vs decomposed accents) matches.
	const normalised = password.normalize("NFKC");
	// maxmem must exceed 128·N·r, or Node refuses; leave headroom over the default 32 MiB.
	const maxmem = 128 * params.N * params.r * 2;
	return new Promise((resolve, reject) => {
		scrypt(normalised, salt, keyLength, { N: params.N, r: params.r, p: params.p, maxmem }, (error, key) =>
			error ? reject(error) : resolve(key)
		);
	});
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
	const salt = randomBytes(SALT_BYTES);
	const hash = await derive(password, salt, params, HASH_BYTES);
	return [PREFIX, params.N, params.r, params.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

interface ParsedHash {
	params: ScryptParams;
	salt: Buffer;
	hash: Buffer;
}

function parseStoredHash(stored: string): ParsedHash | undefined {
	const parts = stored.split("$");
	if (parts.length !== 6 || parts[0] !== PREFIX) return undefined;
	const [N, r, p] = parts.slice(1, 4).map(part => (/^\d{1,8}$/.test(part) ? Number(part) : NaN));
	const isPowerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
	if (!isPowerOfTwo || N > MAX_N || !(r >= 1 && r <= MAX_R) || !(p >= 1 && p <= MAX_P)) return undefined;
	const salt = Buffer.from(parts[4], "base64url");
	const hash = Buffer.from(parts[5], "base64url");
	if (salt.length < 8 || hash.length < 16) return undefined;
	return { params: { N, r, p }, salt, hash };
}

/**
 * True when `password` matches `stored`. A malformed stored value verifies as false rather than
 * throwing, so a corrupt row looks like a wrong password and never leaks as a 500.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const parsed = parseStoredHash(stored);
	if (!parsed) return false;
	const candidate = await derive(password, parsed.salt, parsed.params, parsed.hash.length);
	return timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with other parameters than `current` (or cannot be read). */
export function needsRehash(stored: string, current: ScryptParams = DEFAULT_SCRYPT_PARAMS): boolean {
	const parsed = parseStoredHash(stored);
	if (!parsed) return true;
	return parsed.params.N !== current.N || parsed.params.r !== current.r || parsed.params.p !== current.p;
}
