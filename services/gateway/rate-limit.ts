/**
 * Rate-limit middlewares for the gateway's aliases. Every response on a limited path carries the
 * SPEC §8.1 headers; a refusal becomes a 429 `rate_limited` with Retry-After equal to the reset.
 */
import type { ServerResponse } from "node:http";
import { appError } from "../../lib/errors";
import { bindingDecision, RateDecision, RatePolicyName, rateLimitHeaders } from "../../lib/http/rate-policies";
import type { GatewayDeps, GatewayRequest } from "./context";

export function applyRateDecision(res: ServerResponse, decision: RateDecision): void {
	for (const [name, value] of Object.entries(rateLimitHeaders(decision))) res.setHeader(name, value);
	if (!decision.allowed) {
		throw appError("rate_limited", `Rate limit "${decision.policy.name}" exceeded: ${decision.policy.limit} requests per ${decision.policy.windowSeconds} seconds.`, {
			retryAfter: decision.resetSeconds
		});
	}
}

/** Consumes one or more policies for this request and applies the binding decision. */
export async function enforceRateLimits(deps: GatewayDeps, req: GatewayRequest, res: ServerResponse, charges: Array<{ policy: RatePolicyName; points?: number }>): Promise<void> {
	const decisions = await Promise.all(charges.map(c => deps.limiter.consume(c.policy, req.$clientNetwork, c.points ?? 1)));
	applyRateDecision(res, bindingDecision(decisions));
}

export function rateLimitMiddleware(deps: GatewayDeps, policy: RatePolicyName) {
	return (req: GatewayRequest, res: ServerResponse, next: (err?: unknown) => void) => {
		enforceRateLimits(deps, req, res, [{ policy }]).then(() => next(), next);
	};
}
