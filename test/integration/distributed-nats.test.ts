/**
 * The gateway and other services in separate broker processes over a real nats-server: calls
 * cross the bus, and errors keep their code and type on the way back.
 */
import { probeRoutes } from "../helpers/probe-service";
import { startApp, TestApp } from "../helpers/app";
import { eventually, NodeProcess, startNodeProcess } from "../helpers/processes";
import { RunningServer, startNats } from "../helpers/servers";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

let nats: RunningServer;
let gateway: TestApp;
let storeNode: NodeProcess;
let probeNode: NodeProcess;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-nats-"));

beforeAll(async () => {
	nats = await startNats();
	// The document-store owner runs through the real runner, as a Kubernetes Deployment would.
	storeNode = startNodeProcess("bin/start.ts", { TRANSPORTER: nats.url, SERVICES: "chatbots", DATA_DIR: dataDir, NODE_ID: "store-node" });
	probeNode = startNodeProcess("test/helpers/probe-node.ts", { TRANSPORTER: nats.url, NODE_ID: "probe-node" });
	gateway = await startApp({ env: { SERVICES: "gateway", TRANSPORTER: nats.url, NODE_ID: "gateway-node" }, gateway: { extraRoutes: probeRoutes } });
	await gateway.broker.waitForServices(["chatbots", "probe"], 30_000);
});
afterAll(async () => {
	await gateway?.stop();
	await storeNode?.stop();
	await probeNode?.stop();
	await nats?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("health crosses the bus to the store owner in another process", async () => {
	const res = await fetch(`${gateway.baseUrl}/v2/health`, { headers: { Accept: "application/json" } });
	expect(res.status).toBe(200);
	expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
	const nodes = (gateway.broker.registry.getNodeList({ onlyAvailable: true, withServices: false }) as Array<{ id: string }>).map(n => n.id);
	expect(nodes).toEqual(expect.arrayContaining(["store-node", "probe-node", "gateway-node"]));
});

it("an error raised in another process keeps its code and type", async () => {
	let caught: { code?: number; type?: string; name?: string; nodeID?: string } | undefined;
	try {
		await gateway.broker.call("probe.fail", { code: "char_cap" });
	} catch (err) {
		caught = err as typeof caught;
	}
	expect(caught).toMatchObject({ code: 422, type: "char_cap", name: "MoleculerClientError", nodeID: "probe-node" });

	const res = await fetch(`${gateway.baseUrl}/api/probe/fail/file_type`);
	expect(res.status).toBe(422);
	expect(await res.json()).toMatchObject({ ok: false, code: "file_type", status: 422 });
});

it("an unexpected crash in another process answers 500 internal without its message", async () => {
	const res = await fetch(`${gateway.baseUrl}/api/probe/crash`);
	expect(res.status).toBe(500);
	const text = await res.text();
	expect(text).not.toContain("hunter2");
	expect(JSON.parse(text).code).toBe("internal");
});

it("health answers 503 when the store owner is gone", async () => {
	await storeNode.stop();
	await eventually(async () => {
		const res = await fetch(`${gateway.baseUrl}/v2/health`);
		const body = await res.text();
		return res.status === 503 && body === "db unreachable" ? true : undefined;
	}, 20_000, "health to report the database unreachable");
	const json = await fetch(`${gateway.baseUrl}/v2/health`, { headers: { Accept: "application/json" } });
	expect(json.status).toBe(503);
	expect(await json.json()).toMatchObject({ status: "unavailable", database: "unreachable" });
});
