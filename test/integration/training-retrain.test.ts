/**
 * Retraining is atomic, and a superseded run never wins. Dense embeddings are configured against
 * a loopback server speaking the OpenAI-compatible protocol (a stand-in for a hosted embeddings
 * model, which cannot be reached here); it can hold the embedding request of a chosen training
 * run, which pauses that run at a known point — after chunking, before anything is activated — so
 * the test can look at the chatbot while the new index is half built.
 */
import { startApp, TestApp } from "../helpers/app";
import { ask, DemoClient, request } from "../helpers/chat-client";
import { startStandInModel, StandInModel } from "../helpers/openai-stand-in";
import { eventually } from "../helpers/processes";

let app: TestApp;
let model: StandInModel;

beforeAll(async () => {
	model = await startStandInModel();
	app = await startApp({
		env: { TRUST_PROXY: "1", EMBEDDINGS_URL: model.base, EMBEDDINGS_MODEL: "stand-in-embed", EMBEDDINGS_API_KEY: model.apiKey }
	});
});
afterAll(async () => {
	await app?.stop();
	await model?.stop();
});

async function chatbotOf(slug: string): Promise<{ _id: string; generation: number; training: { job_id: string; generation: number } | null }> {
	const found = await app.broker.call<{ _id: string } | null, object>("chatbots.findBySlug", { slug });
	return (await app.broker.call<{ chatbot: never }, object>("chatbots.get", { id: found?._id, with_sources: false })).chatbot;
}

const containing = (marker: string) => (inputs: string[]) => inputs.some(text => text.includes(marker));

it("keeps answering from the previous index until the new one is complete", async () => {
	const demo = await DemoClient.create(app.baseUrl);
	await demo.addText("Warranty\n\nThe warranty lasts 37 months from the day of delivery.");
	await demo.train();
	await demo.untilReady();
	const first = await chatbotOf(demo.slug);

	await demo.addText("Returns\n\nUnused kettles can be returned within 45 days for a full refund.");
	expect((await demo.get()).body.demo).toMatchObject({ status: "ready", needs_retrain: true });
	const hold = model.holdEmbeddings(containing("within 45 days"));
	expect((await demo.train()).body.demo.status).toBe("training");
	await hold.arrived; // the new run has chunked its sources and is embedding them

	const during = await chatbotOf(demo.slug);
	expect(during.training?.generation).toBeGreaterThan(first.generation);
	const info = await request(`${app.baseUrl}/api/chat/${demo.slug}`);
	expect(info.body).toMatchObject({ status: "training", can_answer: true });
	// The old generation answers; the half-built new one is invisible.
	expect((await ask(app.baseUrl, demo.slug, "How long is the warranty?")).body.answer).toContain("37 months");
	expect((await ask(app.baseUrl, demo.slug, "How many days do I have to return a kettle for a refund?")).body.answered).toBe(false);
	expect(await app.broker.call("vectors.activeGeneration", { chatbot_id: first._id })).toEqual({ active: first.generation });

	hold.release();
	await demo.untilReady();
	const returns = await ask(app.baseUrl, demo.slug, "How many days do I have to return a kettle for a refund?");
	expect(returns.body.answer).toContain("45 days");
	expect((await ask(app.baseUrl, demo.slug, "How long is the warranty?")).body.answer).toContain("37 months");
	const after = await chatbotOf(demo.slug);
	expect(after.generation).toBe(during.training?.generation);
	expect(await app.broker.call("vectors.activeGeneration", { chatbot_id: first._id })).toEqual({ active: after.generation });

	// Every request to the stand-in carried the configured model and key.
	const embeddingCalls = model.requests.filter(r => r.path === "/v1/embeddings");
	expect(embeddingCalls.length).toBeGreaterThan(2);
	expect(embeddingCalls.every(r => r.body.model === "stand-in-embed" && r.authorization === `Bearer ${model.apiKey}`)).toBe(true);
});

it("skips a run superseded by a newer one, which alone becomes the index", async () => {
	const demo = await DemoClient.create(app.baseUrl);
	await demo.addText("Descaling\n\nDescale the kettle every 11 weeks with citric acid.");
	const hold = model.holdEmbeddings(containing("every 11 weeks"));
	await demo.train();
	await hold.arrived;
	const older = (await chatbotOf(demo.slug)).training as { job_id: string; generation: number };

	await demo.addText("Lids\n\nReplacement lids cost 14 euros in the Tromsø shop.");
	await demo.train();
	const newer = (await chatbotOf(demo.slug)).training as { job_id: string; generation: number };
	expect(newer.job_id).not.toBe(older.job_id);
	expect(newer.generation).toBeGreaterThan(older.generation);

	hold.release();
	await demo.untilReady();
	const finalState = await chatbotOf(demo.slug);
	expect(finalState.generation).toBe(newer.generation);
	const jobOf = (id: string) => app.broker.call<{ status: string } | null, object>("trainer.job", { job_id: id });
	// The older run finishes its own work after the newer one started: it must step aside.
	const olderOutcome = await eventually(async () => {
		const status = (await jobOf(older.job_id))?.status;
		return status === "running" || status === "queued" ? undefined : status;
	}, 10_000, "the older run to finish");
	expect(olderOutcome).toBe("superseded");
	expect((await jobOf(newer.job_id))?.status).toBe("done");
	expect(await app.broker.call("vectors.activeGeneration", { chatbot_id: finalState._id })).toEqual({ active: newer.generation });
	const reply = await ask(app.baseUrl, demo.slug, "How much does a replacement lid cost?");
	expect(reply.body.answer).toContain("14 euros");
	expect((await ask(app.baseUrl, demo.slug, "How often should I descale the kettle?")).body.answer).toContain("11 weeks");
});
