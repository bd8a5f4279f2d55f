/**
 * Two gateway instances share one budget through a real redis-server started by the test.
 */
import { probeRoutes, probeService } from "../helpers/probe-service";
import { startApp, TestApp } from "../helpers/app";
import { RunningServer, startRedis } from "../helpers/servers";

let redis: RunningServer;
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
	redis = await startRedis();
	const options = {
		env: { SERVICES: "gateway", REDIS_URL: redis.url },
		extraServices: [probeService],
		gateway: { extraRoutes: probeRoutes }
	};
	first = await startApp(options);
	second = await startApp(options);
});
afterAll(async () => {
	await first?.stop();
	await second?.stop();
	await redis?.stop();
});

it("counts exactly across replicas: 60 concurrent calls split over two gateways give 30 refusals", async () => {
	// Each replica gets 30 calls, which a budget of its own (30) would all accept: only a shared budget
	// refuses any. Which replica's calls are refused depends on arrival order (one replica's 30 may
	// all come first), so it is not asserted.
	const calls = Array.from({ length: 60 }, (_, i) => fetch(`${(i % 2 ? first : second).baseUrl}/api/probe/limited`));
	const responses = await Promise.all(calls);
	const statuses = responses.map(r => r.status);
	expect(statuses.filter(s => s === 200)).toHaveLength(30);
	expect(statuses.filter(s => s === 429)).toHaveLength(30);
	const refused = responses.find(r => r.status === 429) as Response;
	expect(refused.headers.get("retry-after")).toBe(refused.headers.get("ratelimit-reset"));
	expect((await refused.json()).code).toBe("rate_limited");
	// Spent: a call to either replica is refused now.
	for (const app of [first, second]) expect((await fetch(`${app.baseUrl}/api/probe/limited`)).status).toBe(429);
});
