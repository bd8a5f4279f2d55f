/**
 * The gateway's read cache with the chatbots and mcp services in another process, over a real
 * nats-server: results cross the bus once, and a chatbot's change made in that process reaches
 * the gateway as a `chatbot.changed` event (well before the cache's 30 s bound would have dropped
 * the old reply).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { SANDBOX_CHATBOT_LIMITS } from "../../lib/accounts/chatbot-limits";
import type { Chatbot } from "../../lib/chatbots/model";
import { processMetrics } from "../../lib/ops/metrics";
import { startApp, TestApp } from "../helpers/app";
import { callTool } from "../helpers/mcp-http";
import { eventually, NodeProcess, startNodeProcess } from "../helpers/processes";
import { RunningServer, startNats } from "../helpers/servers";

let nats: RunningServer;
let gateway: TestApp;
let backEnd: NodeProcess;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-reads-"));
const toolHits = () => processMetrics.counter("gateway_read_cache_lookups_total", "").get({ kind: "tool", outcome: "hit" });

beforeAll(async () => {
	nats = await startNats();
	backEnd = startNodeProcess("bin/start.ts", { TRANSPORTER: nats.url, SERVICES: "chatbots,mcp", DATA_DIR: dataDir, NODE_ID: "back-end" });
	gateway = await startApp({ env: { SERVICES: "gateway", TRANSPORTER: nats.url, NODE_ID: "gateway-node", TRUST_PROXY: "1" } });
	await gateway.broker.waitForServices(["chatbots", "mcp"], 30_000);
});
afterAll(async () => {
	await gateway?.stop();
	await backEnd?.stop();
	await nats?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("a change made in the back end's process reaches the gateway's cache over the bus", async () => {
	const chatbot = await gateway.broker.call<Chatbot, object>("chatbots.create", { kind: "sandbox", locale: "en", name: "bus.example", limits: SANDBOX_CHATBOT_LIMITS, ttl_ms: 86_400_000 });
	const charsUsed = async () => ((await callTool(gateway.baseUrl, "get_chatbot", { chatbot_id: chatbot._id })).data?.usage as { chars_used: number }).chars_used;
	expect(await charsUsed()).toBe(0);
	const before = toolHits();
	expect(await charsUsed()).toBe(0);
	expect(toolHits()).toBe(before + 1);

	const text = "The museum closes on Mondays.";
	await gateway.broker.call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text });
	await eventually(async () => ((await charsUsed()) === text.length ? true : undefined), 3_000, "the change to be shown");
	// And the new state is kept in turn.
	const after = toolHits();
	expect(await charsUsed()).toBe(text.length);
	expect(toolHits()).toBe(after + 1);
});
