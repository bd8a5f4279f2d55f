/**
 * Minimal clients for OpenAI-compatible HTTP APIs (OpenAI, Azure-style gateways, vLLM, llama.cpp,
 * Ollama, LiteLLM…): embeddings, chat completions, and streamed chat completions over SSE.
 *
 * Failures of the upstream become `unavailable` errors (`timeout` when it is too slow), carrying the
 * HTTP status and the upstream's own error message with the API key redacted, never the key itself
 * or the request headers.
 */
import { appError } from "../errors";
import { sseData } from "./sse";

/** Where an OpenAI-compatible API answers, and with which model and key. */
export interface OpenAiCompatibleEndpoint {
	url: string;
	model: string;
	apiKey: string | undefined;
}

export interface ChatMessage {
	role: "system" | "user" | "assistant";
	content: string;
}

export interface RequestOptions {
	/** Time allowed for a whole non-streamed request, or until a stream's response headers arrive. */
	timeoutMs?: number;
	/** Lets the caller cancel, e.g. when the chat client disconnects. */
	signal?: AbortSignal;
}

export interface ChatOptions extends RequestOptions {
	temperature?: number;
	maxTokens?: number;
	/** Longest silence allowed between two streamed chunks. */
	idleTimeoutMs?: number;
}

export interface EmbedOptions extends RequestOptions {
	/** Texts per request; providers cap the batch (OpenAI: 2048 inputs). */
	batchSize?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_EMBED_BATCH = 64;
const UPSTREAM_MESSAGE_MAX = 200;

type Role = "Embeddings" | "Chat";

function redact(text: string, endpoint: OpenAiCompatibleEndpoint): string {
	const clean = endpoint.apiKey ? text.split(endpoint.apiKey).join("[redacted]") : text;
	return clean.length > UPSTREAM_MESSAGE_MAX ? `${clean.slice(0, UPSTREAM_MESSAGE_MAX)}…` : clean;
}

/** The `error.message` of an OpenAI-style error body, if there is one. */
function upstreamMessage(body: string): string | undefined {
	try {
		const parsed = JSON.parse(body) as { error?: { message?: unknown } | string };
		if (typeof parsed.error === "string") return parsed.error;
		if (typeof parsed.error?.message === "string") return parsed.error.message;
	} catch {
		// Not JSON: the status says enough.
	}
	return undefined;
}

function isAbort(err: unknown): boolean {
	// By name, not instanceof: fetch's DOMException may come from another realm (e.g. under a test VM).
	const name = (err as { name?: unknown } | null)?.name;
	return name === "AbortError" || name === "TimeoutError";
}

function failure(role: Role, err: unknown, timedOut: boolean): Error {
	if (timedOut) return appError("timeout", `${role} endpoint did not answer in time.`);
	if (isAbort(err)) return appError("unavailable", `${role} request was cancelled.`);
	return appError("unavailable", `${role} endpoint could not be reached.`, { detail: (err as Error)?.name });
}

async function post(
	endpoint: OpenAiCompatibleEndpoint,
	role: Role,
	path: string,
	body: unknown,
	controller: AbortController
): Promise<Response> {
	const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
	if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
	const response = await fetch(`${endpoint.url}${path}`, {
		method: "POST",
		headers,
		body: JSON.stringify(body),
		signal: controller.signal
	});
	if (!response.ok) {
		const message = upstreamMessage(await response.text().catch(() => ""));
		throw appError("unavailable", `${role} endpoint answered HTTP ${response.status}.`, {
			...(message ? { detail: redact(message, endpoint) } : {}),
			...(response.status === 429 ? { retryAfter: Number(response.headers.get("retry-after")) || 5 } : {})
		});
	}
	return response;
}

/** An AbortController that fires on the caller's signal or after `ms`, and knows which one it was. */
function deadline(ms: number, signal: AbortSignal | undefined) {
	const controller = new AbortController();
	let timedOut = false;
	let timer: NodeJS.Timeout | undefined;
	const arm = (delay: number) => {
		clearTimeout(timer);
		timer = setTimeout(() => {
			timedOut = true;
			controller.abort();
		}, delay);
	};
	const onCallerAbort = () => controller.abort();
	if (signal?.aborted) controller.abort();
	signal?.addEventListener("abort", onCallerAbort, { once: true });
	arm(ms);
	return {
		controller,
		rearm: arm,
		timedOut: () => timedOut,
		dispose() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", onCallerAbort);
		}
	};
}

async function postJson<T>(endpoint: OpenAiCompatibleEndpoint, role: Role, path: string, body: unknown, options: RequestOptions): Promise<T> {
	const timer = deadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
	try {
		const response = await post(endpoint, role, path, body, timer.controller);
		return (await response.json()) as T;
	} catch (err) {
		if ((err as { type?: unknown }).type !== undefined) throw err;
		throw failure(role, err, timer.timedOut());
	} finally {
		timer.dispose();
	}
}

interface EmbeddingsResponse {
	data?: Array<{ index?: number; embedding?: unknown }>;
}

/** Embeds texts, batched; returns one vector per text, in input order. */
export async function embed(endpoint: OpenAiCompatibleEndpoint, texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
	const batchSize = Math.max(1, options.batchSize ?? DEFAULT_EMBED_BATCH);
	const vectors: number[][] = [];
	for (let start = 0; start < texts.length; start += batchSize) {
		const input = texts.slice(start, start + batchSize);
		const body = await postJson<EmbeddingsResponse>(
			endpoint,
			"Embeddings",
			"/embeddings",
			{ model: endpoint.model, input, encoding_format: "float" },
			options
		);
		const data = Array.isArray(body.data) ? [...body.data] : [];
		data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
		const valid =
			data.length === input.length &&
			data.every(d => Array.isArray(d.embedding) && d.embedding.length > 0 && d.embedding.every(x => typeof x === "number"));
		if (!valid) throw appError("unavailable", "Embeddings endpoint answered an unexpected body.");
		for (const d of data) vectors.push(d.embedding as number[]);
	}
	return vectors;
}

/** Binds an endpoint into the `(texts) => vectors` shape that `vectorizeChunks` takes. */
export function embedder(endpoint: OpenAiCompatibleEndpoint, options: EmbedOptions = {}): (texts: string[]) => Promise<number[][]> {
	return texts => embed(endpoint, texts, options);
}

function chatBody(endpoint: OpenAiCompatibleEndpoint, messages: readonly ChatMessage[], options: ChatOptions, stream: boolean) {
	return {
		model: endpoint.model,
		messages,
		stream,
		...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
		...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {})
	};
}

interface ChatResponse {
	choices?: Array<{ message?: { content?: unknown } }>;
}

/** One chat completion, not streamed. */
export async function chat(endpoint: OpenAiCompatibleEndpoint, messages: readonly ChatMessage[], options: ChatOptions = {}): Promise<string> {
	const body = await postJson<ChatResponse>(endpoint, "Chat", "/chat/completions", chatBody(endpoint, messages, options, false), options);
	const content = body.choices?.[0]?.message?.content;
	if (typeof content !== "string") throw appError("unavailable", "Chat endpoint answered an unexpected body.");
	return content;
}

interface ChatChunk {
	choices?: Array<{ delta?: { content?: unknown } }>;
	error?: { message?: unknown };
}

/** A streamed chat completion: yields content fragments as they arrive, ends at `[DONE]`. */
export async function* chatStream(
	endpoint: OpenAiCompatibleEndpoint,
	messages: readonly ChatMessage[],
	options: ChatOptions = {}
): AsyncGenerator<string> {
	const timer = deadline(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
	try {
		const response = await post(endpoint, "Chat", "/chat/completions", chatBody(endpoint, messages, options, true), timer.controller);
		if (!response.body) throw appError("unavailable", "Chat endpoint answered without a body.");
		timer.rearm(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
		for await (const data of sseData(response.body)) {
			timer.rearm(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
			if (data.trim() === "[DONE]") return;
			let chunk: ChatChunk;
			try {
				chunk = JSON.parse(data) as ChatChunk;
			} catch {
				throw appError("unavailable", "Chat endpoint streamed a malformed event.");
			}
			if (chunk.error) {
				const message = typeof chunk.error.message === "string" ? redact(chunk.error.message, endpoint) : undefined;
				throw appError("unavailable", "Chat endpoint reported an error mid-stream.", message ? { detail: message } : {});
			}
			const content = chunk.choices?.[0]?.delta?.content;
			if (typeof content === "string" && content) yield content;
		}
	} catch (err) {
		if ((err as { type?: unknown }).type !== undefined) throw err;
		throw failure("Chat", err, timer.timedOut());
	} finally {
		timer.dispose();
	}
}
