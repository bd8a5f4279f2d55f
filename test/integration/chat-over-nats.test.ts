/**
 * The chat answer crosses the bus: the gateway runs in the test process, every other service in a
 * separate process (the real runner) over a real nats-server, and a streamed answer still arrives
 * as server-sent events, token by token as the model writes them (an object stream carried by the
 * transporter), with refusals still plain JSON errors. The model is a loopback server speaking the
 * OpenAI-compatible protocol (a stand-in for a hosted model, which cannot be reached from here).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { ask, askStream, DemoClient } from "../helpers/chat-client";
import { startStandInModel, StandInModel } from "../helpers/openai-stand-in";
import { NodeProcess, startNodeProcess } from "../helpers/processes";
import { RunningServer, startNats } from "../helpers/servers";

let nats: RunningServer;
let model: StandInModel;
let backend: NodeProcess;
let gateway: TestApp;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-chat-nats-"));

beforeAll(async () => {
	nats = await startNats();
	model = await startStandInModel();
	backend = startNodeProcess("bin/start.ts", {
		LLM_URL: model.base,
		LLM_MODEL: "stand-in-chat",
		LLM_API_KEY: model.apiKey,
		TRANSPORTER: nats.url,
		NODE_ID: "backend-node",
		DATA_DIR: dataDir,
		SERVICES: "chatbots,demo-session,storage,trainer,vectors,chat"
	});
	gateway = await startApp({ env: { TRUST_PROXY: "1", TRANSPORTER: nats.url, NODE_ID: "gateway-node", SERVICES: "gateway" } });
	await gateway.broker.waitForServices(["chatbots", "demo-session", "trainer", "vectors", "chat"], 30_000);
}, 60_000);
afterAll(async () => {
	await gateway?.stop();
	await backend?.stop();
	await nats?.stop();
	await model?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("trains and answers, as JSON and as an event stream, with the chat service in another process", async () => {
	const demo = await DemoClient.create(gateway.baseUrl);
	await demo.addText("Nordlicht Kettles\n\nThe warranty lasts 37 months. Shipping inside Norway is free.");
	await demo.train();
	await demo.untilReady();

	const json = await ask(gateway.baseUrl, demo.slug, "How long is the warranty?");
	expect(json.status).toBe(200);
	expect(json.body.answer).toContain("37 months");

	// The model writes its second token only after the browser-side client has the first one.
	let firstSeen!: () => void;
	const seen = new Promise<void>(resolve => (firstSeen = resolve));
	model.beforeToken = async index => {
		if (index === 1) await seen;
	};
	const streamed = await askStream(gateway.baseUrl, demo.slug, "How long is the warranty?", event => {
		if (event.event === "token") firstSeen();
	});
	model.beforeToken = undefined;
	expect(streamed.status).toBe(200);
	const names = streamed.events.map(e => e.event);
	expect(names.filter(n => n === "token").length).toBeGreaterThan(3);
	expect(names.slice(-2)).toEqual(["citations", "done"]);
	expect(streamed.events.filter(e => e.event === "token").map(e => e.data.text).join("")).toBe(json.body.answer);
	expect(streamed.events.at(-2)?.data.citations).toEqual(json.body.citations);
	expect(streamed.events.at(-1)?.data).toMatchObject({ answered: true, messages_used: 2, max_messages: 20 });

	const unknown = await askStream(gateway.baseUrl, "nosuchslug000", "hello?");
	expect(unknown.status).toBe(404);
	expect(unknown.errorBody?.code).toBe("not_found");
}, 60_000);
