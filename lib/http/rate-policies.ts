/**
 * The rate-limit policies (SPEC §8.1 plus our own tighter budgets). One table feeds the limiter,
 * the response headers, the API index and the OpenAPI document.
 */
export type RatePolicyName = "demo-api" | "mcp" | "mcp-create-chatbot" | "beacon" | "chat" | "accounts";

export interface RatePolicy {
	name: RatePolicyName;
	/** What the budget covers, as the API index reports it. */
	scope: string;
	limit: number;
	windowSeconds: number;
}

export const RATE_POLICIES: Readonly<Record<RatePolicyName, RatePolicy>> = {
	"demo-api": { name: "demo-api", scope: "/api/tools/*, per client IP", limit: 30, windowSeconds: 60 },
	mcp: { name: "mcp", scope: "POST /mcp, per client IP", limit: 60, windowSeconds: 60 },
	// create_chatbot starts a live crawl of up to 5 pages and a training run: far costlier than any
	// other tool, so it has its own budget on top of `mcp`.
	"mcp-create-chatbot": {
		name: "mcp-create-chatbot",
		scope: "tools/call create_chatbot on POST /mcp, per client IP",
		limit: 5,
		windowSeconds: 600
	},
	beacon: { name: "beacon", scope: "POST /t/e, per client IP", limit: 300, windowSeconds: 60 },
	chat: { name: "chat", scope: "/api/chat/*, per client IP", limit: 60, windowSeconds: 60 },
	// Password guessing and sign-up floods: scrypt makes each guess slow, this makes them few.
	accounts: { name: "accounts", scope: "POST /account/signup, /account/login and /claim/{token}, per client IP", limit: 20, windowSeconds: 600 }
};

export const RATE_LIMIT_HEADERS = [
	"RateLimit-Limit",
	"RateLimit-Remaining",
	"RateLimit-Reset",
	"RateLimit",
	"RateLimit-Policy",
	"Retry-After"
] as const;

export interface RateDecision {
	policy: RatePolicy;
	allowed: boolean;
	remaining: number;
	/** Whole seconds until the window rolls over (a delta, never a timestamp). */
	resetSeconds: number;
}

/** The headers every response on a rate-limited path carries (SPEC §8.1). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
	const { policy, remaining, resetSeconds } = decision;
	const headers: Record<string, string> = {
		"RateLimit-Limit": String(policy.limit),
		"RateLimit-Remaining": String(remaining),
		"RateLimit-Reset": String(resetSeconds),
		RateLimit: `limit=${policy.limit}, remaining=${remaining}, reset=${resetSeconds}`,
		"RateLimit-Policy": `"${policy.name}"; q=${policy.limit}; w=${policy.windowSeconds}`
	};
	if (!decision.allowed) headers["Retry-After"] = String(resetSeconds);
	return headers;
}

/** Of several decisions for one request, the one a client must heed: a refusal, else the scarcest. */
export function bindingDecision(decisions: RateDecision[]): RateDecision {
	const refused = decisions.find(d => !d.allowed);
	if (refused) return refused;
	return decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}
