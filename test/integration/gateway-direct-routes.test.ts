/**
 * Routes the gateway dispatches itself (gateway-local handlers on a fixed path: /v2/health, /mcp,
 * /widget.js, the Stripe webhook) answer exactly as routes through moleculer-web do: the common
 * headers, a request id, HEAD, the JSON error body; and concurrent health checks share one
 * database check without changing any answer.
 */
import { startApp, TestApp } from "../helpers/app";
import { toolsForVersion } from "../../lib/mcp/tools";

let app: TestApp;

beforeAll(async () => {
	app = await startApp({ env: { SERVICES: "gateway,chatbots,mcp,accounts" } });
});
afterAll(() => app.stop());

function expectCommonHeaders(res: Response) {
	expect(res.headers.get("api-version")).toBe("1.0.0");
	expect(res.headers.get("link")).toContain('rel="service-desc"');
}

describe("directly dispatched routes", () => {
	it("carry the common headers and a generated request id, like every other route", async () => {
		const health = await fetch(`${app.baseUrl}/v2/health`);
		expect(health.status).toBe(200);
		expect(await health.text()).toBe("ok");
		expectCommonHeaders(health);
		expect(health.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

		const other = await fetch(`${app.baseUrl}/v2/health`);
		expect(other.headers.get("x-request-id")).not.toBe(health.headers.get("x-request-id"));
	});

	it("echo the caller's X-Request-ID, or its X-Correlation-ID when both are sent", async () => {
		const given = await fetch(`${app.baseUrl}/v2/health`, { headers: { "X-Request-ID": "req-123" } });
		expect(given.headers.get("x-request-id")).toBe("req-123");
		const correlated = await fetch(`${app.baseUrl}/widget.js`, { headers: { "X-Request-ID": "req-123", "X-Correlation-ID": "corr-9" } });
		expect(correlated.status).toBe(200);
		expect(correlated.headers.get("x-request-id")).toBe("corr-9");
	});

	it("answer HEAD with the GET headers and no body", async () => {
		const head = await fetch(`${app.baseUrl}/v2/health`, { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(head.headers.get("content-length")).toBe("2");
		expect(head.headers.get("cache-control")).toBe("no-store");
		expect(await head.text()).toBe("");
	});

	it("render failures as the JSON Error body", async () => {
		const get = await fetch(`${app.baseUrl}/mcp`);
		expect(get.status).toBe(405);
		expect(get.headers.get("allow")).toBe("POST");
		expectCommonHeaders(get);
		expect(await get.json()).toMatchObject({ ok: false, code: "method_not_allowed", status: 405 });

		const wrongType = await fetch(`${app.baseUrl}/mcp`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "{}" });
		expect(wrongType.status).toBe(415);
		expect(wrongType.headers.get("ratelimit-policy")).toBe('"mcp"; q=60; w=60');
		expect(await wrongType.json()).toMatchObject({ ok: false, code: "unsupported_media_type" });
	});

	it("answer tools/list and batches without a tool call in the gateway, as the tool server would", async () => {
		const post = (body: unknown, version = "2025-03-26") =>
			fetch(`${app.baseUrl}/mcp`, { method: "POST", headers: { "Content-Type": "application/json", "MCP-Protocol-Version": version }, body: JSON.stringify(body) });
		const list = await post({ jsonrpc: "2.0", id: "a", method: "tools/list" });
		expect(list.status).toBe(200);
		expect(list.headers.get("content-type")).toBe("application/json; charset=utf-8");
		expect(await list.json()).toEqual({ jsonrpc: "2.0", id: "a", result: { tools: toolsForVersion("2025-03-26", { authenticated: false }) } });

		const batch = await post([
			{ jsonrpc: "2.0", id: 1, method: "ping" },
			{ jsonrpc: "2.0", method: "notifications/initialized" },
			{ jsonrpc: "2.0", id: 2, method: "no/such" }
		]);
		const answers = (await batch.json()) as Array<{ id: number; result?: unknown; error?: { code: number } }>;
		expect(answers.map(a => a.id)).toEqual([1, 2]);
		expect(answers[0].result).toEqual({});
		expect(answers[1].error?.code).toBe(-32601);

		const notification = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
		expect(notification.status).toBe(202);
		expect(await notification.text()).toBe("");
	});
});

describe("health checks under concurrency", () => {
	it("answer every one of many simultaneous checks, in both representations", async () => {
		const replies = await Promise.all(
			Array.from({ length: 40 }, (_, i) => fetch(`${app.baseUrl}/v2/health`, { headers: { Accept: i % 2 ? "application/json" : "text/plain" } }))
		);
		for (const [i, res] of replies.entries()) {
			expect(res.status).toBe(200);
			if (i % 2) expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
			else expect(await res.text()).toBe("ok");
		}
	});
});
