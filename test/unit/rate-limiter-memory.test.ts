import { createRateLimiter, RateLimiter } from "../../lib/http/rate-limiter";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import { WindowCounters } from "../../lib/http/window-counters";

function clock(start = 1_000_000) {
	let now = start;
	return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("WindowCounters", () => {
	it("counts points in a window that opens at the first request and ends windowMs later", () => {
		const time = clock();
		const counters = new WindowCounters(60_000, 10, time.now);
		expect(counters.add("a", 1)).toEqual({ consumed: 1, msBeforeReset: 60_000 });
		time.advance(59_000);
		expect(counters.add("a", 2)).toEqual({ consumed: 3, msBeforeReset: 1_000 });
		time.advance(1_000);
		expect(counters.add("a", 1)).toEqual({ consumed: 1, msBeforeReset: 60_000 });
	});

	it("drops expired windows when new clients arrive, so the table holds only live ones", () => {
		const time = clock();
		const counters = new WindowCounters(1_000, 1_000, time.now);
		for (let i = 0; i < 500; i++) counters.add(`old-${i}`, 1);
		time.advance(1_000);
		counters.add("new", 1);
		expect(counters.size).toBe(1);
	});

	it("never holds more than maxKeys windows; at the cap the soonest-ending one is forgotten", () => {
		const time = clock();
		const counters = new WindowCounters(60_000, 3, time.now);
		counters.add("first", 5);
		time.advance(10);
		counters.add("second", 1);
		counters.add("third", 1);
		counters.add("fourth", 1);
		expect(counters.size).toBe(3);
		// "first" was forgotten and starts over; "second" kept its count.
		expect(counters.add("first", 1).consumed).toBe(1);
		expect(counters.size).toBe(3);
		for (let i = 0; i < 100_000; i++) counters.add(`flood-${i}`, 1);
		expect(counters.size).toBe(3);
	});

	it("forgets windows in the order they opened, also for a client whose window was renewed", () => {
		const time = clock();
		const counters = new WindowCounters(1_000, 2, time.now);
		counters.add("renewed", 1);
		time.advance(1_000);
		counters.add("renewed", 4);
		time.advance(10);
		counters.add("later", 2);
		counters.add("third", 1);
		expect(counters.size).toBe(2);
		expect(counters.add("later", 1).consumed).toBe(3);
		expect(counters.add("renewed", 1).consumed).toBe(1);
	});
});

describe("createRateLimiter in memory", () => {
	const policies = { ...RATE_POLICIES, "demo-api": { ...RATE_POLICIES["demo-api"], limit: 3, windowSeconds: 60 } };

	async function consumeTimes(limiter: RateLimiter, times: number, key = "198.51.100.7") {
		const decisions = [];
		for (let i = 0; i < times; i++) decisions.push(await limiter.consume("demo-api", key));
		return decisions;
	}

	it("allows the limit, then refuses with the seconds left in the window", async () => {
		const time = clock();
		const limiter = createRateLimiter(policies, undefined, { now: time.now });
		const decisions = await consumeTimes(limiter, 5);
		expect(decisions.map(d => [d.allowed, d.remaining])).toEqual([
			[true, 2],
			[true, 1],
			[true, 0],
			[false, 0],
			[false, 0]
		]);
		expect(decisions[4].resetSeconds).toBe(60);
		time.advance(59_500);
		expect((await limiter.consume("demo-api", "198.51.100.7")).resetSeconds).toBe(1);
		time.advance(500);
		expect(await limiter.consume("demo-api", "198.51.100.7")).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
	});

	it("keeps budgets of different clients and policies apart", async () => {
		const limiter = createRateLimiter(policies);
		await consumeTimes(limiter, 3, "a");
		expect((await limiter.consume("demo-api", "a")).allowed).toBe(false);
		expect((await limiter.consume("demo-api", "b")).allowed).toBe(true);
		expect((await limiter.consume("mcp", "a")).remaining).toBe(RATE_POLICIES.mcp.limit - 1);
	});

	it("consumes several points at once (a batch of tool calls)", async () => {
		const limiter = createRateLimiter(policies);
		expect(await limiter.consume("demo-api", "a", 2)).toMatchObject({ allowed: true, remaining: 1 });
		expect(await limiter.consume("demo-api", "a", 2)).toMatchObject({ allowed: false, remaining: 0 });
	});
});
