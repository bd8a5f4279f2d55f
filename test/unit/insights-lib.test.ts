/**
 * The pure parts of the owner's insight pages: question grouping, the conversation log's records
 * and retention, widget settings validation, and the SVG charts.
 */
import { PLANS } from "../../lib/accounts/plans";
import { conversationsOf, exchangeRetentionDays, ExchangeDoc, needsImprovement, newExchange } from "../../lib/chat/exchanges";
import { groupQuestions, questionKey } from "../../lib/chat/question-groups";
import { dailyBarChart, labelledBarChart, lastDays, niceCeiling, ringChart, valuesByDay } from "../../lib/site/charts";
import { applyWidgetSettings, defaultWidgetSettings, normalizeColor, textColorOn } from "../../lib/widget/settings";

const DAY = 24 * 3600_000;

describe("question groups", () => {
	it("puts questions with the same content words together, whatever their case, punctuation and inflection", () => {
		const key = questionKey("What is your refund policy?", "en");
		expect(questionKey("Your REFUND policy??", "en")).toBe(key);
		expect(questionKey("refund policies", "en")).toBe(key);
		expect(questionKey("How long is the warranty?", "en")).not.toBe(key);
		expect(questionKey("¿Cuál es la política de devolución?", "es")).toBe(questionKey("politica de devoluciones", "es"));
	});

	it("groups by stop-word-only text too, and counts, declines and the newest wording per group", () => {
		const groups = groupQuestions(
			[
				{ id: "1", question: "What is your refund policy?", at: 1, answered: false },
				{ id: "2", question: "hi!", at: 2, answered: true },
				{ id: "3", question: "Refund policy", at: 5, answered: false },
				{ id: "4", question: "HI", at: 3, answered: false },
				{ id: "5", question: "refund policies?", at: 4, answered: true },
				{ id: "6", question: "Do you ship to Mars?", at: 6, answered: false }
			],
			"en"
		);
		expect(groups.map(g => [g.question, g.count, g.declined])).toEqual([
			["Refund policy", 3, 2],
			["HI", 2, 1],
			["Do you ship to Mars?", 1, 1]
		]);
		expect(groups[0].ids.sort()).toEqual(["1", "3", "5"]);
		expect(groups[0].wordings).toEqual(["What is your refund policy?", "Refund policy", "refund policies?"]);
		expect(groups[0].last_at).toBe(5);
	});
});

describe("conversation log records", () => {
	const exchange = (over: Partial<ExchangeDoc>): ExchangeDoc => ({ ...newExchange({ id: "x", chatbotId: "c", kind: "account", conversationId: "k", channel: "widget", question: "q", answer: "a", citations: [], answered: true, now: 1000 }), ...over });

	it("keeps an exchange as long as its plan says", () => {
		expect(exchangeRetentionDays("sandbox")).toBe(8);
		expect(exchangeRetentionDays("sandbox")).toBe(PLANS.sandbox.limits.retentionDays);
		expect(exchangeRetentionDays("account")).toBe(90);
		expect(exchangeRetentionDays("demo")).toBe(1);
		const sandbox = newExchange({ id: "e", chatbotId: "c", kind: "sandbox", conversationId: "k", channel: "link", question: "q", answer: "a".repeat(5000), citations: [], answered: false, now: 0 });
		expect(sandbox.expires_at).toBe(8 * DAY);
		expect(sandbox.answer).toHaveLength(4001);
	});

	it("marks declined and unsupported answers for improvement", () => {
		expect(needsImprovement(exchange({ answered: false }))).toBe(true);
		expect(needsImprovement(exchange({ answered: true, citations: [] }))).toBe(true);
		expect(needsImprovement(exchange({ answered: true, citations: [{ source_id: "s", title: "t" }] }))).toBe(false);
	});

	it("rebuilds conversations, newest first, each in order with its declined count", () => {
		const logs = conversationsOf([
			exchange({ _id: "b2", conversation_id: "b", at: 40, answered: false }),
			exchange({ _id: "a1", conversation_id: "a", at: 10 }),
			exchange({ _id: "b1", conversation_id: "b", at: 30, channel: "telegram" }),
			exchange({ _id: "a2", conversation_id: "a", at: 20, answered: false })
		]);
		expect(logs.map(l => [l.conversation_id, l.exchanges.map(e => e._id), l.declined, l.started_at, l.last_at])).toEqual([
			["b", ["b1", "b2"], 1, 30, 40],
			["a", ["a1", "a2"], 1, 10, 20]
		]);
	});
});

describe("widget settings", () => {
	const defaults = defaultWidgetSettings("en");

	it("applies a valid form, trimming, and keeps absent fields", () => {
		const next = applyWidgetSettings(defaults, { display_name: "  Harbor  ", suggested_questions: "Opening hours?\r\n\n  Prices?  \nOpening hours?", accent_color: "#0A8", position: "left", language: "es" });
		expect(next).toEqual({ display_name: "Harbor", welcome_message: null, suggested_questions: ["Opening hours?", "Prices?"], accent_color: "#00aa88", position: "left", language: "es" });
		expect(applyWidgetSettings(next, { display_name: "" }).display_name).toBeNull();
	});

	it("refuses every bad field at once, naming each, and applies nothing", () => {
		let refusal: { type?: string; data?: { fields: Array<{ field: string }> } } = {};
		try {
			applyWidgetSettings(defaults, { display_name: "x".repeat(81), suggested_questions: "a\nb\nc\nd\ne", accent_color: "red; background:url(x)", position: "top", language: "fr", welcome_message: "ok" });
		} catch (err) {
			refusal = err as typeof refusal;
		}
		expect(refusal.type).toBe("validation_failed");
		expect(refusal.data?.fields.map(f => f.field)).toEqual(["display_name", "suggested_questions", "accent_color", "position", "language"]);
		expect(() => applyWidgetSettings(defaults, { display_name: "two\nlines" })).toThrow("one line");
		expect(() => applyWidgetSettings(defaults, { welcome_message: "bell\u0007" })).toThrow("cannot be shown");
	});

	it("reads colours strictly and picks readable text on them", () => {
		expect(normalizeColor("#ABCDEF")).toBe("#abcdef");
		expect(normalizeColor("#abcd")).toBeNull();
		expect(normalizeColor("#ggg")).toBeNull();
		expect(normalizeColor("blue")).toBeNull();
		expect(textColorOn("#2563eb")).toBe("#ffffff");
		expect(textColorOn("#fde047")).toBe("#111827");
	});
});

describe("charts", () => {
	it("chooses round axis tops", () => {
		expect([0, 1, 3, 7, 12, 99, 101].map(niceCeiling)).toEqual([1, 1, 5, 10, 20, 100, 200]);
	});

	it("draws one bar per day and series with a value, as a described image", () => {
		const days = lastDays(Date.parse("2026-03-10T12:00:00Z"), 7);
		expect(days[0]).toBe("2026-03-04");
		expect(days[6]).toBe("2026-03-10");
		const answered = valuesByDay([{ day: "2026-03-09", n: 4 }], days, r => r.n);
		expect(answered).toEqual([0, 0, 0, 0, 0, 4, 0]);
		const svg = dailyBarChart({ label: "Messages <per> day", days, series: [{ label: "answered", color: "#00f", values: answered }, { label: "declined", color: "#f80", values: [0, 1, 0, 0, 0, 2, 0] }] });
		expect(svg).toMatch(/^<svg class="chart" viewBox="0 0 640 220" role="img" aria-label="Messages &lt;per&gt; day"/);
		expect(svg.match(/<rect /g)).toHaveLength(3);
		expect(svg).toContain('data-day="2026-03-09" data-series="declined" data-value="2"');
	});

	it("splits the ring by share and escapes question labels", () => {
		const ring = ringChart({ label: "Answered vs declined", centre: "75%", series: [{ label: "answered", color: "#00f", value: 3 }, { label: "declined", color: "#f80", value: 1 }] });
		expect(ring.match(/stroke-dasharray/g)).toHaveLength(2);
		const bars = labelledBarChart({ label: "Top", color: "#00f", rows: [{ label: "<script>alert(1)</script>", value: 3 }, { label: "b", value: 1 }] });
		expect(bars).not.toContain("<script>");
		expect(bars).toContain("&lt;script&gt;");
	});
});
