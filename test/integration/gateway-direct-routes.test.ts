/**
 * Routes the gateway dispatches itself (gateway-local handlers on a fixed path: /v2/health, /mcp,
 * /widget.js, the Stripe webhook) answer exactly as routes through moleculer-web do: the common
 * headers, a request id, HEAD, the JSON error body; and concurrent health checks share one
 * database check without changing any answer.
 */
import * as http from "node:http";
import { gunzipSync } from "node:zlib";
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

describe("GET /widget.js", () => {
	/** node:http, not fetch: fetch asks for gzip by itself and hides what came over the wire. */
	const get = (headers: Record<string, string>) =>
		new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
			http.get(`${app.baseUrl}/widget.js`, { headers }, res => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
			}).on("error", reject);
		});

	it("goes gzip-coded, with its own tag, to a client that takes gzip; both variants vary by Accept-Encoding and revalidate", async () => {
		const plain = await get({});
		expect(plain.status).toBe(200);
		expect(plain.headers["content-encoding"]).toBeUndefined();
		expect(plain.headers.vary).toBe("Accept-Encoding");
		const tag = plain.headers.etag as string;
		expect(tag).toMatch(/^"[\w-]+"$/);
		expect(plain.bytes.toString("utf8")).toContain("data-chatbot");

		const zipped = await get({ "Accept-Encoding": "gzip, deflate, br" });
		expect(zipped.headers["content-encoding"]).toBe("gzip");
		expect(zipped.headers.vary).toBe("Accept-Encoding");
		expect(zipped.headers.etag).toBe(`${tag.slice(0, -1)}-gzip"`);
		expect(Number(zipped.headers["content-length"])).toBe(zipped.bytes.length);
		expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
		expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 2);
		expect(zipped.headers["x-content-type-options"]).toBe("nosniff");

		// Either variant's tag revalidates; the 304 names the variant the client holds.
		for (const [held, headers] of [
			[tag, {}],
			[zipped.headers.etag as string, { "Accept-Encoding": "gzip" }]
		] as const) {
			const revalidated = await get({ ...headers, "If-None-Match": held });
			expect([revalidated.status, revalidated.bytes.length, revalidated.headers.etag, revalidated.headers.vary]).toEqual([304, 0, held, "Accept-Encoding"]);
		}
		expect((await get({ "If-None-Match": '"stale"' })).status).toBe(200);
		expect((await get({ "Accept-Encoding": "gzip;q=0" })).headers["content-encoding"]).toBeUndefined();
	});
});
