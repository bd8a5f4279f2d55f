/**
 * Rate-limit middlewares for the gateway's aliases. Every response on a limited path carries the
 * SPEC §8.1 headers; a refusal becomes a 429 `rate_limited` with Retry-After equal to the reset.
 */
import type { ServerResponse } from "node:http";
import { appError } from "../../lib/errors";
import { bindingDecision, RateDecision, RatePolicyName, rateLimitHeaders } from "../../lib/http/rate-policies";
import type { GatewayDeps, GatewayRequest } from "./context";

export function applyRateDecision(res: ServerResponse, decision: RateDecision): void {
	const headers = rateLimitHeaders(decision);
	for (const name in headers) res.setHeader(name, headers[name]);
	if (!decision.allowed) {
		throw appError("rate_limited", `Rate limit "${decision.policy.name}" exceeded: ${decision.policy.limit} requests per ${decision.policy.windowSeconds} seconds.`, {
			retryAfter: decision.resetSeconds
		});
	}
}

/** Consumes one or more policies for this request and applies the binding decision. */
export async function enforceRateLimits(deps: GatewayDeps, req: GatewayRequest, res: ServerResponse, charges: Array<{ policy: RatePolicyName; points?: number }>): Promise<void> {
	// Most requests are charged to one policy: its decision binds.
	const decision =
		charges.length === 1 ? await consumeCharge(deps, req, charges[0]) : bindingDecision(await Promise.all(charges.map(c => consumeCharge(deps, req, c))));
	applyRateDecision(res, decision);
}

function consumeCharge(deps: GatewayDeps, req: GatewayRequest, charge: { policy: RatePolicyName; points?: number }): Promise<RateDecision> {
	return deps.limiter.consume(charge.policy, req.$clientNetwork, charge.points ?? 1);
}

export function rateLimitMiddleware(deps: GatewayDeps, policy: RatePolicyName) {
	return (req: GatewayRequest, res: ServerResponse, next: (err?: unknown) => void) => {
		enforceRateLimits(deps, req, res, [{ policy }]).then(() => next(), next);
	};
}
