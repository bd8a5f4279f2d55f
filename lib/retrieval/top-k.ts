/**
 * The k best of many scored candidates with a size-k min-heap: O(n log k) instead of sorting all n,
 * which matters when a common query term touches most of 100,000 chunks.
 */
export interface Scored {
	id: number;
	score: number;
}

function siftDown(heap: Scored[], index: number): void {
	const size = heap.length;
	for (;;) {
		const left = index * 2 + 1;
		const right = left + 1;
		let smallest = index;
		if (left < size && heap[left].score < heap[smallest].score) smallest = left;
		if (right < size && heap[right].score < heap[smallest].score) smallest = right;
		if (smallest === index) return;
		[heap[index], heap[smallest]] = [heap[smallest], heap[index]];
		index = smallest;
	}
}

function siftUp(heap: Scored[], index: number): void {
	while (index > 0) {
		const parent = (index - 1) >> 1;
		if (heap[parent].score <= heap[index].score) return;
		[heap[index], heap[parent]] = [heap[parent], heap[index]];
		index = parent;
	}
}

/** Keeps the `k` highest scores offered; `result()` returns them best first (ties: lower id first). */
export class TopK {
	private readonly heap: Scored[] = [];

	constructor(private readonly k: number) {}

	offer(id: number, score: number): void {
		if (this.heap.length < this.k) {
			this.heap.push({ id, score });
			siftUp(this.heap, this.heap.length - 1);
		} else if (this.k > 0 && score > this.heap[0].score) {
			this.heap[0] = { id, score };
			siftDown(this.heap, 0);
		}
	}

	result(): Scored[] {
		return [...this.heap].sort((a, b) => b.score - a.score || a.id - b.id);
	}
}
