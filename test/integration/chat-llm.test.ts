/**
 * The OpenAI-compatible paths end to end: training with dense embeddings and answering with a
 * grounded LLM, streamed to the HTTP client token by token. The model is a loopback server speaking
 * the protocol (a stand-in for a hosted model, which cannot be reached from here); what is tested
 * is our side: the prompt, SSE relaying as tokens arrive, citations of retrieved passages only,
 * the grounded refusal, and what happens when the model fails before or during an answer.
 */
import { startApp, TestApp } from "../helpers/app";
import { ask, askStream, DemoClient } from "../helpers/chat-client";
import { startStandInModel, StandInModel } from "../helpers/openai-stand-in";

let app: TestApp;
let model: StandInModel;
let demo: DemoClient;
let sourceId: string;

beforeAll(async () => {
	model = await startStandInModel();
	app = await startApp({
		env: {
			TRUST_PROXY: "1",
			EMBEDDINGS_URL: model.base,
			EMBEDDINGS_MODEL: "stand-in-embed",
			EMBEDDINGS_API_KEY: model.apiKey,
			LLM_URL: model.base,
			LLM_MODEL: "stand-in-chat",
			LLM_API_KEY: model.apiKey
		}
	});
	demo = await DemoClient.create(app.baseUrl);
	const added = await demo.addText(
		"Nordlicht Kettles\n\nThe warranty lasts 37 months from the day of delivery.\n\nShipping inside Norway is free. Orders leave the Bergen workshop within two working days."
	);
	sourceId = added.body.demo.sources.texts[0].id;
	await demo.train();
	await demo.untilReady();
});
afterEach(() => {
	model.beforeToken = undefined;
	model.failChat = false;
	model.cutStreamAfter = undefined;
});
afterAll(async () => {
	await app?.stop();
	await model?.stop();
});

const chatCalls = () => model.requests.filter(r => r.path === "/v1/chat/completions");

it("embedded the chunks at training time with the configured model", () => {
	const embeddings = model.requests.filter(r => r.path === "/v1/embeddings");
	expect(embeddings.some(r => (r.body.input as string[]).some(t => t.includes("37 months")))).toBe(true);
	expect(embeddings.every(r => r.body.model === "stand-in-embed" && r.authorization === `Bearer ${model.apiKey}`)).toBe(true);
});

it("streams the model's tokens to the client one by one, then the citations", async () => {
	// The model writes its second token only once the client has received the first: a gateway or
	// bus that buffered the answer would never deliver that first token, and the test would time out.
	let firstSeen!: () => void;
	const seen = new Promise<void>(resolve => (firstSeen = resolve));
	model.beforeToken = async index => {
		if (index === 1) await seen;
	};
	const streamed = await askStream(app.baseUrl, demo.slug, "How long is the warranty?", event => {
		if (event.event === "token") firstSeen();
	});
	expect(streamed.status).toBe(200);
	const tokens = streamed.events.filter(e => e.event === "token").map(e => e.data.text as string);
	expect(tokens.length).toBeGreaterThan(3);
	expect(tokens.join("")).toBe("The warranty lasts 37 months from the day of delivery. [1]");
	expect(streamed.events.find(e => e.event === "citations")?.data.citations).toEqual([{ source_id: sourceId, title: "Nordlicht Kettles" }]);
	expect(streamed.events.at(-1)).toMatchObject({ event: "done", data: { answered: true } });

	const call = chatCalls().at(-1);
	expect(call?.body).toMatchObject({ model: "stand-in-chat", stream: true });
	expect(call?.authorization).toBe(`Bearer ${model.apiKey}`);
	const [system, user] = call?.body.messages as Array<{ role: string; content: string }>;
	expect(system.role).toBe("system");
	expect(system.content).toContain("ONLY the numbered passages");
	expect(user.content).toContain("[1] Nordlicht Kettles");
	expect(user.content).toContain("Question: How long is the warranty?");
});

it("answers as JSON with the same grounded answer and citations", async () => {
	const reply = await ask(app.baseUrl, demo.slug, "Where do orders leave from?");
	expect(reply.status).toBe(200);
	expect(reply.body.answer).toContain("Bergen workshop");
	expect(reply.body.citations).toEqual([{ source_id: sourceId, title: "Nordlicht Kettles" }]);
});

it("cites nothing when the model finds no answer in the passages", async () => {
	const reply = await ask(app.baseUrl, demo.slug, "Which football club won the 1998 final?");
	expect(reply.body).toMatchObject({ answered: false, citations: [], answer: "I couldn't find that in this chatbot's sources." });
});

it("falls back to the extractive answer when the model fails before answering", async () => {
	model.failChat = true;
	const before = chatCalls().length;
	const reply = await ask(app.baseUrl, demo.slug, "How long is the warranty?");
	expect(chatCalls().length).toBe(before + 1); // the model was asked, and refused
	expect(reply.status).toBe(200);
	expect(reply.body.answer).toContain("37 months");
	expect(reply.body.citations).toEqual([{ source_id: sourceId, title: "Nordlicht Kettles" }]);
});

it("ends the stream with an error event when the model breaks off mid-answer", async () => {
	model.cutStreamAfter = 2;
	const streamed = await askStream(app.baseUrl, demo.slug, "How long is the warranty?");
	expect(streamed.status).toBe(200);
	expect(streamed.events.filter(e => e.event === "token").length).toBe(2);
	const last = streamed.events.at(-1);
	expect(last?.event).toBe("error");
	expect(last?.data).toMatchObject({ ok: false, code: "unavailable", status: 503 });
	expect(streamed.events.some(e => e.event === "done")).toBe(false);
});
