/**
 * Training end to end through the public APIs of the real app (every service in one process,
 * embedded document store and vector index): a demo learns from a pasted text, a web page on a
 * loopback site (fetched by the real crawler) and an uploaded PDF (extracted by the real
 * extractor), trains in the background, reaches `ready`, and its chat API answers each fact citing
 * the source it came from — and says it found nothing for a question its sources do not cover.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { ask, DemoClient, request } from "../helpers/chat-client";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";

let app: TestApp;
let site: LoopbackSite;

beforeAll(async () => {
	site = await startSite({
		"/warranty": html(
			"<!doctype html><html><head><title>Nordlicht warranty</title></head><body><main><h1>Warranty</h1>" +
				"<p>The warranty lasts 37 months. It covers the heating element and the switch, but not limescale damage.</p>" +
				"<p>Claims are handled by the Bergen workshop, which answers within five working days.</p></main></body></html>"
		)
	});
	app = await startApp({ env: { TRUST_PROXY: "1", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" } });
});
afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

describe("a demo trained from a text, a URL and a file", () => {
	let demo: DemoClient;

	beforeAll(async () => {
		demo = await DemoClient.create(app.baseUrl);
		expect((await demo.addText("Showroom hours\n\nThe Oslo showroom opens at 9:30 on Saturdays and stays closed on Sundays.")).status).toBe(200);
		expect((await demo.addUrl(`${site.origin}/warranty`)).status).toBe(200);
		const pdf = fs.readFileSync(path.join(__dirname, "../fixtures/facts.pdf"));
		expect((await demo.addFile("facts.pdf", "application/pdf", pdf)).status).toBe(200);
		await demo.until(d => d.sources.files.every(f => f.status === "ready"), "the PDF to be extracted");

		const trained = await demo.train();
		expect(trained.status).toBe(200);
		// trainDemoSession answers at once; the work happens in the background.
		expect(trained.body.demo.status).toBe("training");
		const ready = await demo.untilReady();
		expect(ready).toMatchObject({ status: "ready", needs_retrain: false });
	}, 60_000);

	it("answers a fact of the web page and cites the page by its URL", async () => {
		const reply = await ask(app.baseUrl, demo.slug, "How long is the warranty?");
		expect(reply.status).toBe(200);
		expect(reply.body.answer).toContain("37 months");
		expect(reply.body.answered).toBe(true);
		expect(reply.body.citations).toContainEqual(expect.objectContaining({ url: `${site.origin}/warranty`, title: "Nordlicht warranty" }));
	});

	it("answers a fact of the pasted text and cites the text", async () => {
		const reply = await ask(app.baseUrl, demo.slug, "When does the Oslo showroom open on Saturdays?");
		expect(reply.body.answer).toContain("9:30");
		const sessionTexts = (await demo.get()).body.demo.sources.texts.map(t => t.id);
		expect(reply.body.citations.map(c => c.source_id)).toEqual(sessionTexts);
	});

	it("answers a fact of the uploaded file and cites the file by name", async () => {
		const reply = await ask(app.baseUrl, demo.slug, "How often should the Zephyr-9 be descaled?");
		expect(reply.body.answer).toContain("11 weeks");
		expect(reply.body.citations).toEqual([expect.objectContaining({ file_name: "facts.pdf" })]);
	});

	it("says it found nothing, citing nothing, for a question its sources do not cover", async () => {
		const reply = await ask(app.baseUrl, demo.slug, "Who won the football world cup in 1998?");
		expect(reply.status).toBe(200);
		expect(reply.body).toMatchObject({ answered: false, citations: [], answer: "I couldn't find that in this chatbot's sources." });
	});

	it("counts every answered message in the session", async () => {
		const before = (await demo.get()).body.demo.messages_used;
		await ask(app.baseUrl, demo.slug, "How long is the warranty?");
		expect((await demo.get()).body.demo.messages_used).toBe(before + 1);
	});
});

describe("trainDemoSession refusals", () => {
	it("answers 422 empty for a session without sources, and writes nothing", async () => {
		const demo = await DemoClient.create(app.baseUrl);
		const refused = await demo.train();
		expect(refused.status).toBe(422);
		expect(refused.body).toMatchObject({ ok: false, code: "empty" });
		expect((await demo.get()).body.demo.status).toBe("queued");
		const jobs = fs.existsSync(path.join(app.dataDir, "training_jobs.db")) ? fs.readFileSync(path.join(app.dataDir, "training_jobs.db"), "utf8") : "";
		const chatbotId = (await app.broker.call<{ _id: string } | null, object>("chatbots.findBySlug", { slug: demo.slug }))?._id as string;
		expect(jobs).not.toContain(chatbotId);
	});

	it("answers 422 empty while the only file is still waiting for extraction", async () => {
		const demo = await DemoClient.create(app.baseUrl);
		const chatbotId = (await app.broker.call<{ _id: string } | null, object>("chatbots.findBySlug", { slug: demo.slug }))?._id as string;
		// A pending source (extraction not run): nothing is trainable yet.
		await app.broker.call("chatbots.addSource", { id: chatbotId, kind: "file", status: "pending", file_name: "later.pdf", storage_key: `demo/${chatbotId}/x/later.pdf` });
		const refused = await demo.train();
		expect(refused.status).toBe(422);
		expect(refused.body.code).toBe("empty");
	});

	it("an unknown session is 404 expired", async () => {
		const refused = await request(`${app.baseUrl}/api/tools/sessions/no-such-session/training`, { method: "POST" });
		expect(refused.status).toBe(404);
		expect(refused.body.code).toBe("expired");
	});
});

describe("a Spanish demo", () => {
	it("trains and answers in Spanish, and refuses in Spanish when nothing matches", async () => {
		const demo = await DemoClient.create(app.baseUrl, "es");
		await demo.addText("Horario\n\nLa tienda de Sevilla abre a las diez de la mañana de lunes a sábado.\n\nLos envíos a Canarias tardan cuatro días laborables.");
		await demo.train();
		await demo.untilReady();
		const reply = await ask(app.baseUrl, demo.slug, "¿Cuánto tardan los envíos a Canarias?");
		expect(reply.body.answer).toContain("cuatro días laborables");
		const refusal = await ask(app.baseUrl, demo.slug, "¿Quién escribió el Quijote?");
		expect(refusal.body).toMatchObject({ answered: false, answer: "No encontré eso en las fuentes de este chatbot." });
	});
});
