/**
 * The one event shape every answer path streams (extractive and LLM alike), so the chat service
 * relays either the same way: text fragments, then one `done` with the citations.
 */
import type { Chunk } from "../retrieval/chunker";

export interface Citation {
	sourceId: string;
	title: string;
	url?: string;
	fileName?: string;
}

export type AnswerEvent =
	| { type: "token"; text: string }
	/** `answered` is false for a refusal (nothing relevant found) or a fixed notice; citations are then empty. */
	| { type: "done"; citations: Citation[]; answered: boolean };

export interface CollectedAnswer {
	text: string;
	citations: Citation[];
	answered: boolean;
}

export function citationOf(chunk: Pick<Chunk, "sourceId" | "title" | "url" | "fileName">): Citation {
	return {
		sourceId: chunk.sourceId,
		title: chunk.title,
		...(chunk.url !== undefined ? { url: chunk.url } : {}),
		...(chunk.fileName !== undefined ? { fileName: chunk.fileName } : {})
	};
}

/** One citation per source, in order of first appearance. */
export function uniqueCitations(chunks: Iterable<Pick<Chunk, "sourceId" | "title" | "url" | "fileName">>): Citation[] {
	const seen = new Map<string, Citation>();
	for (const chunk of chunks) if (!seen.has(chunk.sourceId)) seen.set(chunk.sourceId, citationOf(chunk));
	return [...seen.values()];
}

/** A fixed message (refusal, cap notice) as an answer stream without citations. */
export async function* fixedAnswer(text: string): AsyncGenerator<AnswerEvent> {
	yield { type: "token", text };
	yield { type: "done", citations: [], answered: false };
}

/** Drains an answer stream, for callers that do not stream (tests, non-streaming API clients). */
export async function collectAnswer(events: AsyncIterable<AnswerEvent>): Promise<CollectedAnswer> {
	let text = "";
	for await (const event of events) {
		if (event.type === "token") text += event.text;
		else return { text, citations: event.citations, answered: event.answered };
	}
	return { text, citations: [], answered: false };
}
