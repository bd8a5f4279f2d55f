/**
 * The worker pool that runs heavy text work off the event loop (lib/workers/worker-pool.ts), with
 * real worker threads running a TypeScript task module (test/fixtures/worker-tasks.ts).
 */
import * as path from "node:path";
import { threadId } from "node:worker_threads";
import { WorkerPool, WorkerTaskError, workerTaskFailure } from "../../lib/workers/worker-pool";
import type * as Tasks from "../fixtures/worker-tasks";

const MODULE = path.join(__dirname, "../fixtures/worker-tasks.ts");

let pool: WorkerPool<typeof Tasks>;

beforeEach(() => {
	pool = new WorkerPool<typeof Tasks>({ module: MODULE, maxWorkers: 2, heapMb: 64 });
});

afterEach(async () => {
	await pool.close();
});

async function failureOf(work: Promise<unknown>): Promise<WorkerTaskError> {
	const err = await work.then(
		() => undefined,
		(e: unknown) => e
	);
	if (!(err instanceof WorkerTaskError)) throw new Error(`expected a WorkerTaskError, got ${String(err)}`);
	return err;
}

it("runs a task in another thread and returns its result", async () => {
	expect(await pool.run("echo", { value: { a: [1, "two"] } }, { timeoutMs: 20_000 })).toEqual({ a: [1, "two"] });
	expect(await pool.run("pause", { ms: 1 }, { timeoutMs: 20_000 })).not.toBe(threadId);
});

it("ends a task that holds the CPU at its time limit, while the event loop keeps answering", async () => {
	await pool.run("echo", { value: 1 }, { timeoutMs: 20_000 }); // a started worker, so the limit measures the task
	let ticks = 0;
	const ticker = setInterval(() => ticks++, 10);
	const started = Date.now();
	const err = await failureOf(pool.run("spin", undefined, { timeoutMs: 300 }));
	clearInterval(ticker);
	expect(err.kind).toBe("timeout");
	expect(err.message).toBe("The task took longer than 300 ms.");
	expect(Date.now() - started).toBeGreaterThanOrEqual(290);
	expect(ticks).toBeGreaterThan(5);
	// The stuck worker is gone; the next task gets a fresh one.
	expect(await pool.run("echo", { value: "after" }, { timeoutMs: 20_000 })).toBe("after");
});

it("reports a task that exhausts its heap as out_of_memory", async () => {
	const err = await failureOf(pool.run("hog", undefined, { timeoutMs: 30_000 }));
	expect(err.kind).toBe("out_of_memory");
	expect(workerTaskFailure(err)).toBe("out_of_memory");
	expect(await pool.run("echo", { value: 2 }, { timeoutMs: 20_000 })).toBe(2);
});

it("passes a thrown error back with its name, message and data", async () => {
	const err = await failureOf(pool.run("fail", undefined, { timeoutMs: 20_000 }));
	expect(err.kind).toBe("failed");
	expect(err.remote).toEqual({ name: "Error", message: "The input is bad.", data: { reason: "bad_input", detail: "line 3" } });
});

it("reports a task whose promise can never settle as soon as its worker has nothing left to do", async () => {
	const started = Date.now();
	const err = await failureOf(pool.run("neverSettles", undefined, { timeoutMs: 30_000 }));
	expect(err.kind).toBe("crashed");
	expect(Date.now() - started).toBeLessThan(25_000);
});

it("reports an exception thrown from a callback as a crash of that task only", async () => {
	const err = await failureOf(pool.run("crashLater", undefined, { timeoutMs: 30_000 }));
	expect(err.kind).toBe("crashed");
	expect(await pool.run("echo", { value: 3 }, { timeoutMs: 20_000 })).toBe(3);
});

it("runs at most maxWorkers tasks at once; the rest wait their turn", async () => {
	const runs = Array.from({ length: 5 }, () => pool.run("pause", { ms: 300 }, { timeoutMs: 30_000 }));
	expect(pool.load()).toEqual({ running: 2, waiting: 3, workers: 2 });
	const threads = await Promise.all(runs);
	expect(new Set(threads).size).toBeLessThanOrEqual(2);
	expect(pool.load()).toMatchObject({ running: 0, waiting: 0 });
});

it("close() rejects running and waiting tasks with closed", async () => {
	const runs = Array.from({ length: 3 }, () => failureOf(pool.run("pause", { ms: 5000 }, { timeoutMs: 30_000 })));
	await pool.close();
	expect((await Promise.all(runs)).map(err => err.kind)).toEqual(["closed", "closed", "closed"]);
	expect(pool.load()).toEqual({ running: 0, waiting: 0, workers: 0 });
});

it("stops idle workers", async () => {
	const quick = new WorkerPool<typeof Tasks>({ module: MODULE, maxWorkers: 1, heapMb: 64, idleMs: 50 });
	try {
		await quick.run("echo", { value: 1 }, { timeoutMs: 20_000 });
		expect(quick.load().workers).toBe(1);
		for (let i = 0; i < 100 && quick.load().workers > 0; i++) await new Promise(resolve => setTimeout(resolve, 20));
		expect(quick.load().workers).toBe(0);
	} finally {
		await quick.close();
	}
});
