/**
 * A dead node is noticed in seconds: with the owner of the documents SIGKILLed (no goodbye on the
 * bus), a call that needs it fails with 503 JSON within 5 s instead of hanging until the request
 * timeout, and calls succeed again by themselves once the process is back.
 * The gateway runs in the test process, the store owner in its own, over a real nats-server.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { request } from "../helpers/chat-client";
import { crashNodeProcess, eventually, NodeProcess, startNodeProcess } from "../helpers/processes";
import { startSite, LoopbackSite } from "../helpers/loopback-site";
import { RunningServer, startNats } from "../helpers/servers";

let nats: RunningServer;
let gateway: TestApp;
let backend: NodeProcess | undefined;
let site: LoopbackSite;
let pageRequested: () => void = () => undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-fast-fail-"));
const startBackend = () =>
	startNodeProcess("bin/start.ts", {
		TRANSPORTER: nats.url,
		SERVICES: "chatbots,demo-session,storage,crawler",
		DATA_DIR: dataDir,
		NODE_ID: "store-node",
		CRAWL_ALLOW_PRIVATE: "true",
		CRAWL_USE_BROWSER: "false",
		CRAWL_TIMEOUT_MS: "60000"
	});
const createSession = () => request<{ ok: boolean; code?: string; demo?: { session_id: string } }>(`${gateway.baseUrl}/api/tools/sessions`, { method: "POST", body: {} });

beforeAll(async () => {
	nats = await startNats();
	// A page that never answers: a request reading it stays in flight inside the backend.
	site = await startSite({
		"/robots.txt": (_req, res) => {
			res.writeHead(404);
			res.end();
		},
		"/never": () => pageRequested()
	});
	backend = startBackend();
	gateway = await startApp({ env: { SERVICES: "gateway", TRANSPORTER: nats.url, NODE_ID: "gateway-node", TRUST_PROXY: "1" } });
	await gateway.broker.waitForServices(["chatbots", "demo-session"], 60_000);
}, 90_000);

afterAll(async () => {
	await gateway?.stop();
	await backend?.stop();
	await site?.stop();
	await nats?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("fails fast with 503 JSON while the owner is dead, and recovers by itself when it is back", async () => {
	expect((await createSession()).status).toBe(200);

	await crashNodeProcess(backend as NodeProcess);
	const started = Date.now();
	const during = await createSession();
	const failedAfterMs = Date.now() - started;
	expect(during.status).toBe(503);
	expect(during.headers.get("content-type")).toContain("application/json");
	expect(during.body).toMatchObject({ ok: false, code: "unavailable", status: 503 });
	// Heartbeats every second, a node silent for 3 s is dead (checked twice a second).
	expect(failedAfterMs).toBeLessThanOrEqual(5_000);

	// Later calls, with the node known dead, fail at once.
	const again = Date.now();
	expect((await createSession()).status).toBe(503);
	const secondFailureMs = Date.now() - again;

	const restartedAt = Date.now();
	backend = startBackend();
	await eventually(async () => ((await createSession()).status === 200 ? true : undefined), 60_000, "calls to succeed again");
	const recoveredMs = Date.now() - restartedAt;
	process.stdout.write(`fast failure: first call after SIGKILL answered 503 in ${failedAfterMs} ms, the next in ${secondFailureMs} ms; recovered ${recoveredMs} ms after the restart\n`);
}, 120_000);

it("a call in flight when its node crashes and comes straight back under the same NODE_ID fails fast too", async () => {
	// This gateway would take 10 s to notice the silence: the restarted node is back well before,
	// so only its new instance id can tell that the calls waiting on the old one are lost.
	const patient = await startApp({ env: { SERVICES: "gateway", TRANSPORTER: nats.url, NODE_ID: "patient-gateway", TRUST_PROXY: "1", HEARTBEAT_TIMEOUT_SECONDS: "10" } });
	try {
		await patient.broker.waitForServices(["chatbots", "demo-session", "crawler"], 60_000);
		const created = await request<{ demo?: { session_id: string } }>(`${patient.baseUrl}/api/tools/sessions`, { method: "POST", body: {} });
		expect(created.status).toBe(200);
		const reached = new Promise<void>(resolve => (pageRequested = resolve));
		const started = Date.now();
		const inFlight = request(`${patient.baseUrl}/api/tools/sessions/${created.body.demo?.session_id}/urls`, { body: { url: `${site.origin}/never` } });
		await reached; // the backend is reading the page for this call

		await crashNodeProcess(backend as NodeProcess);
		backend = startBackend(); // a new instance of the same node
		const reply = await inFlight;
		const failedAfterMs = Date.now() - started;
		expect(reply.status).toBe(503);
		expect(reply.body).toMatchObject({ ok: false, code: "unavailable" });
		// Rejected when the new instance announced itself: before the 10 s silence, far before the 30 s request timeout.
		expect(failedAfterMs).toBeLessThan(10_000);
		await eventually(async () => ((await request(`${patient.baseUrl}/api/tools/sessions`, { method: "POST", body: {} })).status === 200 ? true : undefined), 60_000, "calls to succeed again");
		process.stdout.write(`fast failure: call in flight during a crash and immediate restart answered 503 after ${failedAfterMs} ms\n`);
	} finally {
		await patient.stop();
	}
}, 120_000);
