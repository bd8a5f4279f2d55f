/**
 * A Map that keeps at most `capacity` entries, dropping the least recently used first: a memo for
 * values that are costly to make and asked for again soon, whose memory must stay bounded whatever
 * callers send. A Map iterates in insertion order, so re-inserting on every hit keeps the least
 * recently used entry first.
 */
export class RecentMap<K, V> {
	private readonly entries = new Map<K, V>();

	/** `onEvict` hears of each entry dropped to stay within the capacity (not of `delete` or `clear`). */
	constructor(
		private readonly capacity: number,
		private readonly onEvict?: (key: K, value: V) => void
	) {
		if (!(capacity >= 1)) throw new RangeError("A RecentMap holds at least one entry.");
	}

	get size(): number {
		return this.entries.size;
	}

	/** The value of `key`, now the most recently used; undefined when absent. */
	get(key: K): V | undefined {
		const value = this.entries.get(key);
		if (value === undefined) return undefined;
		this.entries.delete(key);
		this.entries.set(key, value);
		return value;
	}

	/** Stores `value` as the most recently used, dropping the least recently used beyond the capacity. */
	set(key: K, value: V): void {
		this.entries.delete(key);
		this.entries.set(key, value);
		if (this.entries.size > this.capacity) {
			const [oldestKey, oldest] = this.entries.entries().next().value as [K, V];
			this.entries.delete(oldestKey);
			this.onEvict?.(oldestKey, oldest);
		}
	}

	delete(key: K): void {
		this.entries.delete(key);
	}

	clear(): void {
		this.entries.clear();
	}
}
