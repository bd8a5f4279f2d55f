/**
 * The health handler's use of the database check, served on a real loopback socket: a success
 * stands for DB_ANSWER_REUSE_MS, a failure is never reused, and simultaneous requests share one
 * check. The database is the `chatbots.health` call, counted and switched here.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { AppConfig } from "../../config";
import { DB_ANSWER_REUSE_MS, createHealthHandler } from "../../services/gateway/health";
import type { GatewayDeps, GatewayRequest } from "../../services/gateway/context";
import type { RouteDef } from "../../lib/http/routes/types";

let clock = 0; // monotonic, as performance.now() is
let checks = 0;
let databaseUp = true;
let release: (() => void) | undefined;
let holdChecks = false;
const handler = createHealthHandler(() => clock);
const deps: GatewayDeps = {
	config: { publicUrl: "http://health.test" } as Readonly<AppConfig>,
	limiter: { consume: () => Promise.reject(new Error("health is not rate limited")) },
	call: async <T>(action: string) => {
		expect(action).toBe("chatbots.health");
		checks++;
		if (holdChecks) await new Promise<void>(resolve => (release = resolve));
		if (!databaseUp) throw new Error("store gone");
		return undefined as T;
	},
	logger: { info: () => undefined, warn: () => undefined, error: () => undefined }
};
const server = http.createServer((req, res) => void handler(deps, req as GatewayRequest, res, {} as RouteDef));
let base = "";

beforeAll(async () => {
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>(resolve => server.close(() => resolve())));
beforeEach(() => {
	clock += 100 * DB_ANSWER_REUSE_MS;
	checks = 0;
	databaseUp = true;
	holdChecks = false;
});

async function probe(): Promise<[number, string]> {
	const res = await fetch(`${base}/v2/health`);
	return [res.status, await res.text()];
}

test("a success stands for DB_ANSWER_REUSE_MS, then the database is asked again", async () => {
	expect(await probe()).toEqual([200, "ok"]);
	expect(checks).toBe(1);
	clock += DB_ANSWER_REUSE_MS - 1;
	expect(await probe()).toEqual([200, "ok"]);
	expect(checks).toBe(1);
	clock += 1;
	expect(await probe()).toEqual([200, "ok"]);
	expect(checks).toBe(2);
});

test("an outage shows once the last success is older than DB_ANSWER_REUSE_MS, and a failure is never reused", async () => {
	expect(await probe()).toEqual([200, "ok"]);
	databaseUp = false;
	clock += DB_ANSWER_REUSE_MS;
	expect(await probe()).toEqual([503, "db unreachable"]);
	expect(await probe()).toEqual([503, "db unreachable"]);
	expect(checks).toBe(3);
	databaseUp = true;
	expect(await probe()).toEqual([200, "ok"]);
	expect(checks).toBe(4);
});

test("requests that arrive during a check share it", async () => {
	clock += 10 * DB_ANSWER_REUSE_MS;
	holdChecks = true;
	const answers = Array.from({ length: 5 }, () => probe());
	while (!release) await new Promise(resolve => setTimeout(resolve, 5));
	await new Promise(resolve => setTimeout(resolve, 50));
	release();
	release = undefined;
	expect(await Promise.all(answers)).toEqual(Array.from({ length: 5 }, () => [200, "ok"]));
	expect(checks).toBe(1);
});
