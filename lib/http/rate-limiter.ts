/**
 * Counting for the rate-limit policies: in memory for one process (window-counters.ts: no timer
 * per client, expired windows dropped, a cap on the table), or in Redis with rate-limiter-flexible
 * so every gateway replica shares one budget (Redis expires its keys). Both consume atomically,
 * which is what makes "60 simultaneous calls against 30 give exactly 30 refusals" hold.
 */
import type Redis from "ioredis";
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { RateDecision, RatePolicy, RatePolicyName } from "./rate-policies";
import { WindowCounters } from "./window-counters";

/**
 * Client networks remembered per policy in memory. About 100 bytes each, so a flood of distinct
 * addresses holds at most about 10 MB per policy; past it the window that ends soonest is dropped.
 */
export const MAX_CLIENTS_PER_POLICY = 100_000;

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

function decisionFromCount(policy: RatePolicy, consumed: number, msBeforeReset: number): RateDecision {
	return {
		policy,
		allowed: consumed <= policy.limit,
		remaining: Math.max(0, policy.limit - consumed),
		resetSeconds: Math.max(1, Math.ceil(msBeforeReset / 1000))
	};
}

export function createRateLimiter(
	policies: Readonly<Record<RatePolicyName, RatePolicy>>,
	redis?: Redis,
	options: { maxClientsPerPolicy?: number; now?: () => number } = {}
): RateLimiter {
	if (!redis) return createMemoryRateLimiter(policies, options.maxClientsPerPolicy ?? MAX_CLIENTS_PER_POLICY, options.now);
	const limiters = new Map<RatePolicyName, RateLimiterAbstract>();
	for (const policy of Object.values(policies)) {
		const base = { points: policy.limit, duration: policy.windowSeconds, keyPrefix: `rl:${policy.name}` };
		limiters.set(
			policy.name,
			new RateLimiterRedis({
				...base,
				storeClient: redis,
				// A Redis outage must not take the API down: fall back to per-replica counting.
				insuranceLimiter: new RateLimiterMemory(base)
			})
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

function createMemoryRateLimiter(policies: Readonly<Record<RatePolicyName, RatePolicy>>, maxClients: number, now?: () => number): RateLimiter {
	const counters = new Map<RatePolicyName, WindowCounters>();
	for (const policy of Object.values(policies)) counters.set(policy.name, new WindowCounters(policy.windowSeconds * 1000, maxClients, now));
	return {
		async consume(policyName, key, points = 1) {
			const count = (counters.get(policyName) as WindowCounters).add(key, points);
			return decisionFromCount(policies[policyName], count.consumed, count.msBeforeReset);
		}
	};
}
