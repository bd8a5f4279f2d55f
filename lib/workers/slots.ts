/**
 * A counting semaphore: at most `size` holders at once; others wait in order, each up to its own
 * deadline. Bounds work that is heavy per unit but not CPU-bound in this process (a Chromium page).
 */
export class Slots {
	private held = 0;
	private readonly waiting: Array<{ grant: () => void }> = [];

	constructor(private readonly size: number) {
		if (!(size >= 1)) throw new RangeError("size must be at least 1");
	}

	/**
	 * Resolves with a release function once a slot is free; rejects with `onTimeout()` when none
	 * frees within `timeoutMs`. Call the release function exactly once.
	 */
	acquire(timeoutMs: number, onTimeout: () => Error): Promise<() => void> {
		if (this.held < this.size) {
			this.held++;
			return Promise.resolve(this.releaser());
		}
		return new Promise((resolve, reject) => {
			const entry = {
				grant: () => {
					clearTimeout(timer);
					resolve(this.releaser());
				}
			};
			const timer = setTimeout(() => {
				this.waiting.splice(this.waiting.indexOf(entry), 1);
				reject(onTimeout());
			}, timeoutMs);
			this.waiting.push(entry);
		});
	}

	/** Holders now and waiters (for diagnostics and tests). */
	load(): { held: number; waiting: number } {
		return { held: this.held, waiting: this.waiting.length };
	}

	private releaser(): () => void {
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.waiting.shift();
			// The slot passes straight to the next waiter; otherwise it is free.
			if (next) next.grant();
			else this.held--;
		};
	}
}
