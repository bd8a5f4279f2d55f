/**
 * The tools of the tool server, run for one caller: an anonymous agent (sandboxes only) or an API
 * key's account (its own chatbots only). The dispatcher (lib/mcp/server.ts) has already validated
 * the arguments against each tool's inputSchema and applied defaults.
 *
 * Business failures (a cap, an unreadable page, a chatbot out of reach) come back as
 * `toolFailure(...)` so the agent's model reads what to change; only faults of ours throw.
 *
 * What follows an add (training once the new knowledge is in, after a crawl still running) is the
 * chatbots service's decision: the tools only say that the agent wants it trained (`train: true`),
 * so `get_chatbot` shows `training` after an add, and `ready` once the new knowledge is answered from.
 */
import { chatbotLimitsFromPlan, SANDBOX_CHATBOT_LIMITS, SANDBOX_TTL_MS } from "../../lib/accounts/chatbot-limits";
import { claimUrl, hashToken, sandboxClaimToken } from "../../lib/accounts/tokens";
import type { RecentMap } from "../../lib/cache/recent-map";
import { isPlanId, PLANS, PlanId } from "../../lib/accounts/plans";
import { newId } from "../../lib/chatbots/ids";
import type { ChatbotRead } from "../../lib/chatbots/changes";
import type { Chatbot, Source } from "../../lib/chatbots/model";
import { ERROR_CODES, isErrorCode } from "../../lib/errors";
import { chatbotResult, chatbotSummary, knowledgeSource } from "../../lib/mcp/chatbot-view";
import { toolFailure, ToolOutcome, toolSuccess } from "../../lib/mcp/server";
import type { ChatbotListResult, ChatbotResult } from "../../lib/mcp/tool-results";
import type { ToolName } from "../../lib/mcp/tools";

/** Who is calling: decides which chatbots a tool may reach and which limits a new one gets. */
export type McpCaller = { kind: "anonymous" } | { kind: "account"; account_id: string; plan: PlanId };

export interface ToolRunnerDeps {
	publicUrl: string;
	/** How long adding a page may take (a browser render plus redirects, and the bus). */
	pageTimeoutMs: number;
	/** Signs sandbox claim tokens. */
	secret: string;
	/** Claim links by chatbot id: an HMAC each, and a polling agent is shown the same one every time. */
	claimLinks: RecentMap<string, string>;
}

/** What calls other services' actions for the request (its Moleculer context). */
export interface ActionCaller {
	call<T>(action: string, params: object, opts?: { timeout?: number }): Promise<T>;
}

const notFound = () =>
	toolFailure(
		"not_found",
		"No chatbot you can reach has this chatbot_id.",
		"Check the id returned by create_chatbot. Anonymous calls reach only unclaimed sandboxes; a claimed chatbot needs its account's API key."
	);

/** Codes whose failures are the caller's business (4xx) and worth showing to the agent as they are. */
function businessFailure(err: unknown): ToolOutcome | undefined {
	const e = err as { type?: unknown; message?: unknown; data?: { hint?: unknown } } | null;
	const type = e?.type;
	if (type === "expired" || type === "not_found") return notFound();
	if (isErrorCode(type) && ERROR_CODES[type].status < 500) {
		const hint = typeof e?.data?.hint === "string" ? e.data.hint : undefined;
		return toolFailure(type, typeof e?.message === "string" ? e.message : type, hint ?? toolHint(type));
	}
	if (type === "SERVICE_NOT_FOUND" || type === "SERVICE_NOT_AVAILABLE" || type === "unavailable" || type === "REQUEST_TIMEOUT" || type === "timeout") {
		return toolFailure("unavailable", "A back-end service did not answer.", "Retry in a minute.");
	}
	return undefined;
}

/** Hints written for an agent (the HTTP hints speak of demo sessions). */
function toolHint(code: string): string | undefined {
	switch (code) {
		case "url_cap":
			return "The chatbot's page budget is used up; add the content as text with add_knowledge_text instead.";
		case "char_cap":
			return "Send a shorter text, or fewer pages.";
		case "empty":
			return "Try another page, or add the content as text with add_knowledge_text.";
		case "forbidden":
			return "Use a public http(s) address.";
		default:
			return undefined;
	}
}

/**
 * Runs the tools for one caller (one request). A class rather than a function returning closures:
 * it is built per request, and its methods live on the prototype instead of being made anew each time.
 */
export class ToolRunner {
	/** The chatbot the last `get_chatbot` showed, as it was read (see McpReply.read). */
	lastRead: ChatbotRead | undefined;

	constructor(
		private readonly deps: ToolRunnerDeps,
		private readonly actions: ActionCaller,
		private readonly caller: McpCaller
	) {}

	/** Runs one tool; business failures become results, faults of ours are rethrown (→ -32603). */
	async run(name: ToolName, args: Record<string, unknown>): Promise<ToolOutcome> {
		try {
			return await this.dispatch(name, args);
		} catch (err) {
			const failure = businessFailure(err);
			if (failure) return failure;
			throw err;
		}
	}

	private async dispatch(name: ToolName, args: Record<string, unknown>): Promise<ToolOutcome> {
		const id = String(args.chatbot_id ?? "");
		switch (name) {
			case "create_chatbot":
				return this.createChatbot({ website_url: String(args.website_url), language: args.language === "es" ? "es" : "en" });
			case "get_chatbot": {
				const chatbot = await this.load(id);
				this.lastRead = { chatbot_id: chatbot._id, until: chatbot.expires_at };
				return toolSuccess(this.view(chatbot));
			}
			case "add_knowledge_url":
				return this.addKnowledge(id, { kind: "url", url: String(args.url) });
			case "add_knowledge_text": {
				const text = String(args.text);
				if (text.trim() === "") return toolFailure("empty", "The text is only whitespace.", "Send the text to learn from.");
				return this.addKnowledge(id, { kind: "text", text, title: typeof args.title === "string" ? args.title : null });
			}
			case "add_qa": {
				const question = String(args.question).trim();
				const answer = String(args.answer).trim();
				if (question === "" || answer === "") return toolFailure("empty", "The question and the answer must both have text.", "Send both.");
				// The text is what training indexes and what the character budget counts.
				return this.addKnowledge(id, { kind: "qa", question, answer, title: question, text: `${question}\n${answer}` });
			}
			case "list_chatbots":
				return this.listChatbots();
		}
	}

	private claimLink(chatbot: Chatbot): string | undefined {
		if (chatbot.kind !== "sandbox" || chatbot.claim_hash === null) return undefined;
		let link = this.deps.claimLinks.get(chatbot._id);
		if (link === undefined) {
			link = claimUrl(this.deps.publicUrl, sandboxClaimToken(this.deps.secret, chatbot._id));
			this.deps.claimLinks.set(chatbot._id, link);
		}
		return link;
	}

	private view(chatbot: Chatbot): ChatbotResult {
		return chatbotResult(chatbot, { publicUrl: this.deps.publicUrl, claimUrl: this.claimLink(chatbot) });
	}

	/** Whose chatbots the caller may reach: an account's own, or (anonymous) unclaimed sandboxes. */
	private owner(): { account_id: string | null } {
		return { account_id: this.caller.kind === "account" ? this.caller.account_id : null };
	}

	private async load(id: string): Promise<Chatbot> {
		return (await this.actions.call<{ chatbot: Chatbot }>("chatbots.get", { id, with_sources: false, owner: this.owner() })).chatbot;
	}

	private async addKnowledge(id: string, source: Record<string, unknown>): Promise<ToolOutcome> {
		const owner = this.owner();
		const added =
			source.kind === "url"
				? await this.actions.call<Source>("chatbots.addPage", { id, url: source.url, train: true, owner }, { timeout: this.deps.pageTimeoutMs })
				: await this.actions.call<Source>("chatbots.addSource", { id, status: "ready", ...source, train: true, owner });
		return toolSuccess({ source: knowledgeSource(added), chatbot: this.view(await this.load(id)) });
	}

	private async createChatbot(args: { website_url: string; language: "en" | "es" }): Promise<ToolOutcome> {
		const url = new URL(args.website_url);
		const crawl = { url: url.href, then_train: true };
		const caller = this.caller;
		if (caller.kind === "account") {
			const plan = PLANS[caller.plan];
			try {
				const created = await this.actions.call<Chatbot>("chatbots.create", {
					kind: "account",
					locale: args.language,
					name: url.hostname,
					limits: chatbotLimitsFromPlan(plan.limits),
					account_id: caller.account_id,
					max_chatbots: plan.limits.chatbots,
					crawl
				});
				return toolSuccess(this.view(created));
			} catch (err) {
				if ((err as { type?: unknown }).type !== "forbidden") throw err;
				return toolFailure(
					"chatbot_cap",
					`The ${plan.name} plan allows ${plan.limits.chatbots} chatbots and the account has them all.`,
					"Reuse an existing chatbot (list_chatbots) instead of creating another."
				);
			}
		}
		// The claim token is derived from the chatbot's id, so the id is chosen here and stored with its hash in one write.
		const id = newId();
		const created = await this.actions.call<Chatbot>("chatbots.create", {
			id,
			kind: "sandbox",
			locale: args.language,
			name: url.hostname,
			limits: SANDBOX_CHATBOT_LIMITS,
			ttl_ms: SANDBOX_TTL_MS,
			claim_hash: hashToken(sandboxClaimToken(this.deps.secret, id)),
			crawl
		});
		return toolSuccess(this.view(created));
	}

	private async listChatbots(): Promise<ToolOutcome> {
		const caller = this.caller;
		if (caller.kind !== "account") return toolFailure("unauthorized", "list_chatbots needs an API key.");
		const chatbots = await this.actions.call<Chatbot[]>("chatbots.listByAccount", { account_id: caller.account_id });
		const plan = PLANS[caller.plan];
		const result: ChatbotListResult = {
			count: chatbots.length,
			chatbots: chatbots.map(chatbot => chatbotSummary(chatbot, this.deps.publicUrl)),
			plan: {
				id: plan.id,
				name: plan.name,
				limits: { chatbots: plan.limits.chatbots, pages: plan.limits.pages, messages: plan.limits.messages, chars: plan.limits.chars }
			}
		};
		return toolSuccess(result);
	}
}

/** The caller from what the gateway learned of the API key. */
export function callerFrom(account: { account_id: string; plan: string } | null | undefined): McpCaller {
	if (!account) return { kind: "anonymous" };
	return { kind: "account", account_id: account.account_id, plan: isPlanId(account.plan) ? account.plan : "free" };
}
