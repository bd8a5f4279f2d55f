/**
 * The answer benchmark's questions against the pages they are asked over (bench/answers): a change
 * to the documentation that takes a fact away from its page fails here, rather than silently
 * counting the benchmark's correct answers as wrong.
 */
import { QUESTIONS } from "../../bench/answers/dev-set";
import { holdsFact } from "../../bench/answers/evaluate";
import { staleFacts } from "../../bench/answers/stale-facts";

it("every in-scope question's facts are held by a page it cites", () => {
	expect(QUESTIONS.filter(q => !q.oos).length).toBeGreaterThan(150);
	expect(staleFacts()).toEqual([]);
});

it("a fact's number is found only whole", () => {
	expect(holdsFact("Default: 500 ms", "5")).toBe(false);
	expect(holdsFact("maxRetries: 5 (default)", "5")).toBe(true);
	expect(holdsFact("up to 10,000 sessions", "0,000")).toBe(false);
	expect(holdsFact("Returns **null** on error", "null")).toBe(true);
	expect(holdsFact("the cbk_live_ prefix", "cbk_live_|sk_")).toBe(true);
});
