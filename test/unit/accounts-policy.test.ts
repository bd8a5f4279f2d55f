/** Email normalisation and the plan table. */
import { EMAIL_MAX_LENGTH, normalizeEmail } from "../../lib/accounts/email";
import { DEFAULT_ACCOUNT_PLAN, isPlanId, PlanId, planLimits, PLANS, SANDBOX_LIMITS } from "../../lib/accounts/plans";

describe("normalizeEmail", () => {
	it.each([
		["Ann@Example.COM", "ann@example.com"],
		["  bob.smith+news@mail.example.org \n", "bob.smith+news@mail.example.org"],
		["o'brien@sub-domain.example.co.uk", "o'brien@sub-domain.example.co.uk"]
	])("accepts %p as %p", (input, expected) => {
		expect(normalizeEmail(input)).toEqual({ ok: true, email: expected });
	});

	it.each([
		"",
		"plainaddress",
		"@example.com",
		"ann@",
		"ann@localhost",
		"ann@example",
		"ann@@example.com",
		"ann..b@example.com",
		".ann@example.com",
		"ann.@example.com",
		"ann@-example.com",
		"ann@example-.com",
		"ann@exa_mple.com",
		"ann smith@example.com",
		"ann@example.c0m",
		"<ann@example.com>",
		"ann@example.com\r\nBcc: x@y.com"
	])("rejects %p", input => {
		const result = normalizeEmail(input);
		expect(result.ok).toBe(false);
	});

	it("rejects non-strings and overlong addresses or local parts", () => {
		expect(normalizeEmail(42).ok).toBe(false);
		expect(normalizeEmail(undefined).ok).toBe(false);
		expect(normalizeEmail(`${"a".repeat(65)}@example.com`).ok).toBe(false);
		expect(normalizeEmail(`${"a".repeat(64)}@example.com`).ok).toBe(true);
		const longDomain = `${Array.from({ length: 5 }, () => "d".repeat(60)).join(".")}.com`;
		expect(normalizeEmail(`a@${longDomain}`)).toEqual({ ok: false, message: expect.stringContaining(String(EMAIL_MAX_LENGTH)) });
	});
});

describe("plans", () => {
	it("gives anonymous sandboxes the SPEC §8.3 limits", () => {
		expect(SANDBOX_LIMITS).toEqual({ chatbots: 1, pages: 5, messages: 10, messagesPeriod: "lifetime", chars: 50_000, files: 0, retentionDays: 8, conversationDays: 8 });
	});

	it("starts new accounts on free with its limits", () => {
		expect(DEFAULT_ACCOUNT_PLAN).toBe("free");
		expect(planLimits("free")).toMatchObject({ chatbots: 3, pages: 50, messages: 100, messagesPeriod: "month", chars: 400_000, retentionDays: null });
	});

	it("orders paid plans by generosity and keeps account chatbots", () => {
		const order: PlanId[] = ["sandbox", "free", "pro", "business"];
		for (let i = 1; i < order.length; i++) {
			const lower = planLimits(order[i - 1]);
			const higher = planLimits(order[i]);
			for (const key of ["chatbots", "pages", "messages", "chars"] as const) expect(higher[key]).toBeGreaterThan(lower[key]);
			expect(higher.retentionDays).toBeNull();
		}
	});

	it("recognises plan ids and keeps the table immutable", () => {
		expect(Object.keys(PLANS)).toEqual(["sandbox", "free", "pro", "business"]);
		expect(isPlanId("pro")).toBe(true);
		expect(isPlanId("enterprise")).toBe(false);
		expect(isPlanId("toString")).toBe(false);
		expect(Object.isFrozen(PLANS)).toBe(true);
	});
});
