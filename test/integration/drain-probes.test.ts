/**
 * One process through the real runner (all services, embedded stores) with its operations port:
 * probes and metrics answer, and SIGTERM drains: a request in flight when the signal arrives
 * completes with 200, readiness fails at once, new connections are refused, and the process exits
 * with 0 by itself.
 */
import * as fs from "node:fs";
import type * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { DemoClient, request } from "../helpers/chat-client";
import { startSite, LoopbackSite } from "../helpers/loopback-site";
import { freePort, waitForPort } from "../helpers/ports";
import { eventually, NodeProcess, startNodeProcess } from "../helpers/processes";

let app: NodeProcess;
let site: LoopbackSite;
let baseUrl: string;
let opsUrl: string;
let firstCallStatus: number;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-drain-"));
/** The slow page's pending response: the test lets it go once the drain has begun. */
let held: { res: http.ServerResponse } | undefined;
let arrived!: () => void;
const pageRequested = new Promise<void>(resolve => (arrived = resolve));

const PAGE = `<!doctype html><html><head><title>Slow page</title></head><body><main><h1>Harbour ferries</h1>
<p>The harbour ferry leaves every forty minutes from pier seven and takes bicycles for free.</p>
<p>Tickets are sold on board; children under six travel without a ticket all year round.</p></main></body></html>`;

beforeAll(async () => {
	site = await startSite({
		"/robots.txt": (_req, res) => {
			res.writeHead(404);
			res.end();
		},
		"/slow": (_req, res) => {
			held = { res };
			arrived();
		}
	});
	const [port, opsPort] = [await freePort(), await freePort()];
	baseUrl = `http://127.0.0.1:${port}`;
	opsUrl = `http://127.0.0.1:${opsPort}`;
	app = startNodeProcess("bin/start.ts", {
		PORT: String(port),
		HOST: "127.0.0.1",
		PUBLIC_URL: baseUrl,
		OPS_PORT: String(opsPort),
		DATA_DIR: dataDir,
		TRUST_PROXY: "1",
		CRAWL_ALLOW_PRIVATE: "true",
		CRAWL_USE_BROWSER: "false",
		CRAWL_TIMEOUT_MS: "60000",
		LOG_LEVEL: "info"
	});
	await waitForPort(port, 60_000);
	// The first call a script makes once the port opens (the gateway opens it after its neighbours start).
	firstCallStatus = (await fetch(`${baseUrl}/api/tools/sessions`, { method: "POST", headers: { "X-Forwarded-For": "198.51.100.7" } })).status;
	await eventually(async () => ((await fetch(`${opsUrl}/readyz`)).status === 200 ? true : undefined), 60_000, "the process to be ready");
}, 90_000);

afterAll(async () => {
	await app?.stop("SIGKILL");
	await site?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("answers the first call made as soon as the port opens: every service of the process has started", () => {
	expect(firstCallStatus).toBe(200);
});

it("serves liveness, readiness and Prometheus metrics on the operations port", async () => {
	const live = await fetch(`${opsUrl}/livez`);
	expect(live.status).toBe(200);
	expect(await live.json()).toEqual({ status: "ok" });

	const ready = await fetch(`${opsUrl}/readyz`);
	expect(ready.status).toBe(200);
	expect(await ready.json()).toEqual({ status: "ready", problems: [] });

	expect((await fetch(`${baseUrl}/v2/health`)).status).toBe(200);
	const metrics = await fetch(`${opsUrl}/metrics`);
	expect(metrics.headers.get("content-type")).toContain("text/plain; version=0.0.4");
	const text = await metrics.text();
	expect(text).toMatch(/^# TYPE process_resident_memory_bytes gauge$/m);
	expect(text).toMatch(/^http_requests_total\{method="GET",status="200"\} [1-9]\d*$/m);
	expect(text).toMatch(/^moleculer_action_calls_total\{action="chatbots\.health",outcome="ok"\} [1-9]\d*$/m);
	expect(text).toMatch(/^process_draining 0$/m);

	const unknown = await fetch(`${opsUrl}/nothing`);
	expect(unknown.status).toBe(404);
	expect(await unknown.json()).toMatchObject({ ok: false, code: "not_found" });
	const post = await fetch(`${opsUrl}/readyz`, { method: "POST" });
	expect(post.status).toBe(405);
	expect(await post.json()).toMatchObject({ ok: false, code: "method_not_allowed" });
});

it("drains on SIGTERM: the request in flight completes with 200, then the process exits with 0", async () => {
	const demo = await DemoClient.create(baseUrl);
	const inFlight = request<{ demo: { sources: { urls: Array<{ status: string }> } } }>(`${baseUrl}/api/tools/sessions/${demo.demo.session_id}/urls`, {
		body: { url: `${site.origin}/slow` }
	});
	await pageRequested; // the request is inside the crawler now, waiting for the page

	const signalledAt = Date.now();
	app.child.kill("SIGTERM");
	await eventually(async () => ((await fetch(`${opsUrl}/readyz`)).status === 503 ? true : undefined), 20_000, "readiness to fail");
	const notReady = await (await fetch(`${opsUrl}/readyz`)).json();
	expect(notReady.problems).toContain("draining: the process is shutting down");
	// The listener is closed: a new connection is refused while the old request still runs.
	await eventually(async () => {
		try {
			await fetch(`${baseUrl}/v2/health`, { headers: { Connection: "close" } });
			return undefined;
		} catch {
			return true;
		}
	}, 20_000, "new connections to be refused");

	held?.res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
	held?.res.end(PAGE);
	const reply = await inFlight;
	expect({ status: reply.status, code: (reply.body as { code?: string }).code }).toEqual({ status: 200, code: undefined });
	expect(reply.body.demo.sources.urls).toHaveLength(1);

	const code = await app.exited;
	expect(code).toBe(0);
	const seconds = (Date.now() - signalledAt) / 1000;
	process.stdout.write(`drain: in-flight request answered ${reply.status}; exit code ${code} ${seconds.toFixed(1)} s after SIGTERM\n`);
	expect(app.output()).toContain("SIGTERM: draining");
	expect(app.output()).not.toMatch(/Cannot read properties of null/);
}, 90_000);
