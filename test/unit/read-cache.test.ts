import { ReadCache } from "../../lib/cache/read-cache";
import { changedChatbotIds } from "../../lib/chatbots/changes";

function cacheAt(options: { capacity?: number; ttlMs?: number } = {}) {
	const clock = { now: 1_000_000 };
	const counts = { hit: 0, miss: 0 };
	const cache = new ReadCache<string>({
		capacity: options.capacity ?? 10,
		ttlMs: options.ttlMs ?? 30_000,
		now: () => clock.now,
		counts: { hit: { inc: () => void counts.hit++ }, miss: { inc: () => void counts.miss++ } }
	});
	return { cache, clock, counts };
}

describe("ReadCache", () => {
	it("answers a kept reply until its chatbot is invalidated, and counts hits and misses", () => {
		const { cache, counts } = cacheAt();
		expect(cache.get("a")).toBeUndefined();
		expect(cache.set("a", "bot1", "reply a", null, cache.mark())).toBe(true);
		expect(cache.set("b", "bot2", "reply b", null, cache.mark())).toBe(true);
		expect(cache.get("a")).toBe("reply a");
		cache.invalidate(["bot1"]);
		expect(cache.get("a")).toBeUndefined();
		expect(cache.get("b")).toBe("reply b");
		expect(counts).toEqual({ hit: 2, miss: 2 });
	});

	it("forgets every chatbot's replies when the change names none", () => {
		const { cache } = cacheAt();
		cache.set("a", "bot1", "reply a", null, cache.mark());
		cache.set("b", "bot2", "reply b", null, cache.mark());
		cache.invalidate(null);
		expect([cache.get("a"), cache.get("b"), cache.size]).toEqual([undefined, undefined, 0]);
	});

	it("refuses a reply read while its chatbot (or every chatbot) changed, and keeps one read after", () => {
		const { cache } = cacheAt();
		const before = cache.mark();
		cache.invalidate(["bot1"]);
		expect(cache.set("a", "bot1", "stale", null, before)).toBe(false);
		// Another chatbot's change does not make this read old.
		expect(cache.set("b", "bot2", "fresh", null, before)).toBe(true);
		expect(cache.set("a", "bot1", "fresh", null, cache.mark())).toBe(true);

		const beforeAll = cache.mark();
		cache.invalidate(null);
		expect(cache.set("c", "bot3", "stale", null, beforeAll)).toBe(false);
		expect(cache.get("a")).toBeUndefined();
	});

	it("keeps an entry no longer than its own end or the TTL", () => {
		const { cache, clock } = cacheAt({ ttlMs: 30_000 });
		cache.set("expiring", "bot1", "sandbox", clock.now + 5_000, cache.mark());
		cache.set("lasting", "bot2", "account", null, cache.mark());
		expect(cache.set("over", "bot3", "already expired", clock.now, cache.mark())).toBe(false);
		clock.now += 4_999;
		expect(cache.get("expiring")).toBe("sandbox");
		clock.now += 1;
		expect(cache.get("expiring")).toBeUndefined();
		expect(cache.get("lasting")).toBe("account");
		clock.now += 25_000;
		expect(cache.get("lasting")).toBeUndefined();
	});

	it("holds at most its capacity, dropping the least recently used", () => {
		const { cache } = cacheAt({ capacity: 2 });
		cache.set("a", "bot1", "A", null, cache.mark());
		cache.set("b", "bot2", "B", null, cache.mark());
		cache.get("a");
		cache.set("c", "bot3", "C", null, cache.mark());
		expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.size]).toEqual(["A", undefined, "C", 2]);
		// A dropped entry leaves nothing behind that a later invalidation of its chatbot trips on.
		cache.invalidate(["bot2"]);
		expect(cache.get("a")).toBe("A");
	});

	it("replaces a key's reply, also when the key now shows another chatbot", () => {
		const { cache } = cacheAt();
		cache.set("a", "bot1", "first", null, cache.mark());
		cache.set("a", "bot2", "second", null, cache.mark());
		cache.invalidate(["bot1"]);
		expect(cache.get("a")).toBe("second");
		cache.invalidate(["bot2"]);
		expect(cache.get("a")).toBeUndefined();
	});

	it("still refuses an old read once more chatbots changed than it remembers by name", () => {
		const { cache } = cacheAt({ capacity: 2 });
		const before = cache.mark();
		cache.invalidate(["bot1"]);
		cache.invalidate(["bot2"]);
		cache.invalidate(["bot3"]);
		// bot1's invalidation is no longer remembered by name; the read is refused all the same.
		expect(cache.set("a", "bot1", "stale", null, before)).toBe(false);
		expect(cache.set("a", "bot1", "fresh", null, cache.mark())).toBe(true);
	});

	it("an empty change changes nothing", () => {
		const { cache } = cacheAt();
		const before = cache.mark();
		cache.invalidate([]);
		expect(cache.set("a", "bot1", "reply", null, before)).toBe(true);
	});
});

describe("changedChatbotIds", () => {
	it("reads the chatbot a chatbots write names by _id, alone or in a list", () => {
		expect(changedChatbotIds("chatbots", { query: { _id: "c1", "counts.messages": 3 } })).toEqual(["c1"]);
		expect(changedChatbotIds("chatbots", { query: { _id: { $in: ["c1", "c2"] } } })).toEqual(["c1", "c2"]);
		expect(changedChatbotIds("chatbots", { inserted: { _id: "c3", slug: "x" } })).toEqual(["c3"]);
	});

	it("reads the chatbot a sources write names by chatbot_id, not the source's own _id", () => {
		expect(changedChatbotIds("sources", { query: { _id: "s1", chatbot_id: "c1" } })).toEqual(["c1"]);
		expect(changedChatbotIds("sources", { inserted: { _id: "s2", chatbot_id: "c2" } })).toEqual(["c2"]);
		expect(changedChatbotIds("sources", { query: { _id: "s1" } })).toBeNull();
	});

	it("reports every chatbot when the write names none exactly", () => {
		expect(changedChatbotIds("chatbots", { query: { account_id: "a1", paused: true } })).toBeNull();
		expect(changedChatbotIds("chatbots", { query: { _id: { $ne: "c1" } } })).toBeNull();
		expect(changedChatbotIds("chatbots", { query: { _id: { $in: ["c1", 7] } } })).toBeNull();
		expect(changedChatbotIds("chatbots", { query: { _id: { $in: ["c1"], $nin: ["c2"] } } })).toBeNull();
	});
});
