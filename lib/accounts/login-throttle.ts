/**
 * Per-account log-in throttling: wrong passwords for one account are refused after a budget, from
 * whatever addresses they come.
 *
 * The gateway's `accounts` policy limits each client address (20 posts per 10 minutes); an attacker
 * with many addresses multiplies that. This budget belongs to the account instead: 20 log-in attempts
 * per hour per email address, and a correct password clears the count (NIST SP 800-63B §5.2.2 asks
 * for at most 100 consecutive failures per account). When it is spent, every attempt for the account
 * is refused before the password is checked, the owner's correct one too, until the window ends: the
 * price of a lockout that does not depend on the address. Counting per email address, known or not,
 * answers the same for every address, so the throttle tells nobody which accounts exist.
 *
 * An attempt is counted before the password is checked, atomically, so a burst of simultaneous
 * guesses cannot all slip in before the first failure is recorded. Counters live in Redis when
 * configured (shared by every accounts replica), in memory otherwise; a Redis outage falls back to
 * per-replica counting rather than refusing every log-in.
 */
import type Redis from "ioredis";
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { hashToken } from "./tokens";

export interface LoginThrottlePolicy {
	/** Attempts per account in one window (a correct password resets the count). */
	attempts: number;
	windowSeconds: number;
}

export const ACCOUNT_LOGIN_POLICY: Readonly<LoginThrottlePolicy> = Object.freeze({ attempts: 20, windowSeconds: 60 * 60 });

export type LoginAttempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface LoginThrottle {
	/** Counts one attempt for the (normalised) email address. */
	attempt(email: string): Promise<LoginAttempt>;
	/** The password was right: the account's count starts again. */
	succeeded(email: string): Promise<void>;
}

export function createLoginThrottle(policy: Readonly<LoginThrottlePolicy> = ACCOUNT_LOGIN_POLICY, redis?: Redis): LoginThrottle {
	const base = { points: policy.attempts, duration: policy.windowSeconds, keyPrefix: "login-account" };
	const limiter: RateLimiterAbstract = redis
		? new RateLimiterRedis({ ...base, storeClient: redis, insuranceLimiter: new RateLimiterMemory(base) })
		: new RateLimiterMemory(base);
	// Counters are keyed by a digest, so Redis never holds the addresses themselves.
	const keyOf = (email: string) => hashToken(email);

	return {
		async attempt(email) {
			try {
				await limiter.consume(keyOf(email));
				return { allowed: true };
			} catch (rejection) {
				if (!(rejection instanceof RateLimiterRes)) throw rejection;
				return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
			}
		},
		async succeeded(email) {
			await limiter.delete(keyOf(email));
		}
	};
}
