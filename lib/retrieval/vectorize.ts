/**
 * Chunks and questions to vectors: BM25 sparse always, dense embeddings when an embedding function
 * (an OpenAI-compatible endpoint, see `lib/ai`) is given. Trainer and chat call these so both sides
 * analyse text identically.
 */
import { analyze, Locale } from "../text/tokenize";
import type { Chunk } from "./chunker";
import { chunkTerms, documentVectors, indexedText, queryVector } from "./sparse";
import type { IndexedChunk, IndexQuery } from "./vector-index";

/** Embeds texts, one vector per text, in order. */
export type EmbedFn = (texts: string[]) => Promise<number[][]>;

export interface VectorizeOptions {
	locale: Locale;
	embed?: EmbedFn;
}

/** Vectors for chunks indexed together (one training run): BM25 length normalisation uses their average. */
export async function vectorizeChunks(chunks: readonly Chunk[], { locale, embed }: VectorizeOptions): Promise<IndexedChunk[]> {
	const sparse = documentVectors(chunks.map(chunk => chunkTerms(chunk, locale)));
	const dense = embed && chunks.length ? await embed(chunks.map(indexedText)) : undefined;
	return chunks.map((chunk, i) => ({ chunk, sparse: sparse[i], ...(dense ? { dense: dense[i] } : {}) }));
}

/** Query vectors for a question. */
export async function vectorizeQuery(question: string, { locale, embed }: VectorizeOptions): Promise<IndexQuery> {
	const sparse = queryVector(analyze(question, locale));
	if (!embed) return { sparse };
	const [dense] = await embed([question]);
	return { sparse, dense };
}
