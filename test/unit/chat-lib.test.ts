import type { ChatMessage } from "../../lib/ai/openai-compatible";
import { AnswerEvent, collectAnswer } from "../../lib/answer/events";
import { answerQuestion } from "../../lib/chat/answer";
import { appendTurnsUpdate, CONVERSATION_TTL_MS, exchangeTurns, MAX_TURNS, newConversation } from "../../lib/chat/conversations";
import { greeting, utcDay } from "../../lib/chat/copy";
import { sseFrame, streamEventFrame, toWireCitation } from "../../lib/chat/wire";
import type { Chunk } from "../../lib/retrieval/chunker";
import type { SearchHit } from "../../lib/retrieval/vector-index";

const chunk: Chunk = { id: "k1", chatbotId: "c1", sourceId: "s1", ordinal: 0, text: "The warranty lasts 37 months.", title: "Warranty", url: "https://shop.example/w", kind: "url" };
const hits: SearchHit[] = [{ chunk, score: 3 }];

async function* tokens(...parts: string[]): AsyncGenerator<string> {
	for (const part of parts) yield part;
}

async function* failing(afterTokens: string[]): AsyncGenerator<string> {
	for (const part of afterTokens) yield part;
	throw Object.assign(new Error("Chat endpoint answered HTTP 503."), { type: "unavailable" });
}

describe("answerQuestion", () => {
	it("answers extractively without an LLM", async () => {
		const answer = await collectAnswer(answerQuestion({ question: "How long is the warranty?", locale: "en", hits }));
		expect(answer).toEqual({ text: "The warranty lasts 37 months.", citations: [{ sourceId: "s1", title: "Warranty", url: "https://shop.example/w" }], answered: true });
	});

	it("streams the LLM's tokens and cites the passages it used", async () => {
		const seen: ChatMessage[][] = [];
		const events: AnswerEvent[] = [];
		for await (const event of answerQuestion({ question: "How long is the warranty?", locale: "en", hits, llm: m => (seen.push(m), tokens("It lasts ", "37 months ", "[1]")) })) events.push(event);
		expect(events.filter(e => e.type === "token")).toHaveLength(3);
		expect(events.at(-1)).toEqual({ type: "done", citations: [{ sourceId: "s1", title: "Warranty", url: "https://shop.example/w" }], answered: true });
		expect(seen[0][1].content).toContain("[1] Warranty");
	});

	it("falls back to the extractive answer when the LLM fails before its first token, and says so", async () => {
		const fallbacks: unknown[] = [];
		const answer = await collectAnswer(answerQuestion({ question: "How long is the warranty?", locale: "en", hits, llm: () => failing([]), onFallback: err => fallbacks.push(err) }));
		expect(answer.text).toBe("The warranty lasts 37 months.");
		expect(fallbacks).toHaveLength(1);
	});

	it("does not fall back once tokens were streamed: the failure is thrown", async () => {
		const run = collectAnswer(answerQuestion({ question: "How long is the warranty?", locale: "en", hits, llm: () => failing(["It lasts "]) }));
		await expect(run).rejects.toMatchObject({ type: "unavailable" });
	});
});

describe("wire shapes", () => {
	it("writes citations in snake_case with only the fields a source has", () => {
		expect(toWireCitation({ sourceId: "s1", title: "manual.pdf", fileName: "manual.pdf" })).toEqual({ source_id: "s1", title: "manual.pdf", file_name: "manual.pdf" });
		expect(toWireCitation({ sourceId: "s2", title: "Page", url: "https://a.example/" })).toEqual({ source_id: "s2", title: "Page", url: "https://a.example/" });
	});

	it("frames events as one-line JSON server-sent events, even when the text has line breaks", () => {
		expect(sseFrame("token", { text: "a\nb" })).toBe('event: token\ndata: {"text":"a\\nb"}\n\n');
		expect(streamEventFrame({ type: "done", answered: false, conversation_id: "c", messages_used: 1, max_messages: 20 })).toBe(
			'event: done\ndata: {"answered":false,"conversation_id":"c","messages_used":1,"max_messages":20}\n\n'
		);
	});
});

describe("conversations", () => {
	it("keeps the last turns and a day from the last message", () => {
		const turns = exchangeTurns("Q?", "A".repeat(5000), 1_000);
		expect(turns[1].text).toHaveLength(4001);
		expect(newConversation("id", "c1", turns, 1_000)).toMatchObject({ expires_at: 1_000 + CONVERSATION_TTL_MS, turns });
		expect(appendTurnsUpdate(turns, 2_000)).toEqual({
			$push: { turns: { $each: turns, $slice: -MAX_TURNS } },
			$set: { updated_at: 2_000, expires_at: 2_000 + CONVERSATION_TTL_MS }
		});
	});
});

describe("copy", () => {
	it("greets in the chatbot's language and counts usage per UTC day", () => {
		expect(greeting("es")).toMatch(/^¡Hola!/);
		expect(greeting("en")).toMatch(/^Hi!/);
		expect(utcDay(Date.UTC(2026, 0, 31, 23, 59))).toBe("2026-01-31");
	});
});
