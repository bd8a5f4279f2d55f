/**
 * Secrets of the accounts domain: password hashes, API keys, session cookies, CSRF tokens and
 * claim links. All real crypto (node:crypto), no mocks.
 */
import { createHash } from "node:crypto";
import {
	API_KEY_ENTROPY_BITS,
	API_KEY_PREFIX,
	API_KEY_RANDOM_LENGTH,
	generateApiKey,
	looksLikeApiKey,
	readBearerApiKey
} from "../../lib/accounts/api-keys";
import {
	parseCookieHeader,
	readSessionToken,
	serializeClearedSessionCookie,
	serializeCookie,
	serializeSessionCookie,
	SESSION_COOKIE_NAME,
	SESSION_MAX_AGE_SECONDS
} from "../../lib/accounts/cookies";
import {
	anonymousFormToken,
	CSRF_COOKIE_NAME,
	csrfTokenForSession,
	generateAnonymousCsrfPair,
	serializeCsrfCookie,
	verifyAnonymousCsrfToken,
	verifySessionCsrfToken
} from "../../lib/accounts/csrf";
import {
	checkPasswordPolicy,
	DEFAULT_SCRYPT_PARAMS,
	hashPassword,
	needsRehash,
	PASSWORD_MAX_LENGTH,
	PASSWORD_MIN_LENGTH,
	ScryptParams,
	verifyPassword
} from "../../lib/accounts/password";
import { constantTimeEqual, randomBase62 } from "../../lib/accounts/secrets";
import { CLAIM_PATH_PREFIX, claimUrl, hashToken, looksLikeToken, newToken } from "../../lib/accounts/tokens";

/** A session token as the store makes one: a fresh opaque token and its stored hash. */
const generateSessionToken = () => {
	const token = newToken();
	return { token, hash: hashToken(token) };
};

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
/** Cheap parameters so the many hashing tests stay fast; the default cost is exercised once. */
const FAST: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };
const SECRET = "test-signing-secret-0123456789";

function attributes(setCookie: string): { pair: string; attrs: string[] } {
	const [pair, ...attrs] = setCookie.split("; ");
	return { pair, attrs };
}

describe("passwords", () => {
	it("hashes with the default cost into the self-describing format and verifies", async () => {
		const stored = await hashPassword("correct horse battery staple");
		expect(stored).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
		expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 32768, r: 8, p: 3 });
		await expect(verifyPassword("correct horse battery staple", stored)).resolves.toBe(true);
		await expect(verifyPassword("correct horse battery stapl", stored)).resolves.toBe(false);
	});

	it("salts every hash, so the same password hashes differently", async () => {
		const [a, b] = await Promise.all([hashPassword("same password!", FAST), hashPassword("same password!", FAST)]);
		expect(a).not.toBe(b);
		expect(a.split("$")[4]).not.toBe(b.split("$")[4]);
		await expect(verifyPassword("same password!", a)).resolves.toBe(true);
		await expect(verifyPassword("same password!", b)).resolves.toBe(true);
	});

	it("reads the cost back from the stored string", async () => {
		const stored = await hashPassword("a different one", FAST);
		expect(stored.startsWith("scrypt$1024$8$1$")).toBe(true);
		await expect(verifyPassword("a different one", stored)).resolves.toBe(true);
		expect(needsRehash(stored)).toBe(true);
		expect(needsRehash(stored, FAST)).toBe(false);
	});

	it("rejects wrong passwords, including case and whitespace changes", async () => {
		const stored = await hashPassword("Tr0ub4dor&3 xyz", FAST);
		for (const wrong of ["tr0ub4dor&3 xyz", "Tr0ub4dor&3 xyz ", "", "Tr0ub4dor&3"]) {
			await expect(verifyPassword(wrong, stored)).resolves.toBe(false);
		}
	});

	it("matches composed and decomposed spellings of the same password", async () => {
		const composed = "contrase\u00f1a segura";
		const decomposed = "contrasen\u0303a segura";
		expect(composed).not.toBe(decomposed);
		const stored = await hashPassword(composed, FAST);
		await expect(verifyPassword(decomposed, stored)).resolves.toBe(true);
	});

	it("treats malformed or tampered stored values as a mismatch, without throwing", async () => {
		const stored = await hashPassword("some password", FAST);
		const parts = stored.split("$");
		const tampered = [
			"",
			"plain-text-password",
			"bcrypt$10$abc",
			parts.slice(0, 5).join("$"),
			["argon2", ...parts.slice(1)].join("$"),
			[parts[0], "1000", ...parts.slice(2)].join("$"), // N not a power of two
			[parts[0], String(2 ** 30), ...parts.slice(2)].join("$"), // N large enough to exhaust memory
			[parts[0], parts[1], "0", ...parts.slice(3)].join("$"),
			[...parts.slice(0, 5), "AAAA"].join("$"), // hash too short
			[...parts.slice(0, 5), parts[5].replace(/^./, c => (c === "A" ? "B" : "A"))].join("$") // one character flipped
		];
		for (const value of tampered) await expect(verifyPassword("some password", value)).resolves.toBe(false);
	});

	it("enforces the length policy in code points", () => {
		expect(PASSWORD_MIN_LENGTH).toBe(10);
		expect(PASSWORD_MAX_LENGTH).toBe(200);
		expect(checkPasswordPolicy("a".repeat(9))).toEqual({ ok: false, message: expect.stringContaining("at least 10") });
		expect(checkPasswordPolicy("a".repeat(10))).toEqual({ ok: true });
		expect(checkPasswordPolicy("a".repeat(200))).toEqual({ ok: true });
		expect(checkPasswordPolicy("a".repeat(201))).toEqual({ ok: false, message: expect.stringContaining("at most 200") });
		expect(checkPasswordPolicy(" ".repeat(12)).ok).toBe(false);
		// Nine emoji are 18 UTF-16 units but nine characters: too short.
		expect(checkPasswordPolicy("🔑".repeat(9)).ok).toBe(false);
		expect(checkPasswordPolicy("🔑".repeat(10)).ok).toBe(true);
	});
});

describe("API keys", () => {
	it("generates prefixed keys with at least 160 random bits", () => {
		const generated = generateApiKey();
		expect(API_KEY_PREFIX).toBe("cbk_live_");
		expect(generated.key.startsWith(API_KEY_PREFIX)).toBe(true);
		expect(generated.key).toHaveLength(API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH);
		expect(generated.key.slice(API_KEY_PREFIX.length)).toMatch(/^[0-9A-Za-z]{32}$/);
		expect(API_KEY_ENTROPY_BITS).toBeGreaterThanOrEqual(160);
		expect(API_KEY_RANDOM_LENGTH * Math.log2(62)).toBeGreaterThanOrEqual(160);
		expect(generated.last4).toBe(generated.key.slice(-4));
		expect(generated.id).toMatch(/^key_[0-9A-Za-z]{16}$/);
		expect(generated.id).not.toContain(generated.key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + 8));
	});

	it("stores the SHA-256 hex of the key, deterministic so it can be looked up", () => {
		const generated = generateApiKey();
		expect(generated.hash).toBe(sha256(generated.key));
		expect(hashToken(generated.key)).toBe(generated.hash);
		expect(generated.hash).toMatch(/^[0-9a-f]{64}$/);
		expect(generated.hash).not.toContain(generated.key.slice(API_KEY_PREFIX.length));
	});

	it("never repeats a key or an id", () => {
		const keys = Array.from({ length: 2000 }, () => generateApiKey());
		expect(new Set(keys.map(k => k.key)).size).toBe(2000);
		expect(new Set(keys.map(k => k.id)).size).toBe(2000);
	});

	it("draws base62 characters uniformly (no modulo bias)", () => {
		const sample = randomBase62(62 * 2000);
		const counts = new Map<string, number>();
		for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
		expect(counts.size).toBe(62);
		// Chi-square with 61 degrees of freedom; 120 is far beyond the 99.99th percentile (~108).
		// A `byte % 62` generator puts ~5/256 extra weight on 8 characters and scores about 800 here.
		const chiSquare = [...counts.values()].reduce((sum, n) => sum + (n - 2000) ** 2 / 2000, 0);
		expect(chiSquare).toBeLessThan(120);
	});

	it("recognises the key shape", () => {
		const { key } = generateApiKey();
		expect(looksLikeApiKey(key)).toBe(true);
		for (const bad of [undefined, 42, "", key.slice(0, -1), `${key}x`, key.replace("cbk_live_", "cbk_test_"), `${key.slice(0, -1)}-`]) {
			expect(looksLikeApiKey(bad)).toBe(false);
		}
	});

	it("reads a Bearer credential and tells absent from malformed", () => {
		const { key } = generateApiKey();
		expect(readBearerApiKey(`Bearer ${key}`)).toBe(key);
		expect(readBearerApiKey(`bearer   ${key} `)).toBe(key);
		expect(readBearerApiKey(undefined)).toBeUndefined();
		expect(readBearerApiKey("  ")).toBeUndefined();
		expect(readBearerApiKey(`Basic ${key}`)).toBeNull();
		expect(readBearerApiKey("Bearer nonsense")).toBeNull();
		expect(readBearerApiKey(`Bearer ${key} extra`)).toBeNull();
	});
});

describe("session tokens and cookies", () => {
	it("generates 256-bit tokens and stores only their hash", () => {
		const { token, hash } = generateSessionToken();
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(Buffer.from(token, "base64url")).toHaveLength(32);
		expect(hash).toBe(sha256(token));
		expect(hashToken(token)).toBe(hash);
		expect(generateSessionToken().token).not.toBe(token);
	});

	it("sets HttpOnly, SameSite=Lax, Path=/ and Max-Age, and Secure only under https", () => {
		const { token } = generateSessionToken();
		const overHttps = attributes(serializeSessionCookie(token, { publicUrl: "https://bots.example.net" }));
		expect(overHttps.pair).toBe(`${SESSION_COOKIE_NAME}=${token}`);
		expect(overHttps.attrs).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", `Max-Age=${SESSION_MAX_AGE_SECONDS}`, "Secure"]));

		const overHttp = attributes(serializeSessionCookie(token, { publicUrl: "http://127.0.0.1:3000", maxAgeSeconds: 60 }));
		expect(overHttp.attrs).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=60"]));
		expect(overHttp.attrs).not.toContain("Secure");
		expect(attributes(serializeSessionCookie(token, { publicUrl: "not a url" })).attrs).not.toContain("Secure");
	});

	it("clears the cookie on log-out", () => {
		const cleared = attributes(serializeClearedSessionCookie({ publicUrl: "https://bots.example.net" }));
		expect(cleared.pair).toBe(`${SESSION_COOKIE_NAME}=`);
		expect(cleared.attrs).toEqual(expect.arrayContaining(["Max-Age=0", "Expires=Thu, 01 Jan 1970 00:00:00 GMT", "Secure", "HttpOnly"]));
	});

	it("reads the session token from a Cookie header with other cookies", () => {
		const { token } = generateSessionToken();
		expect(readSessionToken(`theme=dark; ${SESSION_COOKIE_NAME}=${token}; other=1`)).toBe(token);
		expect(readSessionToken(`${SESSION_COOKIE_NAME}="${token}"`)).toBe(token);
		expect(readSessionToken(undefined)).toBeUndefined();
		expect(readSessionToken(`${SESSION_COOKIE_NAME}=short`)).toBeUndefined();
		expect(readSessionToken(`${SESSION_COOKIE_NAME}=${token}!`)).toBeUndefined();
	});

	it("parses cookie headers leniently and lets the first occurrence win", () => {
		expect(parseCookieHeader("a=1; b=two%20words; ; junk; =x; a=3; c=%E0%A4%A")).toEqual({ a: "1", b: "two words", c: "%E0%A4%A" });
		expect(parseCookieHeader("")).toEqual({});
		expect(parseCookieHeader("__proto__=x").__proto__).toBe("x");
	});

	it("refuses to emit a cookie value that could inject attributes", () => {
		expect(() => serializeCookie("a", "x; Domain=evil.example", { publicUrl: "https://x.example", maxAgeSeconds: 1 })).toThrow(TypeError);
		expect(() => serializeCookie("a b", "x", { publicUrl: "https://x.example", maxAgeSeconds: 1 })).toThrow(TypeError);
		expect(() => serializeCookie("a", "x", { publicUrl: "https://x.example", maxAgeSeconds: -1 })).toThrow(TypeError);
	});
});

describe("CSRF tokens", () => {
	const session = generateSessionToken().token;

	it("accepts the token of the same session", () => {
		const token = csrfTokenForSession(SECRET, session);
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(verifySessionCsrfToken(SECRET, session, token)).toBe(true);
	});

	it("rejects a token of another session, another secret, or altered", () => {
		const token = csrfTokenForSession(SECRET, session);
		const otherSession = generateSessionToken().token;
		expect(verifySessionCsrfToken(SECRET, otherSession, token)).toBe(false);
		expect(verifySessionCsrfToken("another-secret-0123456789", session, token)).toBe(false);
		expect(verifySessionCsrfToken(SECRET, session, token.slice(0, -1))).toBe(false);
		expect(verifySessionCsrfToken(SECRET, session, `${token}A`)).toBe(false);
		expect(verifySessionCsrfToken(SECRET, session, token.replace(/^./, c => (c === "A" ? "B" : "A")))).toBe(false);
	});

	it("rejects missing and non-string submissions", () => {
		for (const submitted of [undefined, null, "", 123, ["x"], { token: "x" }]) {
			expect(verifySessionCsrfToken(SECRET, session, submitted)).toBe(false);
		}
		expect(verifySessionCsrfToken(SECRET, "", csrfTokenForSession(SECRET, ""))).toBe(false);
	});

	it("protects anonymous forms with a signed double-submit cookie", () => {
		const pair = generateAnonymousCsrfPair(SECRET);
		expect(pair.cookieValue).not.toBe(pair.formToken);
		expect(verifyAnonymousCsrfToken(SECRET, pair.cookieValue, pair.formToken)).toBe(true);
		expect(anonymousFormToken(SECRET, pair.cookieValue)).toBe(pair.formToken);

		const other = generateAnonymousCsrfPair(SECRET);
		expect(verifyAnonymousCsrfToken(SECRET, other.cookieValue, pair.formToken)).toBe(false);
		expect(verifyAnonymousCsrfToken(SECRET, undefined, pair.formToken)).toBe(false);
		expect(verifyAnonymousCsrfToken(SECRET, pair.cookieValue, undefined)).toBe(false);
		// Plain double-submit (cookie echoed as the field) is not enough: the field must be signed.
		expect(verifyAnonymousCsrfToken(SECRET, pair.cookieValue, pair.cookieValue)).toBe(false);
		// A session token and an anonymous token for the same value are not interchangeable.
		expect(verifySessionCsrfToken(SECRET, pair.cookieValue, pair.formToken)).toBe(false);
	});

	it("sets the CSRF cookie HttpOnly and SameSite=Lax", () => {
		const { attrs, pair } = attributes(serializeCsrfCookie("abc", { publicUrl: "https://bots.example.net" }));
		expect(pair).toBe(`${CSRF_COOKIE_NAME}=abc`);
		expect(attrs).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/", "Secure"]));
	});

	it("refuses a secret too short to sign with", () => {
		expect(() => csrfTokenForSession("short", session)).toThrow(TypeError);
	});
});

describe("claim tokens", () => {
	it("generates 256-bit tokens, stores the hash, and builds the link", () => {
		const token = newToken();
		expect(Buffer.from(token, "base64url").length * 8).toBeGreaterThanOrEqual(128);
		expect(looksLikeToken(token)).toBe(true);
		expect(hashToken(token)).toBe(sha256(token));
		expect(newToken()).not.toBe(token);
		expect(claimUrl("https://bots.example.net/", token)).toBe(`https://bots.example.net${CLAIM_PATH_PREFIX}${token}`);
		expect(claimUrl("http://127.0.0.1:8080", token)).toBe(`http://127.0.0.1:8080/claim/${token}`);
	});

	it("recognises only well-formed tokens", () => {
		for (const bad of [undefined, "", "abc", "x".repeat(44), `${"a".repeat(42)}/`]) expect(looksLikeToken(bad)).toBe(false);
	});
});

describe("constantTimeEqual", () => {
	it("compares strings of any length without throwing", () => {
		expect(constantTimeEqual("abc", "abc")).toBe(true);
		expect(constantTimeEqual("abc", "abd")).toBe(false);
		expect(constantTimeEqual("abc", "abcd")).toBe(false);
		expect(constantTimeEqual("", "")).toBe(true);
	});
});
