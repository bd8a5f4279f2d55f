/**
 * Runs CPU-heavy tasks in worker threads with a time limit, a heap limit and a bound on how many
 * run at once, so no input - a hostile file, page, sitemap or text - can hold the event loop that
 * every other caller of the process waits on.
 *
 * A task is an exported function of one module, loaded once per worker (see worker-entry.js). A
 * Promise.race timeout would only stop waiting: a task stuck on a hostile input would keep the CPU
 * and could still exhaust the heap. A worker can be terminated outright, its heap is capped on its
 * own, and an exception thrown from a library's callback kills only that worker. So a bad input
 * fails its own task with a typed `WorkerTaskError`, never the process.
 *
 * Workers are kept between tasks (starting one costs a few hundred milliseconds when it loads
 * TypeScript) and stopped when idle; a worker that timed out, crashed or ran out of memory is
 * replaced by a fresh one on the next task. Tasks beyond `maxWorkers` wait in order; a task's time
 * limit starts when a worker begins it.
 */
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";

/**
 * Workers a pool of CPU-bound tasks should have: one per core but one, at least one, so that busy
 * workers always leave a core to the event loop that answers every other caller.
 */
export function coresForWorkers(): number {
	return Math.max(1, os.availableParallelism() - 1);
}

/** The exported functions of a task module: one input in, a structured-cloneable result out. */
export type TaskTable = Record<string, (input: never) => unknown>;

export interface WorkerPoolOptions {
	/** Absolute path of the task module: `.js`, or `.ts` (loaded through tsx inside the worker). */
	module: string;
	/** Tasks running at once; more wait in order. */
	maxWorkers: number;
	/** Old-generation heap of each worker, in MB. */
	heapMb: number;
	/** An idle worker is stopped after this long, returning its memory. Default 30 s. */
	idleMs?: number;
}

/**
 * Why a task gave no result: it ran past its time limit, its worker ran out of heap, the worker
 * died (or ended without answering), the task threw, or the pool was closed.
 */
export type WorkerTaskFailure = "timeout" | "out_of_memory" | "crashed" | "failed" | "closed";

/** What a task that threw reported: its error's name, message and `data`, when it had any. */
export interface RemoteError {
	name: string;
	message: string;
	data?: unknown;
}

export class WorkerTaskError extends Error {
	override readonly name = "WorkerTaskError";

	constructor(
		readonly kind: WorkerTaskFailure,
		message: string,
		/** Set when `kind` is `failed`. */
		readonly remote?: RemoteError
	) {
		super(message);
	}
}

/** The failure kind of a worker task error, or undefined when `err` is not one. */
export function workerTaskFailure(err: unknown): WorkerTaskFailure | undefined {
	return err instanceof WorkerTaskError ? err.kind : undefined;
}

type Reply = { ready: true } | { id: number; ok: true; result: unknown } | { id: number; ok: false; error: RemoteError };

interface Job {
	id: number;
	task: string;
	input: unknown;
	timeoutMs: number;
	resolve(value: unknown): void;
	reject(err: WorkerTaskError): void;
}

interface Slot {
	worker: Worker;
	ready: boolean;
	job: Job | undefined;
	timer: NodeJS.Timeout | undefined;
	idleTimer: NodeJS.Timeout | undefined;
}

const ENTRY = path.join(__dirname, "worker-entry.js");
const DEFAULT_IDLE_MS = 30_000;

export class WorkerPool<T extends TaskTable> {
	private readonly slots = new Set<Slot>();
	private readonly queue: Job[] = [];
	private nextId = 1;

	constructor(private readonly options: WorkerPoolOptions) {
		if (!(options.maxWorkers >= 1)) throw new RangeError("maxWorkers must be at least 1");
	}

	/** Runs `task` on `input` in a worker; rejects with a `WorkerTaskError`. */
	run<K extends keyof T & string>(task: K, input: Parameters<T[K]>[0], limits: { timeoutMs: number }): Promise<Awaited<ReturnType<T[K]>>> {
		return new Promise((resolve, reject) => {
			this.queue.push({ id: this.nextId++, task, input, timeoutMs: limits.timeoutMs, resolve: resolve as (value: unknown) => void, reject });
			this.pump();
		});
	}

	/** Tasks running now and waiting (for diagnostics and tests). */
	load(): { running: number; waiting: number; workers: number } {
		let running = 0;
		for (const slot of this.slots) if (slot.job) running++;
		return { running, waiting: this.queue.length, workers: this.slots.size };
	}

	/** Stops every worker; running and waiting tasks reject with `closed`. The pool can be used again. */
	async close(): Promise<void> {
		for (const job of this.queue.splice(0)) job.reject(new WorkerTaskError("closed", "The worker pool was closed."));
		await Promise.all([...this.slots].map(slot => this.retire(slot, new WorkerTaskError("closed", "The worker pool was closed."))));
	}

	private pump(): void {
		while (this.queue.length > 0) {
			let slot = [...this.slots].find(s => !s.job);
			if (!slot) {
				if (this.slots.size >= this.options.maxWorkers) return;
				slot = this.spawn();
			}
			this.start(slot, this.queue.shift() as Job);
		}
	}

	private spawn(): Slot {
		const worker = new Worker(ENTRY, {
			workerData: { module: this.options.module },
			// The entry registers a TypeScript loader itself when the module needs one; inheriting
			// the parent's loader flags (tsx, jest) would only slow the worker's start several-fold.
			execArgv: [],
			resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb }
		});
		const slot: Slot = { worker, ready: false, job: undefined, timer: undefined, idleTimer: undefined };
		this.slots.add(slot);
		worker.on("message", (reply: Reply) => this.onReply(slot, reply));
		worker.on("error", (err: Error & { code?: string }) => {
			const kind = err.code === "ERR_WORKER_OUT_OF_MEMORY" ? "out_of_memory" : "crashed";
			const message = kind === "out_of_memory" ? `The task needed more than ${this.options.heapMb} MB of memory.` : "The task's worker failed.";
			void this.retire(slot, new WorkerTaskError(kind, message));
		});
		// Ending without an answer happens when a task's promise can never settle (the entry lets
		// the worker exit then), or when the worker was terminated.
		worker.on("exit", () => void this.retire(slot, new WorkerTaskError("crashed", "The task ended without an answer.")));
		return slot;
	}

	private start(slot: Slot, job: Job): void {
		clearTimeout(slot.idleTimer);
		slot.job = job;
		// A worker at work keeps the process alive until it answers; an idle one does not.
		slot.worker.ref();
		slot.worker.postMessage({ id: job.id, task: job.task, input: job.input });
		if (slot.ready) this.armTimer(slot, job);
	}

	private armTimer(slot: Slot, job: Job): void {
		slot.timer = setTimeout(() => {
			void this.retire(slot, new WorkerTaskError("timeout", `The task took longer than ${job.timeoutMs} ms.`));
		}, job.timeoutMs);
	}

	private onReply(slot: Slot, reply: Reply): void {
		if ("ready" in reply) {
			slot.ready = true;
			if (slot.job) this.armTimer(slot, slot.job);
			return;
		}
		const job = slot.job;
		if (!job || job.id !== reply.id) return;
		clearTimeout(slot.timer);
		slot.job = undefined;
		slot.worker.unref();
		if (reply.ok) job.resolve(reply.result);
		else job.reject(new WorkerTaskError("failed", reply.error.message, reply.error));
		slot.idleTimer = setTimeout(() => {
			if (!slot.job) void this.retire(slot);
		}, this.options.idleMs ?? DEFAULT_IDLE_MS);
		slot.idleTimer.unref();
		this.pump();
	}

	/** Removes a worker for good, failing its task (if any) with `failure`. */
	private async retire(slot: Slot, failure?: WorkerTaskError): Promise<void> {
		if (!this.slots.delete(slot)) return;
		clearTimeout(slot.timer);
		clearTimeout(slot.idleTimer);
		const job = slot.job;
		slot.job = undefined;
		if (job) job.reject(failure ?? new WorkerTaskError("crashed", "The task's worker stopped."));
		await slot.worker.terminate().catch(() => undefined);
		this.pump();
	}
}
