/**
 * A Telegram reply survives the death of the process answering it, over a real nats-server with
 * JetStream, and arrives exactly once.
 *
 * The channels and chat services run together in their own OS process (the real runner,
 * `bin/start.ts`, SERVICES=channels,chat); the gateway, chatbots, accounts, trainer and vectors run in
 * the test process. Telegram and the answering model cannot be reached from here: the Bot API is a
 * loopback stand-in (test/helpers/telegram-stand-in.ts) and the model the OpenAI-compatible one
 * (test/helpers/openai-stand-in.ts). Both let the test hold a request, so it knows where the job is
 * when it kills the process with SIGKILL:
 *
 * 1. mid-answer (the model is writing the answer): a new process takes the job over once its lease
 *    runs out and JetStream redelivers it, answers again and sends one reply;
 * 2. mid-send (the reply was decided and recorded; Telegram has the request but has not accepted
 *    it): the next process sends the recorded reply, without answering again, once.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ReplyJob } from "../../lib/channels/model";
import { startApp, TestApp } from "../helpers/app";
import { channelsPath, newOwner, ownerPost, trainedChatbot } from "../helpers/channel-app";
import { startStandInModel, StandInModel } from "../helpers/openai-stand-in";
import { crashNodeProcess, eventually, NodeProcess, startNodeProcess } from "../helpers/processes";
import { RunningServer, startNats } from "../helpers/servers";
import { startTelegramStandIn, StandInBot, TelegramStandIn, textUpdate } from "../helpers/telegram-stand-in";

let nats: RunningServer;
let telegram: TelegramStandIn;
let model: StandInModel;
let app: TestApp;
let bot: StandInBot;
const answerers: NodeProcess[] = [];
const answererDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-answerer-"));

function startAnswerer(nodeId: string): NodeProcess {
	const node = startNodeProcess("bin/start.ts", {
		TRANSPORTER: nats.url,
		SERVICES: "channels,chat",
		PUBLIC_URL: app.baseUrl,
		DATA_DIR: answererDir,
		NODE_ID: nodeId,
		TELEGRAM_API_URL: telegram.base,
		CHANNELS_KEY: Buffer.alloc(32, 11).toString("base64"),
		LLM_URL: model.base,
		LLM_MODEL: "stand-in-chat",
		LLM_API_KEY: model.apiKey
	});
	answerers.push(node);
	return node;
}

/** Waits until the named node offers the channels and chat services. */
async function answererOn(nodeId: string): Promise<void> {
	await eventually(
		async () => {
			const services = app.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string; nodeID: string }>;
			const here = services.filter(s => s.nodeID === nodeId).map(s => s.name);
			return here.includes("channels") && here.includes("chat") ? true : undefined;
		},
		30_000,
		`the answerer ${nodeId}:\n${answerers.map(a => a.output()).join("\n")}`
	);
}

/**
 * Waits until the bus has noticed a killed node is gone (its heartbeats missed). Until then a call
 * may still be routed to it and time out, as the webhook's would (Telegram then delivers it again).
 */
async function nodeGone(nodeId: string): Promise<void> {
	await eventually(
		async () => {
			const nodes = app.broker.registry.getNodeList({ onlyAvailable: true, withServices: false }) as Array<{ id: string }>;
			return nodes.some(n => n.id === nodeId) ? undefined : true;
		},
		60_000,
		`the bus to drop ${nodeId}`
	);
}

const sentTo = (chatId: number) => telegram.sent.filter(m => m.chat_id === String(chatId)).map(m => m.text);
const job = (id: string, nodeID: string) => app.broker.call<ReplyJob | null, object>("channels.job", { job_id: id }, { nodeID });

beforeAll(async () => {
	nats = await startNats();
	telegram = await startTelegramStandIn();
	model = await startStandInModel();
	app = await startApp({
		env: { TRUST_PROXY: "1", TRANSPORTER: nats.url, NODE_ID: "app-node", SERVICES: "gateway,chatbots,accounts,trainer,vectors", TELEGRAM_API_URL: telegram.base }
	});
}, 60_000);

afterAll(async () => {
	for (const answerer of answerers) await answerer.stop();
	await app?.stop();
	await model?.stop();
	await telegram?.stop();
	await nats?.stop();
	fs.rmSync(answererDir, { recursive: true, force: true });
});

it("a reply whose answering process is killed mid-answer, then mid-send, still arrives exactly once", async () => {
	const first = startAnswerer("answerer-a");
	await answererOn("answerer-a");
	const owner = await newOwner(app.baseUrl);
	const chatbot = await trainedChatbot(app.broker, owner.accountId);
	bot = telegram.addBot("harbor_crash_bot");
	const connected = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbot._id)}/telegram`, { token: bot.token });
	expect(connected.status).toBe(201);

	// 1. Killed while the model writes the answer.
	let release!: () => void;
	const held = new Promise<void>(resolve => (release = resolve));
	let writing!: () => void;
	const answering = new Promise<void>(resolve => (writing = resolve));
	model.beforeToken = async () => {
		writing();
		await held;
	};
	const a = textUpdate(101, "How long is the warranty of the Zephyr-9 kettle?");
	expect(await telegram.deliver(bot.token, a)).toEqual({ status: 200, body: { ok: true, queued: true } });
	await answering;
	const jobA = `telegram:${bot.id}:${a.update_id}`;
	expect(await job(jobA, "answerer-a")).toMatchObject({ status: "running", attempts: 1, reply: null, sent: 0 });
	await crashNodeProcess(first);
	release(); // only the dead process was waiting on it
	const killedAt = Date.now();
	startAnswerer("answerer-b");
	await answererOn("answerer-b");
	const [replyA] = await eventually(async () => (sentTo(101).length ? sentTo(101) : undefined), 90_000, "the reply to the first message");
	expect(replyA).toContain("37 months");
	process.stdout.write(`channels-crash: reply ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill mid-answer\n`);
	expect(await eventually(async () => ((await job(jobA, "answerer-b"))?.status === "done" ? job(jobA, "answerer-b") : undefined), 30_000, "job A done")).toMatchObject({ attempts: 2, sent: 1 });

	// 2. Killed while Telegram holds the send of a reply already decided.
	await nodeGone("answerer-a");
	telegram.failNext(bot.token, "sendMessage", ["hang"]);
	const b = textUpdate(202, "What does a city bike cost for the first hour?");
	const asked = () => model.requests.filter(r => JSON.stringify(r.body).includes("city bike cost for the first hour")).length;
	expect(await telegram.deliver(bot.token, b)).toEqual({ status: 200, body: { ok: true, queued: true } });
	await eventually(async () => (telegram.callsOf("sendMessage", bot.token).some(c => c.outcome === "hung") ? true : undefined), 30_000, "the held send");
	const jobB = `telegram:${bot.id}:${b.update_id}`;
	expect(await job(jobB, "answerer-b")).toMatchObject({ status: "running", attempts: 1, sent: 0, reply: { parts: [expect.stringContaining("12 euros")] } });
	await crashNodeProcess(answerers[1]);
	startAnswerer("answerer-c");
	await answererOn("answerer-c");
	await nodeGone("answerer-b");
	const [replyB] = await eventually(async () => (sentTo(202).length ? sentTo(202) : undefined), 90_000, "the reply to the second message");
	expect(replyB).toContain("12 euros");
	expect(await eventually(async () => ((await job(jobB, "answerer-c"))?.status === "done" ? job(jobB, "answerer-c") : undefined), 30_000, "job B done")).toMatchObject({ attempts: 2, sent: 1 });
	expect(asked()).toBe(1); // the recorded reply was sent; the question was not answered again

	// Exactly once: one message per chat, and both jobs are over (a late redelivery finds them final).
	expect(sentTo(101)).toHaveLength(1);
	expect(sentTo(202)).toHaveLength(1);
}, 240_000);
