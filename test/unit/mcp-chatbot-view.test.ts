/**
 * Stored chatbots as tool results: the folded progress status an agent polls, and results that
 * always pass the tools' outputSchemas.
 */
import { SANDBOX_CHATBOT_LIMITS, chatbotLimitsFromPlan } from "../../lib/accounts/chatbot-limits";
import { PLANS } from "../../lib/accounts/plans";
import { looksLikeToken, sandboxClaimToken } from "../../lib/accounts/tokens";
import type { Chatbot, CrawlState, Source } from "../../lib/chatbots/model";
import { chatbotDoc, crawlState } from "../helpers/chatbot-doc";
import { chatbotProgress, chatbotResult, chatbotSummary, knowledgeSource } from "../../lib/mcp/chatbot-view";
import { validateToolOutput } from "../../lib/mcp/tool-validation";

const NOW = Date.UTC(2026, 0, 10, 12, 0, 0);

const crawl = (status: CrawlState["status"], fields: Partial<CrawlState> = {}) => crawlState(status, fields, NOW);

const RUN = { job_id: "job-1", generation: 2, sources_version: 3, started_at: NOW };
const withText = { counts: { urls: 3, files: 0, chars: 900, messages: 0 }, sources_version: 3 };

const chatbot = (overrides: Partial<Chatbot> = {}) => chatbotDoc(overrides, NOW);

describe("chatbotProgress", () => {
	it.each<[string, string, Partial<Chatbot>]>([
		["a crawl in progress", "crawling", {}],
		["a crawl queued but not started", "crawling", { crawl: crawl("queued") }],
		["a finished crawl with text, training asked for but not started yet", "training", { crawl: crawl("done", { found: 3, crawled: 3 }), ...withText, train_target: 3, train_pending: true }],
		["a training run", "training", { crawl: crawl("done", { found: 3, crawled: 3 }), ...withText, training: RUN }],
		["a trained chatbot", "ready", { crawl: crawl("done", { found: 3, crawled: 3 }), ...withText, generation: 1, trained_version: 3 }],
		["a trained chatbot retraining", "training", { crawl: crawl("done", { found: 3, crawled: 3 }), ...withText, generation: 1, training: RUN }]
	])("%s → %s", (_what, expected, overrides) => {
		expect(chatbotProgress(chatbot(overrides)).status).toBe(expected);
	});

	it("fails with a reason when the crawl failed or found no text", () => {
		const failedCrawl = chatbotProgress(chatbot({ crawl: crawl("failed", { found: 1, failed: 1 }) }));
		expect(failedCrawl.status).toBe("failed");
		expect(failedCrawl.failure_reason).toMatch(/could not be crawled.*add_knowledge_text/);
		const noText = chatbotProgress(chatbot({ crawl: crawl("done", { found: 2, crawled: 2 }) }));
		expect(noText.status).toBe("failed");
		expect(noText.failure_reason).toMatch(/No readable text/);
	});

	it("a training run that failed for good is reported with its error, not as training forever", () => {
		const gaveUp = chatbotProgress(chatbot({ crawl: crawl("done", { found: 3, crawled: 3 }), ...withText, train_target: 3, training_error: "The run was given up." }));
		expect(gaveUp.status).toBe("failed");
		expect(gaveUp.failure_reason).toMatch(/Training did not finish: The run was given up/);
	});

	it("a chatbot with text nobody asked to train yet says what to do", () => {
		const untrained = chatbotProgress(chatbot({ kind: "account", account_id: "acct", crawl: crawl("idle", { start_url: null }), ...withText }));
		expect(untrained.status).toBe("failed");
		expect(untrained.failure_reason).toMatch(/not been trained yet/);
	});

	it("a chatbot that was trained keeps answering (ready) even when its crawl later failed", () => {
		expect(chatbotProgress(chatbot({ generation: 1, crawl: crawl("failed", { start_url: null }) })).status).toBe("ready");
	});
});

describe("chatbotResult", () => {
	const publicUrl = "https://chat.example";

	it("a sandbox carries its claim link and expiry, and passes the outputSchema", () => {
		const result = chatbotResult(chatbot(), { publicUrl, claimUrl: `${publicUrl}/claim/token` });
		expect(result).toMatchObject({
			chat_url: `${publicUrl}/c/abcdefghjkmn`,
			embed_snippet: `<script src="${publicUrl}/widget.js" data-chatbot="abcdefghjkmn" async></script>`,
			claim_url: `${publicUrl}/claim/token`,
			sandbox: true,
			expires_at: "2026-01-18T12:00:00.000Z",
			limits: { pages: 5, messages: 10, chars: 50_000 },
			ready: false
		});
		expect(validateToolOutput("get_chatbot", JSON.parse(JSON.stringify(result))).ok).toBe(true);
	});

	it("an account chatbot has neither, and its summary passes list_chatbots' schema", () => {
		const owned = chatbot({ kind: "account", account_id: "acct", claim_hash: null, expires_at: null, generation: 1, limits: chatbotLimitsFromPlan(PLANS.free.limits) });
		const result = chatbotResult(owned, { publicUrl, claimUrl: "ignored for accounts" });
		expect(result).not.toHaveProperty("claim_url");
		expect(result).not.toHaveProperty("expires_at");
		expect(result.limits).toEqual({ pages: 50, messages: 100, chars: 400_000 });
		const list = { count: 1, chatbots: [chatbotSummary(owned, publicUrl)], plan: { id: "free", name: "Free", limits: { chatbots: 3, pages: 50, messages: 100, chars: 400_000 } } };
		expect(validateToolOutput("list_chatbots", list).ok).toBe(true);
	});

	it("a new Q&A source is titled by its question; source statuses are the stored ones", () => {
		const source: Source = {
			_id: "s1",
			chatbot_id: "c1",
			kind: "qa",
			status: "ready",
			url: null,
			domain: null,
			title: null,
			file_name: null,
			storage_key: null,
			content_type: null,
			question: "Open on Sundays?",
			answer: "No.",
			text: null,
			char_count: 20,
			failure: null,
			created_at: NOW,
			updated_at: NOW
		};
		expect(knowledgeSource(source)).toEqual({ source_id: "s1", type: "qa", status: "ready", chars: 20, title: "Open on Sundays?" });
		expect(knowledgeSource({ ...source, kind: "url", status: "pending", url: "https://example.com/a", char_count: null, question: null })).toEqual({
			source_id: "s1",
			type: "url",
			status: "pending",
			chars: 0,
			url: "https://example.com/a"
		});
	});
});

describe("sandbox limits and claim tokens", () => {
	it("sandboxes get SPEC §8.3 limits and no files; page and URL budgets are one", () => {
		expect(SANDBOX_CHATBOT_LIMITS).toEqual({ max_pages: 5, max_urls: 5, max_files: 0, max_chars: 50_000, max_messages: 10 });
	});

	it("claim tokens are derived per chatbot, shaped like claim tokens, and depend on the secret", () => {
		const secret = "s".repeat(32);
		const a = sandboxClaimToken(secret, "chatbot-a");
		expect(looksLikeToken(a)).toBe(true);
		expect(sandboxClaimToken(secret, "chatbot-a")).toBe(a);
		expect(sandboxClaimToken(secret, "chatbot-b")).not.toBe(a);
		expect(sandboxClaimToken("t".repeat(32), "chatbot-a")).not.toBe(a);
		expect(() => sandboxClaimToken("short", "chatbot-a")).toThrow();
	});
});
