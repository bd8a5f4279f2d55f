/**
 * The dashboard's pure pieces: the status words, the dashboard view and when a page follows work
 * live, the source rows, the crawl's kept failures, and the shell's tabs and escaping.
 */
import { crawlProgressed } from "../../lib/chatbots/lifecycle";
import { type Chatbot, MAX_KEPT_CRAWL_FAILURES, type Source } from "../../lib/chatbots/model";
import { chatbotState } from "../../lib/chatbots/status";
import { crawlPageFailureWords } from "../../lib/failures";
import { DASHBOARD_TABS, dashboardPage, dashboardPath, statusLabel } from "../../lib/site/dashboard/shell";
import { sourceRow, sourceRows } from "../../lib/site/dashboard/sources-page";
import { dashboardView, underway } from "../../lib/site/dashboard/view";

const NOW = Date.UTC(2026, 10, 23, 12);

function chatbot(over: Partial<Chatbot> = {}): Chatbot {
	return {
		_id: "cb-1",
		slug: "slug1",
		kind: "account",
		name: "Harbor <help>",
		locale: "en",
		limits: { max_urls: 50, max_files: 20, max_chars: 400_000, max_messages: 100, max_pages: 50 },
		counts: { urls: 1, files: 0, chars: 120, messages: 7 },
		sources_version: 1,
		trained_version: 1,
		train_target: 1,
		train_pending: false,
		generation: 1,
		training: null,
		training_error: null,
		crawl: { status: "idle", start_url: null, max_pages: 0, then_train: false, found: 0, crawled: 0, failed: 0, updated_at: NOW },
		account_id: "acc-1",
		claim_hash: null,
		message_period: { anchor: "calendar", start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 11, 1) },
		expires_at: null,
		created_at: NOW,
		updated_at: NOW,
		...over
	};
}

function source(over: Partial<Source>): Source {
	return {
		_id: "s",
		chatbot_id: "cb-1",
		kind: "text",
		status: "ready",
		url: null,
		domain: null,
		title: null,
		file_name: null,
		storage_key: null,
		content_type: null,
		question: null,
		answer: null,
		text: null,
		char_count: 10,
		failure: null,
		created_at: NOW,
		updated_at: NOW,
		...over
	};
}

describe("status words", () => {
	it("say what the chatbot is doing, and that it still answers while retraining", () => {
		expect(statusLabel(chatbotState(chatbot()))).toBe("Ready");
		expect(statusLabel(chatbotState(chatbot({ sources_version: 2 })))).toBe("Ready · needs retraining");
		expect(statusLabel(chatbotState(chatbot({ training: { job_id: "j", generation: 2, sources_version: 1, started_at: NOW } })))).toBe("Retraining (still answering)");
		expect(statusLabel(chatbotState(chatbot({ generation: 0, training: { job_id: "j", generation: 1, sources_version: 1, started_at: NOW } })))).toBe("Training");
		expect(statusLabel(chatbotState(chatbot({ generation: 0, crawl: { ...chatbot().crawl, status: "crawling", start_url: "https://a.example/" } })))).toBe("Reading the website");
		expect(statusLabel(chatbotState(chatbot({ generation: 0, counts: { urls: 0, files: 0, chars: 0, messages: 0 } })))).toBe("Not trained yet");
	});
});

describe("dashboard view", () => {
	it("tallies sources by kind and status and counts messages of the current period only", () => {
		const view = dashboardView(
			chatbot(),
			[source({ kind: "url", url: "https://a.example/" }), source({ kind: "file", status: "processing", char_count: null }), source({ kind: "qa" }), source({ kind: "file", status: "failed" })],
			"https://bots.example",
			NOW
		);
		expect(view.sources).toEqual({
			url: { total: 1, ready: 1, in_progress: 0, failed: 0 },
			file: { total: 2, ready: 0, in_progress: 1, failed: 1 },
			text: { total: 0, ready: 0, in_progress: 0, failed: 0 },
			qa: { total: 1, ready: 1, in_progress: 0, failed: 0 }
		});
		expect(view.usage).toMatchObject({ messages_used: 7, messages_limit: 100, period_end: "2026-12-01T00:00:00.000Z" });
		expect(view.chat_url).toBe("https://bots.example/c/slug1");
		expect(underway(view)).toBe(true); // a file is being read
		expect(dashboardView(chatbot(), [], "https://bots.example", Date.UTC(2026, 11, 2)).usage.messages_used).toBe(0);
		expect(underway(dashboardView(chatbot(), [], "https://bots.example", NOW))).toBe(false);
	});
});

describe("source rows", () => {
	it("label each kind the way its owner knows it, and keep the failure in words", () => {
		expect(sourceRow(source({ kind: "url", url: "https://a.example/p", title: "P" })).label).toBe("https://a.example/p");
		expect(sourceRow(source({ kind: "file", file_name: "guide.pdf" })).label).toBe("guide.pdf");
		expect(sourceRow(source({ kind: "qa", question: "Dogs?" })).label).toBe("Dogs?");
		const long = sourceRow(source({ kind: "text", text: `${"word ".repeat(40)}\n\nend` })).label;
		expect(long.length).toBeLessThanOrEqual(90);
		expect(long.endsWith("…")).toBe(true);
		const failed = sourceRow(source({ kind: "file", status: "failed", failure: { code: "empty", message: "No readable text was found in x.pdf." } }));
		expect(failed.failure?.message).toBe("No readable text was found in x.pdf.");
		const order = sourceRows([source({ _id: "q", kind: "qa" }), source({ _id: "u", kind: "url", url: "https://a.example/" }), source({ _id: "f", kind: "file" })]).map(r => r.id);
		expect(order).toEqual(["u", "f", "q"]);
	});
});

describe("crawl failures", () => {
	it("are kept with their reason up to a limit, while the count covers them all", () => {
		const first = crawlProgressed("cb-1", { found: 3, crawled: 1, failed: 1 }, NOW, { url: "https://a.example/x", reason: crawlPageFailureWords("http_status") });
		expect(first.update.$push).toEqual({ "crawl.failures": { url: "https://a.example/x", reason: "The site answered with an error for it." } });
		const past = crawlProgressed("cb-1", { found: 99, crawled: 1, failed: MAX_KEPT_CRAWL_FAILURES + 1 }, NOW, { url: "https://a.example/y", reason: "x" });
		expect(past.update.$push).toBeUndefined();
		expect((past.update.$set as Record<string, unknown>)["crawl.failed"]).toBe(MAX_KEPT_CRAWL_FAILURES + 1);
		expect(crawlPageFailureWords(undefined)).toBe("It could not be read.");
		expect(crawlPageFailureWords("robots_disallowed")).toContain("robots.txt");
	});
});

describe("shell", () => {
	it("links every tab, marks the current one, and escapes the chatbot's name", () => {
		const html = dashboardPage({ baseUrl: "https://bots.example", chatbot: chatbot(), active: "sources", title: "Sources", body: "<p>body</p>" });
		for (const tab of DASHBOARD_TABS) expect(html).toContain(`href="https://bots.example${dashboardPath("cb-1", tab)}"`);
		expect(html).toContain('href="https://bots.example/account/chatbots/cb-1/sources" data-tab="sources" aria-current="page"');
		expect(html.match(/aria-current="page"/g)?.length).toBe(1); // only the current tab
		expect(html).toContain("Harbor &lt;help&gt;");
		expect(html).not.toContain("Harbor <help>");
		expect(html).toContain('<nav class="tabs" aria-label="Chatbot sections">');
		expect(dashboardPath("a/b", "deploy")).toBe("/account/chatbots/a%2Fb/deploy");
	});
});
