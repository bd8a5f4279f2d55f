/**
 * One generation of one chatbot, in memory: an inverted index over sparse term ids for BM25, and
 * normalised Float32 embeddings for cosine search when chunks carry them.
 *
 * Search only visits the postings of the query's terms, so its cost follows how many chunks share
 * those terms, not the size of the index. IDF comes from this generation's own statistics (live
 * chunk count and per-term document frequency), which is what `sparse.ts` leaves to the index.
 *
 * Replacing a chunk (same id) marks the old slot dead instead of rewriting postings; dead slots are
 * skipped at search and vanish when the generation is next loaded from disk.
 */
import type { Chunk } from "./chunker";
import { reciprocalRankFusion } from "./rrf";
import { bm25Idf, SparseVector } from "./sparse";
import { TopK } from "./top-k";
import { fusionCandidates, IndexedChunk, IndexQuery, SearchHit } from "./vector-index";

/**
 * One term's postings in typed arrays, grown by doubling: a query over a common term walks tens of
 * thousands of them, and typed arrays keep that loop on unboxed numbers. With the docs it touched
 * kept in a reused typed array too, a query at 100,000 chunks went from 8.5 / 9.5 ms (p50 / p95,
 * plain arrays) to 1.1 / 1.9 ms (bench/retrieval.bench.ts), with the same top-10 scores.
 */
class Postings {
	docs = new Int32Array(4);
	weights = new Float64Array(4);
	length = 0;

	push(doc: number, weight: number): void {
		if (this.length === this.docs.length) {
			const docs = new Int32Array(this.length * 2);
			docs.set(this.docs);
			this.docs = docs;
			const weights = new Float64Array(this.length * 2);
			weights.set(this.weights);
			this.weights = weights;
		}
		this.docs[this.length] = doc;
		this.weights[this.length] = weight;
		this.length++;
	}
}

/** Unit-length copy, so cosine similarity is a dot product; undefined for a zero vector. */
export function normalized(vector: ArrayLike<number>): Float32Array | undefined {
	let norm = 0;
	for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
	if (norm === 0 || !Number.isFinite(norm)) return undefined;
	const scale = 1 / Math.sqrt(norm);
	const out = new Float32Array(vector.length);
	for (let i = 0; i < vector.length; i++) out[i] = vector[i] * scale;
	return out;
}

export class GenerationIndex {
	private readonly chunks: Chunk[] = [];
	private readonly termIds: Uint32Array[] = [];
	private readonly dense: Array<Float32Array | undefined> = [];
	private readonly alive: boolean[] = [];
	private readonly byId = new Map<string, number>();
	private readonly postings = new Map<number, Postings>();
	private readonly docFreq = new Map<number, number>();
	private denseCount = 0;
	private live = 0;
	/** Reused score accumulator and list of the docs it touched: search is synchronous, so one pair per generation is safe. */
	private scratch = new Float64Array(0);
	private touched = new Int32Array(0);

	/** Chunks that search can return. */
	get size(): number {
		return this.live;
	}

	add({ chunk, sparse, dense }: IndexedChunk): void {
		const previous = this.byId.get(chunk.id);
		if (previous !== undefined) this.remove(previous);
		const doc = this.chunks.length;
		this.chunks.push(chunk);
		this.termIds.push(Uint32Array.from(sparse.indices));
		const unit = dense ? normalized(dense) : undefined;
		this.dense.push(unit);
		if (unit) this.denseCount++;
		this.alive.push(true);
		this.byId.set(chunk.id, doc);
		this.live++;
		sparse.indices.forEach((termId, i) => {
			let list = this.postings.get(termId);
			if (!list) {
				list = new Postings();
				this.postings.set(termId, list);
			}
			list.push(doc, sparse.values[i]);
			this.docFreq.set(termId, (this.docFreq.get(termId) ?? 0) + 1);
		});
	}

	private remove(doc: number): void {
		this.alive[doc] = false;
		this.live--;
		if (this.dense[doc]) this.denseCount--;
		this.dense[doc] = undefined;
		for (const termId of this.termIds[doc]) this.docFreq.set(termId, (this.docFreq.get(termId) ?? 1) - 1);
	}

	/** BM25 ranking: Σ over query terms of query weight · idf · document weight. */
	searchSparse(query: SparseVector, limit: number): Array<{ id: number; score: number }> {
		if (this.scratch.length < this.chunks.length) {
			const size = Math.max(this.chunks.length, this.scratch.length * 2);
			this.scratch = new Float64Array(size);
			this.touched = new Int32Array(size);
		}
		const scores = this.scratch;
		const touched = this.touched;
		let touchedCount = 0;
		// With no replaced chunk, every slot is alive and the check can leave the inner loop.
		const anyDead = this.live < this.chunks.length;
		query.indices.forEach((termId, q) => {
			const list = this.postings.get(termId);
			const df = this.docFreq.get(termId) ?? 0;
			// Only positive contributions: a doc's score is then 0 exactly until it is first touched.
			if (!list || df <= 0 || !(query.values[q] > 0)) return;
			const queryWeight = query.values[q] * bm25Idf(this.live, df);
			const { docs, weights, length } = list;
			for (let i = 0; i < length; i++) {
				const doc = docs[i];
				if (anyDead && !this.alive[doc]) continue;
				if (scores[doc] === 0) touched[touchedCount++] = doc;
				scores[doc] += queryWeight * weights[i];
			}
		});
		const top = new TopK(limit);
		for (let i = 0; i < touchedCount; i++) {
			const doc = touched[i];
			top.offer(doc, scores[doc]);
			scores[doc] = 0;
		}
		return top.result().filter(hit => hit.score > 0);
	}

	/** Cosine ranking over the chunks that carry an embedding of the query's dimension. */
	searchDense(vector: readonly number[], limit: number): Array<{ id: number; score: number }> {
		const query = normalized(vector);
		if (!query || this.denseCount === 0) return [];
		const top = new TopK(limit);
		for (let doc = 0; doc < this.dense.length; doc++) {
			const candidate = this.dense[doc];
			if (!candidate || candidate.length !== query.length) continue;
			let dot = 0;
			for (let i = 0; i < query.length; i++) dot += query[i] * candidate[i];
			top.offer(doc, dot);
		}
		return top.result();
	}

	search(query: IndexQuery, limit: number): SearchHit[] {
		if (!query.dense || this.denseCount === 0) {
			return this.searchSparse(query.sparse, limit).map(hit => ({ chunk: this.chunks[hit.id], score: hit.score }));
		}
		const pool = fusionCandidates(limit);
		const fused = reciprocalRankFusion(
			[this.searchSparse(query.sparse, pool), this.searchDense(query.dense, pool)],
			hit => String(hit.id)
		);
		return fused.slice(0, limit).map(({ item, score }) => ({ chunk: this.chunks[item.id], score }));
	}
}
