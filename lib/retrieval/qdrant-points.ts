/**
 * How chunks and generation pointers are laid out as Qdrant points.
 *
 * Qdrant point ids must be unsigned integers or UUIDs, and one chunk id appears once per generation,
 * so a point id is a name-based UUID of (chatbot, generation, chunk id): stable, so re-upserting a
 * generation overwrites its points instead of duplicating them.
 *
 * Each chatbot also has one pointer point (UUID of the chatbot id alone) that carries no vectors and
 * no `generation` field, only `active_generation`. Chunk filters always require `generation`, so the
 * pointer never shows up among chunks, and a single-point upsert switches generations atomically.
 */
import { createHash } from "node:crypto";
import type { Chunk, SourceKind } from "./chunker";

export const SPARSE_VECTOR = "text";
export const DENSE_VECTOR = "dense";
export const CHATBOT_FIELD = "chatbot_id";
export const GENERATION_FIELD = "generation";
export const ACTIVE_GENERATION_FIELD = "active_generation";

/** Payload of a chunk point. Snake case, as Qdrant payloads conventionally are. */
export interface ChunkPayload {
	chatbot_id: string;
	generation: number;
	chunk_id: string;
	source_id: string;
	ordinal: number;
	kind: SourceKind;
	title: string;
	text: string;
	heading?: string;
	url?: string;
	file_name?: string;
	code_lines?: number[];
	question?: string;
	answer?: string;
}

/** A UUID (version-5 layout) derived from a name with SHA-1. */
export function nameUuid(name: string): string {
	const bytes = createHash("sha1").update(name).digest().subarray(0, 16);
	bytes[6] = (bytes[6] & 0x0f) | 0x50;
	bytes[8] = (bytes[8] & 0x3f) | 0x80;
	const hex = bytes.toString("hex");
	return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function chunkPointId(chatbotId: string, generation: number, chunkId: string): string {
	return nameUuid(`chunk\u0000${chatbotId}\u0000${generation}\u0000${chunkId}`);
}

export function pointerPointId(chatbotId: string): string {
	return nameUuid(`pointer\u0000${chatbotId}`);
}

export function toPayload(chunk: Chunk, generation: number): ChunkPayload {
	const payload: ChunkPayload = {
		chatbot_id: chunk.chatbotId,
		generation,
		chunk_id: chunk.id,
		source_id: chunk.sourceId,
		ordinal: chunk.ordinal,
		kind: chunk.kind,
		title: chunk.title,
		text: chunk.text
	};
	if (chunk.heading !== undefined) payload.heading = chunk.heading;
	if (chunk.url !== undefined) payload.url = chunk.url;
	if (chunk.fileName !== undefined) payload.file_name = chunk.fileName;
	if (chunk.codeLines !== undefined) payload.code_lines = chunk.codeLines;
	if (chunk.question !== undefined) payload.question = chunk.question;
	if (chunk.answer !== undefined) payload.answer = chunk.answer;
	return payload;
}

function optionalString(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

/** Rebuilds a chunk from a point payload; undefined when the payload is not a chunk's. */
export function fromPayload(payload: Record<string, unknown> | null | undefined): Chunk | undefined {
	if (!payload || typeof payload.chunk_id !== "string" || typeof payload.text !== "string") return undefined;
	const chunk: Chunk = {
		id: payload.chunk_id,
		chatbotId: String(payload.chatbot_id),
		sourceId: String(payload.source_id),
		ordinal: Number(payload.ordinal),
		text: payload.text,
		title: String(payload.title ?? ""),
		kind: payload.kind as SourceKind
	};
	const optional: Array<[keyof Chunk, unknown]> = [
		["heading", payload.heading],
		["url", payload.url],
		["fileName", payload.file_name],
		["question", payload.question],
		["answer", payload.answer]
	];
	for (const [key, value] of optional) {
		const text = optionalString(value);
		if (text !== undefined) (chunk as unknown as Record<string, string>)[key] = text;
	}
	const codeLines = payload.code_lines;
	if (Array.isArray(codeLines) && codeLines.every(line => Number.isInteger(line) && line >= 0)) chunk.codeLines = codeLines as number[];
	return chunk;
}
