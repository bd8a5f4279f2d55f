/**
 * BM25 as sparse vectors, so lexical relevance works with no model at all.
 *
 * Scheme (the same for both back ends):
 * - Term ids: FNV-1a 32-bit hash of the analysed (stemmed, accent-folded) term. Stable across
 *   processes and versions, fits Qdrant's uint32 sparse indices. Two terms that collide share one
 *   id (their weights add up); with a few thousand distinct terms per chatbot this is rare and
 *   only blurs, never breaks, ranking.
 * - Document side: the BM25 term-frequency part,
 *     w(t, d) = tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl)),
 *   with |d| the number of terms of the chunk and avgdl the average over the chunks indexed
 *   together (one training run of one chatbot). It is fixed when the chunk is indexed.
 * - Query side: weight 1 per distinct query term. The IDF factor is applied by the index, because
 *   only the index knows how many documents contain a term:
 *     idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))
 *   Qdrant does it server-side for sparse vectors configured with `modifier: "idf"` (with this
 *   formula, over the whole collection); the embedded index does it from its own statistics of
 *   the searched generation. score(q, d) = Σ idf(t) · w(t, d), i.e. classic BM25.
 */
import type { Chunk } from "./chunker";
import { termsOfCode } from "../text/symbols";
import { analyze, Locale } from "../text/tokenize";

/** Term-frequency saturation: after ~k1 occurrences, more repeats add little. */
export const BM25_K1 = 1.2;
/** Length normalisation: 0 ignores chunk length, 1 fully normalises it. */
export const BM25_B = 0.75;
/** avgdl used when a single document is vectorised on its own (about one full chunk of terms). */
export const DEFAULT_AVG_DOC_TERMS = 80;

export interface SparseVector {
	/** Unique term ids, ascending. */
	indices: number[];
	/** Weights, aligned with `indices`. */
	values: number[];
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function mix(hash: number, byte: number): number {
	return Math.imul(hash ^ byte, FNV_PRIME);
}

/** FNV-1a 32-bit over the UTF-8 bytes of the term (encoded inline: this runs once per indexed word). */
export function termId(term: string): number {
	let hash = FNV_OFFSET;
	for (let i = 0; i < term.length; i++) {
		let code = term.charCodeAt(i);
		if (code >= 0xd800 && code <= 0xdbff && i + 1 < term.length) {
			code = 0x10000 + ((code - 0xd800) << 10) + (term.charCodeAt(++i) - 0xdc00);
		}
		if (code < 0x80) hash = mix(hash, code);
		else if (code < 0x800) {
			hash = mix(hash, 0xc0 | (code >> 6));
			hash = mix(hash, 0x80 | (code & 0x3f));
		} else if (code < 0x10000) {
			hash = mix(hash, 0xe0 | (code >> 12));
			hash = mix(hash, 0x80 | ((code >> 6) & 0x3f));
			hash = mix(hash, 0x80 | (code & 0x3f));
		} else {
			hash = mix(hash, 0xf0 | (code >> 18));
			hash = mix(hash, 0x80 | ((code >> 12) & 0x3f));
			hash = mix(hash, 0x80 | ((code >> 6) & 0x3f));
			hash = mix(hash, 0x80 | (code & 0x3f));
		}
	}
	return hash >>> 0;
}

/** Term id → occurrence count. */
function termCounts(terms: readonly string[]): Map<number, number> {
	const counts = new Map<number, number>();
	for (const term of terms) {
		const id = termId(term);
		counts.set(id, (counts.get(id) ?? 0) + 1);
	}
	return counts;
}

function toSparse(weights: Map<number, number>): SparseVector {
	const indices = [...weights.keys()].sort((a, b) => a - b);
	return { indices, values: indices.map(i => weights.get(i) as number) };
}

/** BM25 document-side weights of one document (see the file comment). */
export function documentVector(terms: readonly string[], avgDocTerms = DEFAULT_AVG_DOC_TERMS): SparseVector {
	const lengthNorm = 1 - BM25_B + (BM25_B * terms.length) / Math.max(1, avgDocTerms);
	const weights = new Map<number, number>();
	for (const [id, tf] of termCounts(terms)) weights.set(id, (tf * (BM25_K1 + 1)) / (tf + BM25_K1 * lengthNorm));
	return toSparse(weights);
}

/** Document vectors for documents indexed together, normalised against their own average length. */
export function documentVectors(termLists: readonly (readonly string[])[]): SparseVector[] {
	const total = termLists.reduce((sum, terms) => sum + terms.length, 0);
	const avg = termLists.length ? total / termLists.length : DEFAULT_AVG_DOC_TERMS;
	return termLists.map(terms => documentVector(terms, avg || DEFAULT_AVG_DOC_TERMS));
}

/** Query vector: weight 1 per distinct term; the index multiplies by IDF. */
export function queryVector(terms: readonly string[]): SparseVector {
	const weights = new Map<number, number>();
	for (const id of termCounts(terms).keys()) weights.set(id, 1);
	return toSparse(weights);
}

/** BM25 inverse document frequency, the formula Qdrant's `idf` modifier uses. */
export function bm25Idf(documentCount: number, documentFrequency: number): number {
	return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/** The text a chunk is indexed by: its section heading (context the text may not repeat) and its text. */
export function indexedText(chunk: Pick<Chunk, "heading" | "text">): string {
	return chunk.heading ? `${chunk.heading}\n${chunk.text}` : chunk.text;
}

/** Analysed terms of a chunk, for `documentVectors`; its lines of code hold no symbol terms (symbols.ts says why). */
export function chunkTerms(chunk: Pick<Chunk, "heading" | "text" | "codeLines">, locale: Locale): string[] {
	const terms = analyze(chunk.heading ?? "", locale);
	if (!chunk.codeLines?.length) return [...terms, ...analyze(chunk.text, locale)];
	const code = new Set(chunk.codeLines);
	// Terms never span a line, so the text's terms are its lines' terms in order.
	chunk.text.split("\n").forEach((line, i) => {
		const lineTerms = analyze(line, locale);
		for (const term of code.has(i) ? termsOfCode(lineTerms) : lineTerms) terms.push(term);
	});
	return terms;
}

/**
 * Query vector with a weight per term (the question's own terms 1, terms borrowed from earlier
 * turns or related words less); the index still multiplies each by its IDF. Terms that hash to the
 * same id keep the larger weight.
 */
export function weightedQueryVector(weights: ReadonlyMap<string, number>): SparseVector {
	const byId = new Map<number, number>();
	for (const [term, weight] of weights) {
		if (!(weight > 0)) continue;
		const id = termId(term);
		byId.set(id, Math.max(byId.get(id) ?? 0, weight));
	}
	return toSparse(byId);
}
