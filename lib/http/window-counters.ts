/**
 * Fixed-window counters in memory, one per client key, for the rate-limit policies of a single
 * process. They count as rate-limiter-flexible's memory limiter does (a window opens at a key's
 * first request; points consumed past the limit still count) but hold no timer per key, expire
 * lazily, and are capped: a flood of distinct addresses cannot grow the table without bound.
 *
 * Every window of a table has the same length, so the Map's insertion order is also the order of
 * expiry: expired windows are always at the front, and dropping them costs O(1) per new key. At
 * the cap the window that ends soonest is forgotten early (that client starts a fresh window),
 * which only a flood of more than `maxKeys` distinct networks inside one window can cause.
 */
export interface WindowCount {
	/** Points consumed in the current window, this request's included. */
	consumed: number;
	/** Milliseconds until the window ends. */
	msBeforeReset: number;
}

interface Window {
	consumed: number;
	resetAt: number;
}

export class WindowCounters {
	private readonly windows = new Map<string, Window>();
	/**
	 * Windows in the order they opened, which is also the order they end. Iterating the Map from its
	 * front instead would step over every entry deleted since its last rehash: quadratic under a flood.
	 * An entry whose key has since opened a newer window is stale and skipped.
	 */
	private queue: Array<{ key: string; window: Window }> = [];
	private head = 0;

	constructor(
		private readonly windowMs: number,
		readonly maxKeys: number,
		private readonly now: () => number = Date.now
	) {}

	get size(): number {
		return this.windows.size;
	}

	add(key: string, points: number): WindowCount {
		const now = this.now();
		let window = this.windows.get(key);
		if (window && window.resetAt <= now) {
			this.windows.delete(key);
			window = undefined;
		}
		if (!window) {
			this.dropExpired(now);
			if (this.windows.size >= this.maxKeys) this.dropOldest();
			window = { consumed: 0, resetAt: now + this.windowMs };
			this.windows.set(key, window);
			this.queue.push({ key, window });
		}
		window.consumed += points;
		return { consumed: window.consumed, msBeforeReset: window.resetAt - now };
	}

	private dropExpired(now: number): void {
		while (this.head < this.queue.length && this.queue[this.head].window.resetAt <= now) this.forgetFront();
		this.compact();
	}

	private dropOldest(): void {
		while (this.head < this.queue.length) {
			const live = this.windows.get(this.queue[this.head].key) === this.queue[this.head].window;
			this.forgetFront();
			if (live) break;
		}
		this.compact();
	}

	/** Removes the front entry, and its key's window if that window is the one the entry opened. */
	private forgetFront(): void {
		const { key, window } = this.queue[this.head];
		if (this.windows.get(key) === window) this.windows.delete(key);
		this.head++;
	}

	/** Drops the consumed front of the queue once it is the larger part, so that costs O(1) per entry. */
	private compact(): void {
		if (this.head > 1024 && this.head * 2 > this.queue.length) {
			this.queue = this.queue.slice(this.head);
			this.head = 0;
		}
	}
}
