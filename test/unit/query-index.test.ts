import { withPreferredIndexLast } from "../../lib/storage/query-index";

describe("withPreferredIndexLast (which index NeDB answers a query from)", () => {
	const preferred = ["_id", "slug", "claim_hash", "account_id"];

	it("moves the most selective indexed equality key to the end, keeping the rest in order", () => {
		const query = { claim_hash: "h", kind: "sandbox", account_id: null, $or: [{ expires_at: null }] };
		const steered = withPreferredIndexLast(query, preferred);
		expect(Object.keys(steered)).toEqual(["kind", "account_id", "$or", "claim_hash"]);
		expect(steered).toEqual(query);
		// The caller's query is not changed.
		expect(Object.keys(query)).toEqual(["claim_hash", "kind", "account_id", "$or"]);
	});

	it("prefers _id over any other index", () => {
		expect(Object.keys(withPreferredIndexLast({ _id: "c1", account_id: "a1" }, preferred))).toEqual(["account_id", "_id"]);
	});

	it("returns the same object when the preferred key is already last, or none is compared for equality", () => {
		const last = { kind: "sandbox", slug: "abc" };
		expect(withPreferredIndexLast(last, preferred)).toBe(last);
		const ranges = { slug: { $in: ["a", "b"] }, account_id: { $ne: null }, kind: "sandbox" };
		expect(withPreferredIndexLast(ranges, preferred)).toBe(ranges);
		const none = { kind: "sandbox" };
		expect(withPreferredIndexLast(none, [])).toBe(none);
	});

	it("counts null, numbers, booleans and dates as equality, operators and arrays as not", () => {
		for (const value of [null, 0, false, new Date(0)]) {
			expect(Object.keys(withPreferredIndexLast({ account_id: value, kind: "x" }, preferred)).at(-1)).toBe("account_id");
		}
		for (const value of [{ $gt: 1 }, ["a"], undefined]) {
			expect(Object.keys(withPreferredIndexLast({ account_id: value, kind: "x" }, preferred)).at(-1)).toBe("kind");
		}
	});
});
