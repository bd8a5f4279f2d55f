/**
 * The OpenAI-compatible clients (embeddings, chat, streamed chat) and the answer paths built on them,
 * against a loopback HTTP server that speaks the protocol. Hosted models cannot be reached from
 * these machines, so the server stands in for one: its "embedding model" maps words to a few
 * concept dimensions, and its "chat model" answers like a grounded model would, from the numbered
 * passages of the prompt. What is under test is everything on our side of the wire: requests,
 * batching, SSE parsing, errors, timeouts, cancellation, and retrieval and citations on top.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { OpenAiCompatibleEndpoint } from "../../config";
import { chat, ChatMessage, chatStream, embed, embedder } from "../../lib/ai/openai-compatible";
import { AnswerEvent, collectAnswer } from "../../lib/answer/events";
import { answerWithLlm, buildGroundedPrompt } from "../../lib/answer/grounded-llm";
import { answerMessages } from "../../lib/answer/messages";
import { chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import { EmbeddedVectorIndex } from "../../lib/retrieval/embedded-index";
import { vectorizeChunks, vectorizeQuery } from "../../lib/retrieval/vectorize";

const API_KEY = "sk-test-0123456789abcdef";

/** The stand-in embedding model: one dimension per concept, plus one for every other word. */
const CONCEPTS = [
	["descale", "descaling", "limescale", "scale", "mineral", "citric", "clean"],
	["warranty", "guarantee", "cover", "covered", "repair"],
	["ship", "shipping", "delivery", "deliver", "orders", "post"],
	["store", "shop", "showroom", "visit"]
];

function toyEmbedding(text: string): number[] {
	const vector = [0, 0, 0, 0, 0];
	for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
		const concept = CONCEPTS.findIndex(words => words.includes(word));
		if (concept >= 0) vector[concept] += 1;
		else vector[4] += 0.1;
	}
	return vector;
}

/** The stand-in chat model: answers from the passage sharing most words with the question, citing it. */
function groundedReply(messages: ChatMessage[]): string {
	const system = messages.find(m => m.role === "system")?.content ?? "";
	const user = messages.find(m => m.role === "user")?.content ?? "";
	const notFound = /(?:exactly|exactamente): (.+)$/m.exec(system)?.[1] ?? "I don't know.";
	const question = /(?:Question|Pregunta): (.+)$/m.exec(user)?.[1] ?? "";
	const words = new Set((question.toLowerCase().match(/[a-záéíóúñ]{4,}/g) ?? []).map(w => w.slice(0, 5)));
	let best: { n: number; text: string; shared: number } | undefined;
	for (const match of user.matchAll(/^\[(\d+)\] [^\n]*\n([^\n]+)/gm)) {
		const shared = (match[2].toLowerCase().match(/[a-záéíóúñ]{4,}/g) ?? []).filter(w => words.has(w.slice(0, 5))).length;
		if (shared > 0 && (!best || shared > best.shared)) best = { n: Number(match[1]), text: match[2], shared };
	}
	return best ? `${best.text.split(/(?<=\.) /)[0]} [${best.n}]` : notFound;
}

interface Recorded {
	path: string;
	authorization: string | undefined;
	body: Record<string, unknown>;
}

interface FakeModelServer {
	base: string;
	requests: Recorded[];
	stop(): Promise<void>;
}

function sse(res: http.ServerResponse, payload: unknown): void {
	res.write(`data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`);
}

function tokensOf(text: string): string[] {
	return text.match(/\S+\s*/g) ?? [];
}

async function startFakeModel(): Promise<FakeModelServer> {
	const requests: Recorded[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", () => {
			const url = req.url ?? "";
			const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
			requests.push({ path: url, authorization: req.headers.authorization, body });
			const mode = url.split("/")[1];
			if (req.headers.authorization !== `Bearer ${API_KEY}` || mode === "unauthorized") {
				res.writeHead(401, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}`, type: "invalid_request_error" } }));
				return;
			}
			if (mode === "overloaded") {
				res.writeHead(503, { "content-type": "text/plain" });
				res.end("upstream overloaded");
				return;
			}
			if (mode === "hang") return; // never answers: the client's timeout must fire
			if (url.endsWith("/embeddings")) {
				const input = body.input as string[];
				// Answer out of order, as the protocol allows: the client must sort by index.
				const data = input.map((text, index) => ({ object: "embedding", index, embedding: toyEmbedding(text) })).reverse();
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify({ object: "list", data, model: body.model }));
				return;
			}
			if (url.endsWith("/chat/completions")) {
				const reply = groundedReply(body.messages as ChatMessage[]);
				if (!body.stream) {
					res.writeHead(200, { "content-type": "application/json" });
					res.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }] }));
					return;
				}
				res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
				res.write(": keep-alive comment\n\n");
				sse(res, { choices: [{ index: 0, delta: { role: "assistant" } }] });
				const tokens = tokensOf(reply);
				if (mode === "stall") {
					sse(res, { choices: [{ index: 0, delta: { content: tokens[0] } }] });
					return; // then silence: the idle timeout must fire
				}
				tokens.forEach((token, i) => {
					const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: token } }] })}\r\n\r\n`;
					// Split one event across two writes, as TCP may deliver it.
					if (i === 1) {
						res.write(event.slice(0, 9));
						res.write(event.slice(9));
					} else res.write(event);
					if (mode === "broken" && i === 0) sse(res, { error: { message: `model crashed (key ${API_KEY})` } });
				});
				sse(res, { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
				sse(res, "[DONE]");
				res.end();
				return;
			}
			res.writeHead(404, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: "unknown route" } }));
		});
	});
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		base: `http://127.0.0.1:${port}`,
		requests,
		stop: () =>
			new Promise<void>(resolve => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}

let model: FakeModelServer;
const endpoint = (mode = "ok", model_ = "toy-model"): OpenAiCompatibleEndpoint => ({ url: `${model.base}/${mode}/v1`, model: model_, apiKey: API_KEY });

beforeAll(async () => {
	model = await startFakeModel();
});

afterAll(async () => {
	await model.stop();
});

beforeEach(() => {
	model.requests.length = 0;
});

describe("embed", () => {
	test("posts batches to /embeddings with the model and key, and returns vectors in input order", async () => {
		const texts = ["descale the kettle", "warranty cover", "ship orders", "visit our store", "hello"];
		const vectors = await embed(endpoint("ok", "embed-small"), texts, { batchSize: 2 });
		expect(vectors).toEqual(texts.map(toyEmbedding));
		expect(model.requests.map(r => (r.body.input as string[]).length)).toEqual([2, 2, 1]);
		for (const request of model.requests) {
			expect(request.path).toBe("/ok/v1/embeddings");
			expect(request.authorization).toBe(`Bearer ${API_KEY}`);
			expect(request.body).toMatchObject({ model: "embed-small", encoding_format: "float" });
		}
	});

	test("turns an HTTP error into `unavailable` with the status, redacting the key the upstream echoed", async () => {
		const failure = await embed(endpoint("unauthorized"), ["x"]).catch((err: unknown) => err);
		expect(failure).toMatchObject({ type: "unavailable", message: "Embeddings endpoint answered HTTP 401." });
		expect(JSON.stringify(failure)).not.toContain(API_KEY);
		expect((failure as { data: { detail: string } }).data.detail).toBe("Incorrect API key provided: [redacted]");
	});

	test("turns a non-JSON error page into `unavailable`", async () => {
		await expect(embed(endpoint("overloaded"), ["x"])).rejects.toMatchObject({ type: "unavailable", message: "Embeddings endpoint answered HTTP 503." });
	});

	test("times out a silent endpoint with a `timeout` error", async () => {
		await expect(embed(endpoint("hang"), ["x"], { timeoutMs: 300 })).rejects.toMatchObject({ type: "timeout" });
	});

	test("reports an unreachable endpoint as `unavailable`", async () => {
		const closed = http.createServer();
		await new Promise<void>(resolve => closed.listen(0, "127.0.0.1", resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise<void>(resolve => closed.close(() => resolve()));
		await expect(embed({ url: `http://127.0.0.1:${port}/v1`, model: "m", apiKey: API_KEY }, ["x"])).rejects.toMatchObject({
			type: "unavailable",
			message: "Embeddings endpoint could not be reached."
		});
	});
});

describe("chat", () => {
	const messages: ChatMessage[] = [
		{ role: "system", content: "If the passages do not contain the answer, reply exactly: Not there." },
		{ role: "user", content: "Passages:\n\n[1] Acme\nThe warranty lasts 37 months.\n\nQuestion: How long is the warranty?" }
	];

	test("non-streaming chat returns the message content", async () => {
		expect(await chat(endpoint(), messages, { temperature: 0 })).toBe("The warranty lasts 37 months. [1]");
		expect(model.requests[0].body).toMatchObject({ model: "toy-model", stream: false, temperature: 0 });
	});

	test("streams content fragments from SSE until [DONE], across split events and comments", async () => {
		const fragments: string[] = [];
		for await (const fragment of chatStream(endpoint(), messages)) fragments.push(fragment);
		expect(fragments.length).toBeGreaterThan(3);
		expect(fragments.join("")).toBe("The warranty lasts 37 months. [1]");
		expect(model.requests[0].body).toMatchObject({ stream: true, messages });
	});

	test("fails a stream that goes silent with a `timeout` error after the idle limit", async () => {
		const received: string[] = [];
		const failure = await (async () => {
			for await (const fragment of chatStream(endpoint("stall"), messages, { idleTimeoutMs: 300 })) received.push(fragment);
		})().catch((err: unknown) => err);
		expect(received).toEqual(["The "]);
		expect(failure).toMatchObject({ type: "timeout" });
	});

	test("fails on an error event in the middle of the stream, without leaking the key", async () => {
		const failure = await (async () => {
			for await (const fragment of chatStream(endpoint("broken"), messages)) void fragment;
		})().catch((err: unknown) => err);
		expect(failure).toMatchObject({ type: "unavailable", message: "Chat endpoint reported an error mid-stream." });
		expect(JSON.stringify(failure)).not.toContain(API_KEY);
	});

	test("stops when the caller aborts", async () => {
		const controller = new AbortController();
		const failure = await (async () => {
			for await (const fragment of chatStream(endpoint("stall"), messages, { signal: controller.signal, idleTimeoutMs: 30_000 })) {
				void fragment;
				controller.abort();
			}
		})().catch((err: unknown) => err);
		expect(failure).toMatchObject({ type: "unavailable", message: "Chat request was cancelled." });
	});
});

describe("answers and retrieval over the endpoints", () => {
	const dirs: string[] = [];
	afterAll(() => {
		for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
	});

	const sources: ChunkSource[] = [
		{ chatbotId: "bot", sourceId: "care", kind: "file", title: "Kettle manual", fileName: "manual.pdf", text: "Descale the kettle every month with citric acid." },
		{ chatbotId: "bot", sourceId: "warranty", kind: "url", title: "Warranty", url: "https://acme.test/warranty", text: "The warranty lasts 37 months." },
		{ chatbotId: "bot", sourceId: "shipping", kind: "url", title: "Shipping", url: "https://acme.test/shipping", text: "Orders ship within 2 business days." }
	];

	async function indexWithEmbeddings() {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hybrid-"));
		dirs.push(dir);
		const index = new EmbeddedVectorIndex({ dir });
		const embedFn = embedder(endpoint());
		await index.upsert("bot", 1, await vectorizeChunks(chunkSources(sources), { locale: "en", embed: embedFn }));
		await index.activate("bot", 1);
		return { index, embedFn };
	}

	test("dense + sparse fusion finds a chunk that shares no word with the question", async () => {
		const { index, embedFn } = await indexWithEmbeddings();
		const question = "How do I get rid of limescale?";
		// Lexically, "limescale" appears in no source: BM25 alone finds nothing.
		expect(await index.search("bot", await vectorizeQuery(question, { locale: "en" }), 3)).toEqual([]);
		const hybrid = await index.search("bot", await vectorizeQuery(question, { locale: "en", embed: embedFn }), 3);
		expect(hybrid[0].chunk.sourceId).toBe("care");

		// Where both rankings agree, fusion keeps the lexical winner on top.
		const warranty = await index.search("bot", await vectorizeQuery("warranty length", { locale: "en", embed: embedFn }), 3);
		expect(warranty[0].chunk.sourceId).toBe("warranty");
		await index.close();
	});

	test("a grounded LLM answer streams tokens and cites only the passage it used", async () => {
		const { index, embedFn } = await indexWithEmbeddings();
		const question = "How long is the warranty?";
		const hits = await index.search("bot", await vectorizeQuery(question, { locale: "en", embed: embedFn }), 3);
		expect(hits.length).toBeGreaterThan(1);

		const events: AnswerEvent[] = [];
		for await (const event of answerWithLlm({ question, locale: "en", hits, stream: m => chatStream(endpoint(), m) })) events.push(event);
		const tokens = events.filter(e => e.type === "token");
		expect(tokens.length).toBeGreaterThan(3);
		expect(events[events.length - 1]).toEqual({
			type: "done",
			answered: true,
			citations: [{ sourceId: "warranty", title: "Warranty", url: "https://acme.test/warranty" }]
		});
		expect(tokens.map(t => t.text).join("")).toContain("37 months");

		// The prompt held the retrieved passages and the grounding instructions, nothing else.
		const sent = model.requests.find(r => r.path.endsWith("/chat/completions"))?.body.messages as ChatMessage[];
		expect(sent).toEqual(buildGroundedPrompt(question, "en", hits));
		expect(sent[0].content).toContain(`reply exactly: ${answerMessages("en").notFound}`);
		await index.close();
	});

	test("when the passages share nothing with the question, the answer is the refusal in Spanish, without citations and without asking the model", async () => {
		// Issue 12: weak retrieval declines before the model is asked; the prompt it would get is still Spanish.
		const hits = [{ chunk: chunkSources(sources)[2], score: 1 }];
		const question = "¿Cuál es la capital de Francia?";
		const asked = model.requests.filter(r => r.path.endsWith("/chat/completions")).length;
		const answer = await collectAnswer(answerWithLlm({ question, locale: "es", hits, stream: m => chatStream(endpoint(), m) }));
		expect(answer).toEqual({ text: answerMessages("es").notFound, citations: [], answered: false });
		expect(model.requests.filter(r => r.path.endsWith("/chat/completions")).length).toBe(asked);
		expect(buildGroundedPrompt(question, "es", hits)[0].content).toContain("Responde en español");
	});

	test("with no passages the model is not called", async () => {
		const answer = await collectAnswer(
			answerWithLlm({ question: "Anything?", locale: "en", hits: [], stream: m => chatStream(endpoint(), m) })
		);
		expect(answer).toEqual({ text: answerMessages("en").notFound, citations: [], answered: false });
		expect(model.requests).toEqual([]);
	});
});
