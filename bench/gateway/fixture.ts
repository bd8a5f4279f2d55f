/**
 * The all-in-one application as the HTTP benchmarks load it: every service in this process (what
 * `npm start` runs), logging at `error`, and the per-client budgets of the measured routes raised
 * (never removed), so every request still consults the limiter but none is refused mid-run.
 */
import { SANDBOX_CHATBOT_LIMITS } from "../../lib/accounts/chatbot-limits";
import type { Chatbot } from "../../lib/chatbots/model";
import type { RatePolicy, RatePolicyName } from "../../lib/http/rate-policies";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import { startApp, TestApp } from "../../test/helpers/app";

import { MCP_VERSION } from "./protocol-version";

export interface GatewayFixture {
	app: TestApp;
	chatbotId: string;
	demoSessionId: string;
}

/** The same policies with budgets no benchmark exhausts. */
export function raisedPolicies(names: RatePolicyName[]): Partial<Record<RatePolicyName, RatePolicy>> {
	return Object.fromEntries(names.map(name => [name, { ...RATE_POLICIES[name], limit: 1_000_000_000 }]));
}

export async function startGatewayFixture(env: Record<string, string> = {}): Promise<GatewayFixture> {
	const app = await startApp({
		env: { LOG_LEVEL: "error", ...env },
		gateway: { ratePolicies: raisedPolicies(["mcp", "demo-api", "chat"]) }
	});
	const chatbot = await app.broker.call<Chatbot, object>("chatbots.create", {
		kind: "sandbox",
		locale: "en",
		name: "bench.example",
		limits: SANDBOX_CHATBOT_LIMITS,
		ttl_ms: 86_400_000
	});
	const created = await fetch(`${app.baseUrl}/api/tools/sessions`, { method: "POST" });
	const session = (await created.json()) as { demo?: { session_id?: string } };
	if (created.status !== 200 || !session.demo?.session_id) throw new Error(`createDemoSession answered ${created.status}`);
	return { app, chatbotId: chatbot._id, demoSessionId: session.demo.session_id };
}

export const jsonRpc = (method: string, params?: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, ...(params ? { params } : {}) });

export const MCP_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": MCP_VERSION };
