/**
 * The rate-limit policies (SPEC §8.1 plus our own tighter budgets). One table feeds the limiter,
 * the response headers, the API index and the OpenAPI document.
 */
export type RatePolicyName = "demo-api" | "mcp" | "mcp-create-chatbot" | "uploads" | "beacon" | "chat" | "accounts" | "webhooks";

export interface RatePolicy {
	name: RatePolicyName;
	/** What the budget covers, as the API index reports it. */
	scope: string;
	limit: number;
	windowSeconds: number;
}

/**
 * Who a budget belongs to: the client network (`clientNetwork` in client-ip.ts), so an IPv6 client
 * cannot multiply its budgets by rotating addresses inside its /64.
 */
const PER_CLIENT = "per client network (an IPv4 address, or an IPv6 /64)";

export const RATE_POLICIES: Readonly<Record<RatePolicyName, RatePolicy>> = {
	"demo-api": { name: "demo-api", scope: `/api/tools/*, ${PER_CLIENT}`, limit: 30, windowSeconds: 60 },
	// Each tools/call of a batch counts one point: one body may carry 50 of them.
	mcp: { name: "mcp", scope: `POST /mcp, one point per tools/call (at least one per request), ${PER_CLIENT}`, limit: 60, windowSeconds: 60 },
	// create_chatbot starts a live crawl of up to 5 pages and a training run: far costlier than any
	// other tool, so it has its own budget on top of `mcp`.
	"mcp-create-chatbot": {
		name: "mcp-create-chatbot",
		scope: `tools/call create_chatbot on POST /mcp, ${PER_CLIENT}`,
		limit: 5,
		windowSeconds: 600
	},
	// Each PUT may carry 10 MB: 20 per 10 minutes bound one network to 200 MB per 10 minutes,
	// while a demo needs 3 and a person filling a dashboard a few dozen an hour.
	uploads: { name: "uploads", scope: `PUT /uploads/{token}, ${PER_CLIENT}`, limit: 20, windowSeconds: 600 },
	beacon: { name: "beacon", scope: `POST /t/e, ${PER_CLIENT}`, limit: 300, windowSeconds: 60 },
	chat: { name: "chat", scope: `/api/chat/*, ${PER_CLIENT}`, limit: 60, windowSeconds: 60 },
	// Password guessing and sign-up floods: scrypt makes each guess slow, this makes them few.
	accounts: { name: "accounts", scope: `POST /account/signup, /account/login and /claim/{token}, ${PER_CLIENT}`, limit: 20, windowSeconds: 600 },
	// Inbound provider webhooks come from a few provider addresses shared by every bot, so the
	// budget is per webhook path (one bot, one website): a flood on one leaves the others alone.
	webhooks: { name: "webhooks", scope: "POST /webhooks/* (inbound messaging webhooks), per webhook path", limit: 600, windowSeconds: 60 }
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
