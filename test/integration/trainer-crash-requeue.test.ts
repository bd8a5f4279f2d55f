/**
 * What the janitor recovers when a trainer died without JetStream to redeliver its work (the
 * in-memory channel of a single process, or a message lost with its node). A first run of the app
 * leaves chatbots marked `training` whose jobs a dead trainer process left behind in the trainer's
 * store (written in the store's own on-disk format, as that process would have): one stored but
 * never sent, one claimed by a worker whose lease has run out, one that has already killed its
 * worker three times. A second run of the app on the same data directory sweeps: the first two
 * are sent again and finish (`ready`, answering); the third is given up and its chatbot goes back
 * to `queued`, ready to be trained again.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { ask, DemoClient } from "../helpers/chat-client";
import { eventually } from "../helpers/processes";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-requeue-"));
let app: TestApp | undefined;

afterAll(async () => {
	await app?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Abandoned {
	demo: DemoClient;
	jobId: string;
}

/** A demo whose training run was started (chatbot `training`) by a trainer that then died. */
async function abandonedRun(first: TestApp, text: string, job: { status: "queued" | "running"; attempts: number }): Promise<Abandoned> {
	const demo = await DemoClient.create(first.baseUrl);
	await demo.addText(text);
	const chatbot = (await first.broker.call<{ _id: string; sources_version: number } | null, object>("chatbots.findBySlug", { slug: demo.slug })) as { _id: string; sources_version: number };
	const now = Date.now();
	const jobId = `job-${job.status}-${job.attempts}-${now}`;
	const generation = now;
	await first.broker.call("chatbots.trainingStarted", { id: chatbot._id, job_id: jobId, generation, sources_version: chatbot.sources_version, supersede: true });
	const doc = {
		_id: jobId,
		chatbot_id: chatbot._id,
		generation,
		sources_version: chatbot.sources_version,
		chunks: 0,
		error: null,
		finished_at: null,
		status: job.status,
		attempts: job.attempts,
		// A running job's lease ran out a minute ago; a queued one was stored ten minutes ago.
		lease_until: job.status === "running" ? now - 60_000 : 0,
		created_at: now - 600_000,
		updated_at: now - 600_000
	};
	fs.appendFileSync(path.join(dataDir, "training_jobs.db"), `${JSON.stringify(doc)}\n`);
	return { demo, jobId };
}

it("the janitor's sweep re-sends lost and orphaned training jobs, and gives up on one that keeps dying", async () => {
	// First run: no trainer, as if its process had died; the jobs it stored are written below.
	const first = await startApp({ dataDir, env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,vectors,chat" } });
	const lost = await abandonedRun(first, "Warranty\n\nThe warranty lasts 37 months.", { status: "queued", attempts: 0 });
	const orphaned = await abandonedRun(first, "Shipping\n\nShipping inside Norway is free.", { status: "running", attempts: 1 });
	const doomed = await abandonedRun(first, "Lids\n\nReplacement lids cost 14 euros.", { status: "running", attempts: 3 });
	await first.stop();

	// Second run: every service, the janitor among them.
	app = await startApp({ dataDir, env: { TRUST_PROXY: "1" } });
	const a = app;
	for (const run of [lost, orphaned, doomed]) {
		const moved = new DemoClient(a.baseUrl, run.demo.demo);
		expect((await moved.get()).body.demo.status).toBe("training");
	}
	const report = await a.broker.call<{ requeued: { trainings: number }; errors: string[] }, object>("janitor.sweep", {});
	expect(report.errors).toEqual([]);
	expect(report.requeued.trainings).toBe(2);

	for (const [run, question, fact] of [
		[lost, "How long is the warranty?", "37 months"],
		[orphaned, "Is shipping inside Norway free?", "free"]
	] as const) {
		const demo = new DemoClient(a.baseUrl, run.demo.demo);
		await demo.untilReady();
		expect((await ask(a.baseUrl, demo.slug, question)).body.answer).toContain(fact);
		expect(await a.broker.call("trainer.job", { job_id: run.jobId })).toMatchObject({ status: "done" });
	}
	expect(await a.broker.call("trainer.job", { job_id: orphaned.jobId })).toMatchObject({ attempts: 2 });

	const given = new DemoClient(a.baseUrl, doomed.demo.demo);
	const back = await eventually(async () => {
		const { body } = await given.get();
		return body.demo.status === "queued" ? body.demo : undefined;
	}, 10_000, "the given-up run's chatbot to go back to queued");
	expect(back.needs_retrain).toBe(true);
	expect(await a.broker.call("trainer.job", { job_id: doomed.jobId })).toMatchObject({ status: "failed" });
	// Training it again works.
	expect((await given.train()).status).toBe(200);
	await given.untilReady();
	expect((await ask(a.baseUrl, given.slug, "How much does a replacement lid cost?")).body.answer).toContain("14 euros");
});
