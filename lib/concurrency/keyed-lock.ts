/**
 * Runs tasks one after another per key, in the order they were asked for; tasks of different keys
 * run side by side. A failed task does not stop the ones queued behind it. Within one process
 * only: what must hold across processes is decided by a conditional write in a shared store.
 */
export class KeyedLock {
	private readonly tails = new Map<string, Promise<unknown>>();
	/** Per key, the task queued by `joinWaiting` that has not started yet. */
	private readonly waiting = new Map<string, Promise<unknown>>();

	/** Runs `task` after every earlier task of `key` has settled; resolves or rejects with it. */
	run<T>(key: string, task: () => Promise<T>): Promise<T> {
		const previous = this.tails.get(key) ?? Promise.resolve();
		const run = previous.then(task, task);
		const tail = run.catch(() => undefined);
		this.tails.set(key, tail);
		void tail.then(() => {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		});
		return run;
	}

	/**
	 * As `run`, but while a task queued this way still waits its turn, asking again joins it instead
	 * of queuing another: for periodic passes that each look at everything, where one pass starting
	 * later serves every request made before it starts, and a slow pass must not pile up more behind it.
	 */
	joinWaiting<T>(key: string, task: () => Promise<T>): Promise<T> {
		const queued = this.waiting.get(key) as Promise<T> | undefined;
		if (queued) return queued;
		// `run` starts the task in a later microtask at the earliest, so it is marked waiting first.
		const run = this.run(key, () => {
			this.waiting.delete(key);
			return task();
		});
		this.waiting.set(key, run);
		return run;
	}

	/** True while a task of `key` is queued or running. */
	held(key: string): boolean {
		return this.tails.has(key);
	}

	/** Settles when every task queued so far has settled. */
	async idle(): Promise<void> {
		await Promise.all([...this.tails.values()]);
	}
}
