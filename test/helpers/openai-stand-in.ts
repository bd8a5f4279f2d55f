/**
 * A loopback server that speaks the OpenAI-compatible protocol (`POST /v1/embeddings`, streamed and
 * plain `POST /v1/chat/completions`), standing in for a hosted model: hosted models cannot be
 * reached from these machines. What is under test is our side of the wire.
 *
 * - Embeddings: a hashed bag of words (64 dimensions), so texts sharing words are close.
 * - Chat: answers like a grounded model, from the numbered passage of the prompt sharing most words
 *   with the question, citing it as [n]; with no such passage, the prompt's exact "not found" line.
 * - Control for tests: hold embedding requests that match until released (to pause a training run
 *   at a known point), gate each streamed token (to prove tokens reach the client one by one), and
 *   make chat fail (to exercise fallbacks).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
	path: string;
	authorization: string | undefined;
	body: Record<string, unknown>;
}

export interface Hold {
	/** Resolves when a matching request has arrived (and is being held). */
	arrived: Promise<void>;
	/** Lets held (and later matching) requests through. */
	release(): void;
}

export interface StandInModel {
	/** Base URL to configure as EMBEDDINGS_URL / LLM_URL (ends in `/v1`). */
	base: string;
	apiKey: string;
	requests: RecordedRequest[];
	/** Holds embedding requests whose inputs satisfy `match` until `release()`. */
	holdEmbeddings(match: (inputs: string[]) => boolean): Hold;
	/** Called before each streamed token is written (index from 0); the token waits for it. */
	beforeToken: ((index: number, token: string) => Promise<void>) | undefined;
	/** While true, chat completions answer 503. */
	failChat: boolean;
	/** When set, a streamed completion is cut off (connection destroyed) after this many tokens. */
	cutStreamAfter: number | undefined;
	/** When set and it returns text for a prompt, that text is the reply instead of the grounded one. */
	replyFor: ((messages: PromptMessage[]) => string | undefined) | undefined;
	stop(): Promise<void>;
}

const DIMENSIONS = 64;

function hashWord(word: string): number {
	let h = 2166136261;
	for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
	return (h >>> 0) % DIMENSIONS;
}

function words(text: string): string[] {
	return (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).map(w => w.slice(0, 6));
}

/** Words that say nothing about a topic, ignored when the "model" matches a question to a sentence. */
const FILLER = new Set(["the", "and", "for", "from", "with", "which", "what", "how", "does", "that", "this", "are", "when", "where", "who", "won", "las", "los", "del", "que", "una", "por", "con"]);

function topicWords(text: string): Set<string> {
	return new Set(words(text).filter(w => !FILLER.has(w)));
}

export function standInEmbedding(text: string): number[] {
	const vector = new Array<number>(DIMENSIONS).fill(0);
	for (const word of words(text)) vector[hashWord(word)] += 1;
	vector[0] += 0.01; // never the zero vector
	return vector;
}

export interface PromptMessage {
	role: string;
	content: string;
}

/** The stand-in "model": the passage sharing most words with the question, cited; else the not-found line. */
export function groundedReply(messages: PromptMessage[]): string {
	const system = messages.find(m => m.role === "system")?.content ?? "";
	const user = messages.find(m => m.role === "user")?.content ?? "";
	const notFound = /(?:exactly|exactamente): (.+)$/m.exec(system)?.[1] ?? "I don't know.";
	const question = /(?:Question|Pregunta): (.+)$/m.exec(user)?.[1] ?? "";
	const asked = topicWords(question);
	let best: { n: number; sentence: string; shared: number } | undefined;
	for (const match of user.matchAll(/^\[(\d+)\] [^\n]*\n((?:(?!\n\n)[\s\S])+)/gm)) {
		for (const sentence of match[2].split(/(?<=[.!?])\s+/)) {
			const shared = [...topicWords(sentence)].filter(w => asked.has(w)).length;
			if (shared > 0 && (!best || shared > best.shared)) best = { n: Number(match[1]), sentence: sentence.trim(), shared };
		}
	}
	return best ? `${best.sentence} [${best.n}]` : notFound;
}

function tokensOf(text: string): string[] {
	return text.match(/\S+\s*/g) ?? [];
}

export async function startStandInModel(apiKey = "sk-stand-in-0123456789"): Promise<StandInModel> {
	const requests: RecordedRequest[] = [];
	const holds: Array<{ match: (inputs: string[]) => boolean; released: boolean; arrived: () => void; waiters: Array<() => void> }> = [];
	const sockets = new Set<import("node:net").Socket>();

	const model = {} as StandInModel;
	model.requests = requests;
	model.apiKey = apiKey;
	model.failChat = false;
	model.beforeToken = undefined;
	model.cutStreamAfter = undefined;
	model.replyFor = undefined;
	model.holdEmbeddings = match => {
		let arrived!: () => void;
		const arrivedPromise = new Promise<void>(resolve => (arrived = resolve));
		const hold = { match, released: false, arrived, waiters: [] as Array<() => void> };
		holds.push(hold);
		return {
			arrived: arrivedPromise,
			release() {
				hold.released = true;
				for (const wake of hold.waiters.splice(0)) wake();
			}
		};
	};

	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", async () => {
			const url = req.url ?? "";
			const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
			requests.push({ path: url, authorization: req.headers.authorization, body });
			if (req.headers.authorization !== `Bearer ${apiKey}`) {
				res.writeHead(401, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: "Incorrect API key provided.", type: "invalid_request_error" } }));
				return;
			}
			if (url === "/v1/embeddings") {
				const input = body.input as string[];
				for (const hold of holds) {
					if (hold.released || !hold.match(input)) continue;
					hold.arrived();
					await new Promise<void>(resolve => hold.waiters.push(resolve));
				}
				if (res.destroyed) return;
				const data = input.map((text, index) => ({ object: "embedding", index, embedding: standInEmbedding(text) }));
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify({ object: "list", data, model: body.model }));
				return;
			}
			if (url === "/v1/chat/completions") {
				if (model.failChat) {
					res.writeHead(503, { "content-type": "application/json" });
					res.end(JSON.stringify({ error: { message: "The model is overloaded." } }));
					return;
				}
				const reply = model.replyFor?.(body.messages as PromptMessage[]) ?? groundedReply(body.messages as PromptMessage[]);
				if (!body.stream) {
					res.writeHead(200, { "content-type": "application/json" });
					res.end(JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }] }));
					return;
				}
				res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
				res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant" } }] })}\n\n`);
				const tokens = tokensOf(reply);
				for (let i = 0; i < tokens.length; i++) {
					await model.beforeToken?.(i, tokens[i]);
					if (res.destroyed) return;
					const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: tokens[i] } }] })}\n\n`;
					if (model.cutStreamAfter !== undefined && i + 1 >= model.cutStreamAfter) {
						// Break the connection once this token has been handed to the network.
						res.write(event, () => res.destroy());
						return;
					}
					res.write(event);
				}
				res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`);
				res.end("data: [DONE]\n\n");
				return;
			}
			res.writeHead(404, { "content-type": "application/json" });
			res.end(JSON.stringify({ error: { message: `No route ${url}` } }));
		});
	});
	server.on("connection", socket => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	model.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
	model.stop = async () => {
		for (const hold of holds) {
			hold.released = true;
			for (const wake of hold.waiters.splice(0)) wake();
		}
		for (const socket of sockets) socket.destroy();
		await new Promise<void>(resolve => server.close(() => resolve()));
	};
	return model;
}
