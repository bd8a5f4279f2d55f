/**
 * Counting for the rate-limit policies, on rate-limiter-flexible: in memory for one process, or in
 * Redis so every gateway replica shares one budget. Both consume atomically, which is what makes
 * "60 simultaneous calls against 30 give exactly 30 refusals" hold.
 */
import type Redis from "ioredis";
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { RateDecision, RatePolicy, RatePolicyName } from "./rate-policies";

export interface RateLimiter {
	consume(policyName: RatePolicyName, key: string, points?: number): Promise<RateDecision>;
}

function decisionFrom(policy: RatePolicy, res: RateLimiterRes, allowed: boolean): RateDecision {
	return {
		policy,
		allowed,
		remaining: Math.max(0, res.remainingPoints),
		resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000))
	};
}

export function createRateLimiter(policies: Readonly<Record<RatePolicyName, RatePolicy>>, redis?: Redis): RateLimiter {
	const limiters = new Map<RatePolicyName, RateLimiterAbstract>();
	for (const policy of Object.values(policies)) {
		const base = { points: policy.limit, duration: policy.windowSeconds, keyPrefix: `rl:${policy.name}` };
		limiters.set(
			policy.name,
			redis
				? new RateLimiterRedis({
						...base,
						storeClient: redis,
						// A Redis outage must not take the API down: fall back to per-replica counting.
						insuranceLimiter: new RateLimiterMemory(base)
					})
				: new RateLimiterMemory(base)
		);
	}

	return {
		async consume(policyName, key, points = 1) {
			const policy = policies[policyName];
			const limiter = limiters.get(policyName) as RateLimiterAbstract;
			try {
				return decisionFrom(policy, await limiter.consume(key, points), true);
			} catch (rejection) {
				if (rejection instanceof RateLimiterRes) return decisionFrom(policy, rejection, false);
				throw rejection;
			}
		}
	};
}
