/**
 * A stored chatbot document for tests that need one without the chatbots service: a sandbox built
 * from https://example.com/, its crawl under way, at `now`; `overrides` set what the test is about.
 */
import { SANDBOX_CHATBOT_LIMITS } from "../../lib/accounts/chatbot-limits";
import type { Chatbot, CrawlState } from "../../lib/chatbots/model";

export function crawlState(status: CrawlState["status"], fields: Partial<CrawlState> = {}, now = Date.now()): CrawlState {
	return { status, start_url: "https://example.com/", max_pages: 5, then_train: true, found: 0, crawled: 0, failed: 0, updated_at: now, ...fields };
}

export function chatbotDoc(overrides: Partial<Chatbot> = {}, now = Date.now()): Chatbot {
	return {
		_id: "5a1d2c3e-0000-4000-8000-000000000001",
		slug: "abcdefghjkmn",
		kind: "sandbox",
		name: "example.com",
		locale: "en",
		limits: { ...SANDBOX_CHATBOT_LIMITS },
		counts: { urls: 0, files: 0, chars: 0, messages: 0 },
		sources_version: 0,
		trained_version: 0,
		train_target: 0,
		train_pending: false,
		generation: 0,
		training: null,
		training_error: null,
		crawl: crawlState("crawling", { found: 1 }, now),
		account_id: null,
		claim_hash: "0".repeat(64),
		expires_at: now + 8 * 86_400_000,
		created_at: now,
		updated_at: now,
		...overrides
	};
}
