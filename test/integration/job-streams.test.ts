/**
 * The durable job machinery on real JetStream: streams are bounded (age, size, replicas), a job
 * whose last attempt fails is reported to its owner, marked failed and published as a dead
 * letter, a job running when its process drains is handed to the next worker without using
 * up a delivery or an attempt, and a job stored by a process that died before sending it is sent
 * when it is asked for again.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Context, ServiceBroker, ServiceSchema } from "moleculer";
import { connect, NatsConnection } from "nats";
import { loadConfig } from "../../config";
import type { JobDoc } from "../../lib/jobs/durable-job";
import { DEAD_LETTER_CHANNEL, DeadLetter, DurableJobMethods, DurableJobMixin, JobRun } from "../../mixins/durable-job.mixin";
import { brokerOptions } from "../../moleculer.config";
import { drainBroker } from "../../services/ops/drain";
import { eventually } from "../helpers/processes";
import { RunningServer, startNats } from "../helpers/servers";

type ProbeJob = JobDoc & { mode: "deadline" | "hold" | "gate" | "quick" };

let nats: RunningServer;
let nc: NatsConnection;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-job-streams-"));
const letters: DeadLetter[] = [];
const givenUp: string[] = [];
const started: Array<{ id: string; node: string }> = [];
let releaseHeld = false;
let gateOpen = false;

function makeBroker(nodeID: string, withReader: boolean): ServiceBroker {
	const config = loadConfig({ TRANSPORTER: nats.url, SINGLE_MACHINE: "true", DATA_DIR: dataDir, NODE_ID: nodeID, LOG_LEVEL: "error", JETSTREAM_MAX_AGE_HOURS: "2", JETSTREAM_MAX_MB: "64" });
	const broker = new ServiceBroker({ ...brokerOptions(config), logger: false });
	const worker: ServiceSchema = {
		name: "probe-worker",
		mixins: [
			DurableJobMixin<ProbeJob>(config, {
				collection: "probe-jobs",
				channel: "probe.jobs",
				group: "probe-worker",
				maxInFlight: 1,
				leaseMs: 2_000,
				staleMs: 600_000,
				maxAttempts: 1,
				maxRunMs: job => (job.mode === "deadline" ? 300 : 60_000),
				keepFinishedMs: 600_000
			}) as ServiceSchema
		],
		actions: {
			enqueue: {
				params: { id: "string", mode: "string" },
				handler(ctx: Context<{ id: string; mode: string }>) {
					return (this as unknown as DurableJobMethods<ProbeJob>).enqueueJob({ _id: ctx.params.id, mode: ctx.params.mode as ProbeJob["mode"] });
				}
			},
			/** Stores a job without sending it: what a process that died between the two leaves behind. */
			storeOnly: {
				params: { id: "string", mode: "string" },
				async handler(ctx: Context<{ id: string; mode: string }>) {
					return (await (this as unknown as DurableJobMethods<ProbeJob>).storeJob({ _id: ctx.params.id, mode: ctx.params.mode as ProbeJob["mode"] })).job;
				}
			},
			job: {
				params: { id: "string" },
				handler(ctx: Context<{ id: string }>) {
					return (this as unknown as DurableJobMethods<ProbeJob>).jobs().findOne({ _id: ctx.params.id });
				}
			}
		},
		methods: {
			async runJob(job: ProbeJob, run: JobRun) {
				started.push({ id: job._id, node: nodeID });
				// "deadline" waits for its 300 ms limit, "hold" and "gate" until released (or halted); "quick" is done at once.
				while (job.mode !== "quick" && !(job.mode === "hold" && releaseHeld) && !(job.mode === "gate" && gateOpen)) {
					run.checkpoint();
					await new Promise(resolve => setTimeout(resolve, 50));
				}
			},
			async giveUpJob(job: ProbeJob) {
				givenUp.push(job._id);
			}
		}
	};
	broker.createService(worker);
	if (withReader) {
		broker.createService({
			name: "dead-letter-reader",
			channels: { [DEAD_LETTER_CHANNEL]: { group: "dead-letter-reader", handler: async (letter: DeadLetter) => void letters.push(letter) } }
		} as ServiceSchema);
	}
	return broker;
}

beforeAll(async () => {
	nats = await startNats();
	nc = await connect({ servers: nats.url });
});
afterAll(async () => {
	await nc?.close();
	await nats?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("bounds the job streams, dead-letters a job whose last attempt failed, and hands a draining worker's job on", async () => {
	const first = makeBroker("worker-1", true);
	await first.start();

	// Bounded, replicated as configured, kept by limits: the work stream and the dead-letter stream.
	const jsm = await nc.jetstreamManager();
	for (const stream of ["chatbot-builder_probe_jobs", "chatbot-builder_jobs_dead-letter"]) {
		const { config } = await jsm.streams.info(stream);
		expect({ stream, retention: config.retention, max_age: config.max_age, max_bytes: config.max_bytes, replicas: config.num_replicas }).toEqual({
			stream,
			retention: "limits",
			max_age: 2 * 3600 * 1e9,
			max_bytes: 64 * 1024 * 1024,
			replicas: 1
		});
	}

	// The last (and only) attempt runs out of time: the owner hears, the job fails, a dead letter says so.
	await first.call("probe-worker.enqueue", { id: "doomed", mode: "deadline" });
	const letter = await eventually(async () => letters.find(l => l.job_id === "doomed"), 30_000, "the dead letter");
	expect(letter).toMatchObject({ channel: "probe.jobs", attempts: 1, reason: expect.stringContaining("did not finish within") });
	expect(givenUp).toEqual(["doomed"]);
	expect(await first.call("probe-worker.job", { id: "doomed" })).toMatchObject({ status: "failed" });

	// A job running when its process drains is handed back, not failed and not counted.
	await first.call("probe-worker.enqueue", { id: "held", mode: "hold" });
	await eventually(async () => (started.some(s => s.id === "held") ? true : undefined), 30_000, "the held job to start");
	await drainBroker(first, 0);

	releaseHeld = true;
	const second = makeBroker("worker-2", false);
	await second.start();
	try {
		const done = await eventually(async () => {
			const job = (await second.call("probe-worker.job", { id: "held" })) as ProbeJob | null;
			return job?.status === "done" ? job : undefined;
		}, 30_000, "the held job to finish on the next worker");
		expect(done.attempts).toBe(1); // the drained attempt was given back
		expect(started.filter(s => s.id === "held").map(s => s.node)).toEqual(["worker-1", "worker-2"]);
		expect(givenUp).toEqual(["doomed"]);
		// The handed-back job travelled as a new message: no delivery of the stream was redelivered.
		const consumer = await jsm.consumers.info("chatbot-builder_probe_jobs", "probe-worker");
		expect(consumer.num_redelivered).toBe(0);
	} finally {
		await second.stop();
	}
}, 120_000);

it("a job stored but never sent (its process died in between) is sent when it is asked for again; one already sent is not", async () => {
	const broker = makeBroker("worker-3", false);
	await broker.start();
	const jsm = await nc.jetstreamManager();
	const messages = async () => (await jsm.streams.info("chatbot-builder_probe_jobs")).state.messages;
	const status = async (id: string) => ((await broker.call("probe-worker.job", { id })) as ProbeJob | null)?.status;
	try {
		// One job holds the worker's only slot, so the next one stays queued with its message out.
		await broker.call("probe-worker.enqueue", { id: "blocker", mode: "gate" });
		await eventually(async () => (started.some(s => s.id === "blocker") ? true : undefined), 30_000, "the blocker to start");
		await broker.call("probe-worker.enqueue", { id: "waiting", mode: "quick" });
		expect(await broker.call("probe-worker.job", { id: "waiting" })).toMatchObject({ status: "queued", sent_at: expect.any(Number) });
		const before = await messages();
		await broker.call("probe-worker.enqueue", { id: "waiting", mode: "quick" });
		expect(await messages()).toBe(before);

		// Stored, never sent: asking again (as the chatbots service's sweep does every minute) sends it.
		expect(await broker.call("probe-worker.storeOnly", { id: "orphan", mode: "quick" })).toMatchObject({ status: "queued", sent_at: null });
		await broker.call("probe-worker.enqueue", { id: "orphan", mode: "quick" });
		expect(await messages()).toBe(before + 1);

		gateOpen = true;
		for (const id of ["blocker", "waiting", "orphan"]) await eventually(async () => ((await status(id)) === "done" ? true : undefined), 30_000, `${id} to finish`);
		expect(started.filter(s => ["waiting", "orphan"].includes(s.id)).map(s => s.id).sort()).toEqual(["orphan", "waiting"]);
	} finally {
		await broker.stop();
	}
}, 60_000);
