import { RecentMap } from "../../lib/cache/recent-map";

describe("RecentMap", () => {
	it("drops the least recently used entry beyond its capacity, counting reads as use", () => {
		const map = new RecentMap<string, number>(3);
		map.set("a", 1);
		map.set("b", 2);
		map.set("c", 3);
		expect(map.get("a")).toBe(1); // "b" is now the least recently used
		map.set("d", 4);
		expect(map.size).toBe(3);
		expect(map.get("b")).toBeUndefined();
		expect([map.get("a"), map.get("c"), map.get("d")]).toEqual([1, 3, 4]);
	});

	it("replaces a key's value without growing, and forgets deleted keys", () => {
		const map = new RecentMap<string, string>(2);
		map.set("k", "old");
		map.set("k", "new");
		expect(map.size).toBe(1);
		expect(map.get("k")).toBe("new");
		map.delete("k");
		expect(map.get("k")).toBeUndefined();
		expect(map.size).toBe(0);
	});

	it("stays at its capacity however many keys arrive", () => {
		const map = new RecentMap<number, number>(100);
		for (let i = 0; i < 10_000; i++) map.set(i, i);
		expect(map.size).toBe(100);
		// The last hundred keys set: 9,900 to 9,999.
		expect(map.get(9_900)).toBe(9_900);
		expect(map.get(9_899)).toBeUndefined();
	});

	it("tells of each entry it evicts, but not of those deleted or cleared", () => {
		const evicted: Array<[string, number]> = [];
		const map = new RecentMap<string, number>(2, (key, value) => evicted.push([key, value]));
		map.set("a", 1);
		map.set("b", 2);
		map.delete("b");
		map.set("c", 3);
		map.set("d", 4);
		expect(evicted).toEqual([["a", 1]]);
		map.clear();
		expect([map.size, evicted.length]).toEqual([0, 1]);
	});

	it("refuses a capacity under one", () => {
		expect(() => new RecentMap(0)).toThrow(RangeError);
	});
});
