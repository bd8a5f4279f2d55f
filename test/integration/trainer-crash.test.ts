/**
 * A training run survives the death of its worker, over a real nats-server with JetStream.
 *
 * The trainer runs alone in its own OS process (the real runner, `bin/start.ts`, SERVICES=trainer);
 * the gateway, chatbots, demo-session, storage, vectors and chat services run in the test process.
 * Dense embeddings are configured against a loopback server speaking the OpenAI-compatible protocol
 * (a stand-in for a hosted model); it holds the training run's embedding request, so the test knows
 * the worker is in the middle of the job — sources read and chunked, nothing indexed — when it
 * kills that process with SIGKILL. A second trainer process is started; JetStream redelivers the
 * unacknowledged job once its ack wait passes, the new worker takes the job over when the dead
 * one's lease runs out, and the chatbot reaches `ready` and answers.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { ask, DemoClient } from "../helpers/chat-client";
import { startStandInModel, StandInModel } from "../helpers/openai-stand-in";
import { crashNodeProcess, NodeProcess, startNodeProcess } from "../helpers/processes";
import { RunningServer, startNats } from "../helpers/servers";

let nats: RunningServer;
let model: StandInModel;
let app: TestApp;
const trainers: NodeProcess[] = [];
const trainerDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-trainer-"));

function embeddingsEnv(): Record<string, string> {
	return { EMBEDDINGS_URL: model.base, EMBEDDINGS_MODEL: "stand-in-embed", EMBEDDINGS_API_KEY: model.apiKey };
}

function startTrainer(nodeId: string): NodeProcess {
	const trainer = startNodeProcess("bin/start.ts", { TRANSPORTER: nats.url, SERVICES: "trainer", DATA_DIR: trainerDir, NODE_ID: nodeId, ...embeddingsEnv() });
	trainers.push(trainer);
	return trainer;
}

/** Waits until the named node offers the trainer service. */
async function trainerOn(nodeId: string): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const nodes = app.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string; nodeID: string }>;
		if (nodes.some(s => s.name === "trainer" && s.nodeID === nodeId)) return;
		await new Promise<void>(resolve => app.broker.localBus.once("$services.changed", () => resolve()));
	}
	throw new Error(`trainer on ${nodeId} did not come up:\n${trainers.map(t => t.output()).join("\n")}`);
}

beforeAll(async () => {
	nats = await startNats();
	model = await startStandInModel();
	app = await startApp({
		env: { TRUST_PROXY: "1", TRANSPORTER: nats.url, NODE_ID: "app-node", SERVICES: "gateway,chatbots,demo-session,storage,vectors,chat", ...embeddingsEnv() }
	});
}, 60_000);
afterAll(async () => {
	for (const trainer of trainers) await trainer.stop();
	await app?.stop();
	await model?.stop();
	await nats?.stop();
	fs.rmSync(trainerDir, { recursive: true, force: true });
});

it("a job whose trainer is killed mid-run is finished by another trainer process", async () => {
	const first = startTrainer("trainer-a");
	await trainerOn("trainer-a");

	const demo = await DemoClient.create(app.baseUrl);
	// Forty sections of a handbook, the fact in the middle: a real, many-chunk run.
	const sections = Array.from({ length: 40 }, (_, i) =>
		i === 20
			? "Warranty\n\nThe warranty of the Zephyr-9 kettle lasts 37 months from the day of delivery."
			: `Chapter ${i + 1}\n\nSection ${i + 1} of the handbook describes routine care of model line ${i + 1}. ` +
				"Rinse the jug, wipe the base with a dry cloth and keep the cord away from the hot plate. ".repeat(6)
	);
	expect((await demo.addText(sections.join("\n\n"))).status).toBe(200);

	const hold = model.holdEmbeddings(inputs => inputs.some(text => text.includes("lasts 37 months")));
	expect((await demo.train()).body.demo.status).toBe("training");
	await hold.arrived; // trainer-a has claimed the job, read and chunked the sources, and waits for embeddings
	const chatbot = await app.broker.call<{ _id: string } | null, object>("chatbots.findBySlug", { slug: demo.slug });
	const { chatbot: during } = await app.broker.call<{ chatbot: { training: { job_id: string } } }, object>("chatbots.get", { id: chatbot?._id, with_sources: false });
	const jobId = during.training.job_id;
	expect(await app.broker.call("trainer.job", { job_id: jobId })).toMatchObject({ status: "running", attempts: 1 });

	await crashNodeProcess(first);
	hold.release(); // only the dead worker was waiting on it

	const killedAt = Date.now();
	startTrainer("trainer-b");
	await trainerOn("trainer-b");
	const ready = await demo.untilReady(90_000).catch(err => {
		throw new Error(`${(err as Error).message}\n--- trainer-b output ---\n${trainers[1].output()}`);
	});
	expect(ready.status).toBe("ready");
	process.stdout.write(`trainer-crash: ready ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill\n`);

	// The job was taken over (a second claim), not started afresh. (Asked of trainer-b by name: the
	// bus may still list the dead node until its heartbeats are missed.)
	expect(await app.broker.call("trainer.job", { job_id: jobId }, { nodeID: "trainer-b" })).toMatchObject({ status: "done", attempts: 2 });
	const reply = await ask(app.baseUrl, demo.slug, "How long is the warranty of the Zephyr-9?");
	expect(reply.body.answer).toContain("37 months");
	expect(reply.body.citations).toHaveLength(1);
}, 150_000);
