/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher, 2009): score(d) = Σ 1 / (k + rank_i(d)), with
 * ranks from 1. It fuses rankings whose scores are not comparable (BM25 vs cosine) using ranks only;
 * k = 60 damps the head of each list so that one list alone cannot dominate.
 */
export const RRF_K = 60;

export interface Fused<T> {
	item: T;
	score: number;
}

/**
 * Fuses ranked lists (best first) into one list, best first. Items are identified by `key`; the
 * first occurrence of an item supplies the value returned. Ties keep the order of first appearance.
 */
export function reciprocalRankFusion<T>(lists: readonly (readonly T[])[], key: (item: T) => string, k = RRF_K): Fused<T>[] {
	const fused = new Map<string, Fused<T>>();
	for (const list of lists) {
		list.forEach((item, index) => {
			const id = key(item);
			const contribution = 1 / (k + index + 1);
			const existing = fused.get(id);
			if (existing) existing.score += contribution;
			else fused.set(id, { item, score: contribution });
		});
	}
	// Array.prototype.sort is stable, so equal scores keep insertion (first appearance) order.
	return [...fused.values()].sort((a, b) => b.score - a.score);
}
