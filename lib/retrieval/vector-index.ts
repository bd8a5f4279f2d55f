/**
 * The vector index, one interface over two back ends (embedded, Qdrant).
 *
 * Generations make retraining atomic: a training run writes every chunk under a new generation
 * number with `upsert`; the chatbot's record then names that generation (a conditional write in
 * the document store, which decides which run won however many trainer and vectors replicas run)
 * and searches ask for it, so a chatbot never answers from a half-built index. `activate` keeps the
 * index's own pointer in step, for searches that name no generation and for pruning. Afterwards the
 * caller removes the old generation (`deleteGeneration`, or `pruneGenerations` for every inactive
 * one, which also sweeps generations left behind by a crashed run).
 *
 * Vectors are computed by the caller (see `vectorize.ts`): BM25 sparse vectors always, dense
 * embeddings when an embeddings endpoint is configured. When both the query and the chunks have
 * dense vectors, the sparse and dense rankings are fused by reciprocal-rank fusion.
 */
import { appError } from "../errors";
import type { Chunk } from "./chunker";
import type { SparseVector } from "./sparse";

export interface IndexedChunk {
	chunk: Chunk;
	sparse: SparseVector;
	/** Embedding of the chunk; all chunks of one index share one dimension. */
	dense?: number[];
}

export interface IndexQuery {
	sparse: SparseVector;
	dense?: number[];
}

export interface SearchHit {
	chunk: Chunk;
	/** Higher is better. BM25 for sparse-only search, a fusion score when dense is fused; compare only within one result list. */
	score: number;
}

export interface IndexStats {
	backend: "embedded" | "qdrant";
	/** Chatbots with an active generation. */
	chatbots: number;
	/** Chunks stored (embedded: in active generations; Qdrant: in all generations, so briefly higher while retraining). */
	chunks: number;
}

export interface VectorIndex {
	/** Adds or replaces (by chunk id) chunks of one generation. Idempotent. Not visible to `search` until `activate`. */
	upsert(chatbotId: string, generation: number, items: readonly IndexedChunk[]): Promise<void>;
	/** Atomically makes `generation` the one `search` answers from. */
	activate(chatbotId: string, generation: number): Promise<void>;
	/** The generation `search` answers from, or undefined when none was activated. */
	activeGeneration(chatbotId: string): Promise<number | undefined>;
	/**
	 * Best chunks for the query, best first; [] when nothing matches. Searches `generation` when
	 * given (the one the chatbot's record names, which decides across replicas), else the active one.
	 */
	search(chatbotId: string, query: IndexQuery, limit: number, generation?: number): Promise<SearchHit[]>;
	/** Removes one generation's chunks; removing the active one leaves the chatbot without an index. */
	deleteGeneration(chatbotId: string, generation: number): Promise<void>;
	/**
	 * Removes every generation except the active one; with `olderThan`, only the generations below it
	 * (a run that just finished prunes what came before it, never a newer run still being written).
	 */
	pruneGenerations(chatbotId: string, olderThan?: number): Promise<void>;
	/** Removes everything stored for the chatbot. */
	deleteChatbot(chatbotId: string): Promise<void>;
	stats(): Promise<IndexStats>;
	/** Waits for pending writes and releases resources; the instance is unusable afterwards. */
	close(): Promise<void>;
}

/** Largest `limit` a search may ask for; answers need a handful, the cap protects memory. */
export const MAX_SEARCH_LIMIT = 100;
/** Candidates taken from each ranking before fusing them: fusion needs more than the final `limit`. */
export function fusionCandidates(limit: number): number {
	return Math.max(limit * 4, 40);
}

export function assertChatbotId(chatbotId: string): void {
	if (typeof chatbotId !== "string" || chatbotId.length === 0 || chatbotId.length > 200) {
		throw appError("validation_failed", "A chatbot id must be a non-empty string of at most 200 characters.", {
			fields: [{ field: "chatbotId", message: "must be 1-200 characters" }]
		});
	}
}

export function assertGeneration(generation: number): void {
	if (!Number.isSafeInteger(generation) || generation < 0) {
		throw appError("validation_failed", "A generation must be a non-negative safe integer.", {
			fields: [{ field: "generation", message: `got ${String(generation)}` }]
		});
	}
}

export function assertLimit(limit: number): number {
	if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
		throw appError("validation_failed", `A search limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}.`, {
			fields: [{ field: "limit", message: `got ${String(limit)}` }]
		});
	}
	return limit;
}

/** Checks that every item belongs to the chatbot and carries a well-formed sparse vector. */
export function assertIndexedChunks(chatbotId: string, items: readonly IndexedChunk[]): void {
	for (const { chunk, sparse } of items) {
		if (chunk.chatbotId !== chatbotId) {
			throw appError("validation_failed", `Chunk ${chunk.id} belongs to another chatbot.`, {
				fields: [{ field: "chunk.chatbotId", message: "must equal the chatbot being indexed" }]
			});
		}
		const valid =
			sparse.indices.length === sparse.values.length &&
			sparse.indices.every((id, i) => Number.isInteger(id) && id >= 0 && id <= 0xffffffff && (i === 0 || id > sparse.indices[i - 1])) &&
			sparse.values.every(Number.isFinite);
		if (!valid) {
			throw appError("validation_failed", `Chunk ${chunk.id} has a malformed sparse vector.`, {
				fields: [{ field: "sparse", message: "indices must be ascending unique uint32 aligned with finite values" }]
			});
		}
	}
}
