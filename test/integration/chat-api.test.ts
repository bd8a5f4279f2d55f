/**
 * The chat API over real HTTP against the real app: public info, JSON and streamed answers (checked
 * against the published schemas), conversations, the atomic message cap, refusals before training,
 * validation, CORS for other sites, the `chat` rate budget, and the widget's usage beacons.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { SCHEMAS } from "../../lib/http/schemas";
import { startApp, TestApp } from "../helpers/app";
import { ask, askStream, DemoClient, nextIp, request } from "../helpers/chat-client";
import { eventually } from "../helpers/processes";

let app: TestApp;
let demo: DemoClient;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
for (const [name, schema] of Object.entries(SCHEMAS)) ajv.addSchema(schema, `#/components/schemas/${name}`);
const validReply = ajv.getSchema("#/components/schemas/ChatReply")!;
const validInfo = ajv.getSchema("#/components/schemas/ChatbotInfo")!;
const validError = ajv.getSchema("#/components/schemas/Error")!;

const SOURCE = [
	"Nordlicht Kettles",
	"",
	"The warranty lasts 37 months from the day of delivery.",
	"",
	"Shipping inside Norway is free. Orders ship from Bergen within two working days."
].join("\n");

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1" } });
	demo = await DemoClient.create(app.baseUrl);
	await demo.addText(SOURCE);
	await demo.train();
	await demo.untilReady();
});
afterAll(() => app?.stop());

/** A chatbot with a small message cap, trained through the services (the demo API's cap is 20). */
async function smallCapChatbot(locale: "en" | "es", maxMessages: number, text: string): Promise<{ id: string; slug: string }> {
	const chatbot = await app.broker.call<{ _id: string; slug: string }, object>("chatbots.create", {
		kind: "sandbox",
		locale,
		limits: { max_urls: 5, max_files: 0, max_chars: 50_000, max_messages: maxMessages, max_pages: 5 }
	});
	await app.broker.call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text });
	await app.broker.call("trainer.start", { chatbot_id: chatbot._id });
	await eventually(async () => {
		const { chatbot: got } = await app.broker.call<{ chatbot: { generation: number; training: unknown } }, object>("chatbots.get", { id: chatbot._id, with_sources: false });
		return got.generation > 0 && got.training === null ? true : undefined;
	}, 20_000, "training");
	return { id: chatbot._id, slug: chatbot.slug };
}

describe("GET /api/chat/{slug}", () => {
	it("returns the public info of a trained chatbot, matching ChatbotInfo", async () => {
		const info = await request(`${app.baseUrl}/api/chat/${demo.slug}`);
		expect(info.status).toBe(200);
		expect(validInfo(info.body)).toBe(true);
		expect(info.body).toMatchObject({ ok: true, slug: demo.slug, name: "Demo chatbot", locale: "en", status: "ready", can_answer: true, max_messages: 20 });
		expect(info.headers.get("ratelimit-policy")).toBe('"chat"; q=60; w=60');
		expect(info.headers.get("cache-control")).toBe("no-store");
	});

	it("answers 404 not_found for an unknown slug", async () => {
		const missing = await request(`${app.baseUrl}/api/chat/nosuchslug000`);
		expect(missing.status).toBe(404);
		expect(validError(missing.body)).toBe(true);
		expect(missing.body.code).toBe("not_found");
	});
});

describe("POST /api/chat/{slug}/messages", () => {
	it("answers as JSON matching ChatReply, with the fact and its citation", async () => {
		const reply = await ask(app.baseUrl, demo.slug, "How long is the warranty?");
		expect(reply.status).toBe(200);
		expect(validReply(reply.body)).toBe(true);
		expect(reply.body.answer).toContain("37 months");
		expect(reply.body.citations).toEqual([{ source_id: expect.any(String), title: "Nordlicht Kettles" }]);
		expect(reply.body.max_messages).toBe(20);
	});

	it("streams token, citations and done events that add up to the JSON answer", async () => {
		const json = await ask(app.baseUrl, demo.slug, "Is shipping free inside Norway?");
		const streamed = await askStream(app.baseUrl, demo.slug, "Is shipping free inside Norway?");
		expect(streamed.status).toBe(200);
		expect(streamed.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
		expect(streamed.headers.get("ratelimit-policy")).toBe('"chat"; q=60; w=60');
		const names = streamed.events.map(e => e.event);
		expect(names.slice(-2)).toEqual(["citations", "done"]);
		expect(names.slice(0, -2).every(n => n === "token")).toBe(true);
		const text = streamed.events.filter(e => e.event === "token").map(e => e.data.text).join("");
		expect(text).toBe(json.body.answer);
		expect(text).toContain("free");
		expect(streamed.events.at(-2)?.data.citations).toEqual(json.body.citations);
		expect(streamed.events.at(-1)?.data).toEqual({
			answered: true,
			conversation_id: expect.any(String),
			messages_used: json.body.messages_used + 1,
			max_messages: 20
		});
	});

	it("continues a conversation with its conversation_id, and starts a new one for an unknown id", async () => {
		const first = await ask(app.baseUrl, demo.slug, "How long is the warranty?");
		const second = await ask(app.baseUrl, demo.slug, "Where do orders ship from?", { conversation_id: first.body.conversation_id });
		expect(second.body.conversation_id).toBe(first.body.conversation_id);
		expect(second.body.answer).toContain("Bergen");
		const stranger = await ask(app.baseUrl, demo.slug, "Is shipping free?", { conversation_id: "00000000-0000-0000-0000-000000000000" });
		expect(stranger.status).toBe(200);
		expect(stranger.body.conversation_id).not.toBe("00000000-0000-0000-0000-000000000000");
		// Both exchanges are stored under one conversation.
		const stored = fs.readFileSync(path.join(app.dataDir, "conversations.db"), "utf8");
		const lines = stored.split("\n").filter(l => l.includes(first.body.conversation_id));
		const latest = JSON.parse(lines.at(-1) as string) as { turns: Array<{ role: string; text: string }> };
		expect(latest.turns.map(t => t.text)).toEqual(["How long is the warranty?", first.body.answer, "Where do orders ship from?", second.body.answer]);
	});

	it("reads a misspelled word as the word the sources use, and keeps the question as it was typed", async () => {
		const { slug } = await smallCapChatbot("en", 5, "Support: the help desk answers on weekdays between 08:15 and 16:45.\n\nThe kettle should be descaled every 11 weeks.");
		const reply = await ask(app.baseUrl, slug, "How often should the kettle be desacled?");
		expect(reply.status).toBe(200);
		expect(reply.body.answer).toContain("every 11 weeks");
		const stored = fs.readFileSync(path.join(app.dataDir, "conversations.db"), "utf8");
		const line = stored.split("\n").filter(l => l.includes(reply.body.conversation_id)).at(-1) as string;
		expect((JSON.parse(line) as { turns: Array<{ text: string }> }).turns[0].text).toBe("How often should the kettle be desacled?");
	});

	it("reads a slip in the only word that finds the page as the word the chatbot's sources use", async () => {
		// Spanish has no lexicon, and the question's retrieval meets nothing: the chatbot's index is
		// searched for the words one edit from "dsecalcificar".
		const { slug } = await smallCapChatbot("es", 5, "La garantía dura 37 meses.\n\nHay que descalcificar el hervidor cada 11 semanas.\n\nLos pedidos salen de Bergen.");
		const reply = await ask(app.baseUrl, slug, "¿Cuándo hay que dsecalcificar?");
		expect(reply.status).toBe(200);
		expect(reply.body.answer).toContain("cada 11 semanas");
	});

	it("refuses invalid messages with 400 validation_failed and invalid JSON with 400 invalid_json", async () => {
		for (const body of [{}, { message: "" }, { message: "x".repeat(2001) }, { message: "hi", extra: 1 }]) {
			const refused = await request(`${app.baseUrl}/api/chat/${demo.slug}/messages`, { body });
			expect(refused.status).toBe(400);
			expect(refused.body.code).toBe("validation_failed");
		}
		const blank = await ask(app.baseUrl, demo.slug, "   ");
		expect(blank.status).toBe(400);
		const broken = await fetch(`${app.baseUrl}/api/chat/${demo.slug}/messages`, {
			method: "POST",
			headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp() },
			body: "{not json"
		});
		expect(broken.status).toBe(400);
		expect(((await broken.json()) as { code: string }).code).toBe("invalid_json");
	});

	it("answers 404 for an unknown chatbot and 409 (in the chatbot's language) before the first training, counting nothing", async () => {
		expect((await ask(app.baseUrl, "nosuchslug000", "hello?")).status).toBe(404);
		const spanish = await DemoClient.create(app.baseUrl, "es");
		await spanish.addText("La tienda abre a las diez.");
		const early = await ask(app.baseUrl, spanish.slug, "¿A qué hora abre la tienda?");
		expect(early.status).toBe(409);
		expect(early.body).toMatchObject({ code: "conflict", message: "Este chatbot todavía está aprendiendo sus fuentes. Vuelve a intentarlo en un momento." });
		const streamed = await askStream(app.baseUrl, spanish.slug, "¿A qué hora abre la tienda?");
		expect(streamed.status).toBe(409); // refusals are JSON errors, never streams
		expect(streamed.errorBody?.code).toBe("conflict");
		expect((await spanish.get()).body.demo.messages_used).toBe(0);
	});
});

describe("message cap", () => {
	it("answers exactly max_messages messages under concurrency, then 422 message_cap in the chatbot's language", async () => {
		const chatbot = await smallCapChatbot("es", 3, "Horario\n\nLa tienda de Sevilla abre a las diez de la mañana.");
		const replies = await Promise.all(Array.from({ length: 6 }, () => ask(app.baseUrl, chatbot.slug, "¿A qué hora abre la tienda de Sevilla?")));
		const statuses = replies.map(r => r.status).sort();
		expect(statuses).toEqual([200, 200, 200, 422, 422, 422]);
		expect(replies.filter(r => r.status === 200).map(r => r.body.messages_used).sort()).toEqual([1, 2, 3]);
		const refusal = replies.find(r => r.status === 422)?.body;
		expect(refusal).toMatchObject({ code: "message_cap", message: "Este chatbot alcanzó su límite de 3 mensajes y no puede responder más preguntas." });
		expect(validError(refusal)).toBe(true);
		const streamed = await askStream(app.baseUrl, chatbot.slug, "¿A qué hora abre?");
		expect(streamed.status).toBe(422);
		expect(streamed.errorBody?.code).toBe("message_cap");
		const { chatbot: stored } = await app.broker.call<{ chatbot: { counts: { messages: number } } }, object>("chatbots.get", { id: chatbot.id, with_sources: false });
		expect(stored.counts.messages).toBe(3);
	});

	it("says so in English for an English chatbot", async () => {
		const chatbot = await smallCapChatbot("en", 1, "The shop opens at ten.");
		expect((await ask(app.baseUrl, chatbot.slug, "When does the shop open?")).status).toBe(200);
		const refused = await ask(app.baseUrl, chatbot.slug, "When does the shop open?");
		expect(refused.status).toBe(422);
		expect(refused.body.message).toBe("This chatbot has reached its limit of 1 message, so it can't answer more questions.");
	});
});

describe("calls from other websites (CORS)", () => {
	const origin = "https://shop.example";

	it("answers preflights for the chat API and the beacon", async () => {
		for (const target of [`/api/chat/${demo.slug}/messages`, "/t/e"]) {
			const preflight = await fetch(`${app.baseUrl}${target}`, {
				method: "OPTIONS",
				headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" }
			});
			expect(preflight.status).toBe(204);
			expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
			expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
			expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
			expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
		}
	});

	it("marks answers, errors and refusals of the budget as readable by any origin", async () => {
		const ip = nextIp();
		const headers = { Origin: origin };
		const ok = await request(`${app.baseUrl}/api/chat/${demo.slug}/messages`, { body: { message: "How long is the warranty?" }, headers, ip });
		expect(ok.headers.get("access-control-allow-origin")).toBe("*");
		expect(ok.headers.get("access-control-expose-headers")).toContain("RateLimit-Remaining");
		const missing = await request(`${app.baseUrl}/api/chat/nosuchslug000`, { headers, ip });
		expect(missing.status).toBe(404);
		expect(missing.headers.get("access-control-allow-origin")).toBe("*");
		// The chat budget is 60 a minute per address; two requests are spent above.
		const rest = await Promise.all(Array.from({ length: 59 }, () => request(`${app.baseUrl}/api/chat/${demo.slug}`, { headers, ip })));
		const limited = rest.filter(r => r.status === 429);
		expect(limited).toHaveLength(1);
		expect(limited[0].body.code).toBe("rate_limited");
		expect(limited[0].headers.get("retry-after")).toMatch(/^\d+$/);
		expect(limited[0].headers.get("access-control-allow-origin")).toBe("*");
	});

	it("answers any other OPTIONS without CORS headers and without running the route", async () => {
		const before = fs.readFileSync(path.join(app.dataDir, "demo_sessions.db"), "utf8").length;
		const preflight = await fetch(`${app.baseUrl}/api/tools/sessions`, {
			method: "OPTIONS",
			headers: { Origin: origin, "Access-Control-Request-Method": "POST", "X-Forwarded-For": nextIp() }
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
		expect(preflight.headers.get("allow")).toBe("POST, OPTIONS");
		// No session was created by it.
		expect(fs.readFileSync(path.join(app.dataDir, "demo_sessions.db"), "utf8").length).toBe(before);
		const plain = await fetch(`${app.baseUrl}/api/chat/${demo.slug}`, { method: "OPTIONS" });
		expect(plain.status).toBe(204);
		expect(plain.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
		expect((await fetch(`${app.baseUrl}/no/such/path`, { method: "OPTIONS" })).status).toBe(404);
	});

	it("does not add CORS headers to the chat page or other routes", async () => {
		const page = await fetch(`${app.baseUrl}/c/${demo.slug}`, { headers: { Origin: origin } });
		expect(page.headers.get("access-control-allow-origin")).toBeNull();
		const session = await request(`${app.baseUrl}/api/tools/sessions/${demo.demo.session_id}`, { headers: { Origin: origin } });
		expect(session.headers.get("access-control-allow-origin")).toBeNull();
	});
});

describe("POST /t/e (usage beacons)", () => {
	it("counts widget_opened and message_sent per chatbot and day, answering 204", async () => {
		const beacon = (event: string, chatbot = demo.slug) => request(`${app.baseUrl}/t/e`, { body: { chatbot, event }, headers: { Origin: "https://shop.example" } });
		const before = await app.broker.call<Array<{ day: string; widget_opened: number; message_sent: number }>, object>("chat.usage", { slug: demo.slug });
		const opened = await beacon("widget_opened");
		expect(opened.status).toBe(204);
		expect(opened.body).toBeUndefined();
		expect(opened.headers.get("ratelimit-policy")).toBe('"beacon"; q=300; w=60');
		expect(opened.headers.get("access-control-allow-origin")).toBe("*");
		await Promise.all([beacon("message_sent"), beacon("message_sent"), beacon("widget_opened")]);
		const after = await app.broker.call<Array<{ day: string; widget_opened: number; message_sent: number }>, object>("chat.usage", { slug: demo.slug });
		const today = new Date().toISOString().slice(0, 10);
		const was = before.find(d => d.day === today) ?? { widget_opened: 0, message_sent: 0 };
		expect(after.find(d => d.day === today)).toEqual({ day: today, widget_opened: was.widget_opened + 2, message_sent: was.message_sent + 2 });
	});

	it("refuses an unknown event (400) and an unknown chatbot (404)", async () => {
		const badEvent = await request(`${app.baseUrl}/t/e`, { body: { chatbot: demo.slug, event: "page_scrolled" } });
		expect(badEvent.status).toBe(400);
		expect(badEvent.body.code).toBe("validation_failed");
		const unknown = await request(`${app.baseUrl}/t/e`, { body: { chatbot: "nosuchslug000", event: "widget_opened" } });
		expect(unknown.status).toBe(404);
	});
});

describe("discovery", () => {
	it("lists the chat API and the beacon in the API index and the OpenAPI document", async () => {
		const index = await request<{ endpoints: Array<{ operation_id: string; method: string; path: string }> }>(`${app.baseUrl}/api`);
		const ops = index.body.endpoints.map(e => `${e.method} ${e.path} ${e.operation_id}`);
		expect(ops).toEqual(
			expect.arrayContaining([
				"GET /api/chat/{slug} getChatbotInfo",
				"POST /api/chat/{slug}/messages sendChatMessage",
				"POST /t/e sendWidgetBeacon"
			])
		);
		const openapi = await request<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(`${app.baseUrl}/openapi.json`);
		expect(Object.keys(openapi.body.paths["/api/chat/{slug}/messages"].post.responses)).toEqual(expect.arrayContaining(["200", "404", "409", "422", "429"]));
		expect(openapi.body.paths["/c/{slug}"]).toBeUndefined();
	});
});
