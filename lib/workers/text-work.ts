/**
 * The text worker pool of this process: readable text of pages, sitemaps, robots.txt matching,
 * plain-text clean-up and chunking run here (text-tasks.ts), off the event loop, each with the time
 * limit its caller gives. One pool per process bounds how much of this work runs at once.
 */
import * as path from "node:path";
import { coresForWorkers, WorkerPool } from "./worker-pool";
import type * as TextTasks from "./text-tasks";

type Tasks = typeof TextTasks;

/** Text tasks running at once; more wait their turn. */
const TEXT_WORKERS = coresForWorkers();
/** Heap of each text worker: a DOM of a 5 MB page and Readability's copy of it fit with room to spare. */
const TEXT_HEAP_MB = 512;

// The task module sits beside this one, as TypeScript (tsx, jest) or compiled JavaScript.
const pool = new WorkerPool<Tasks>({ module: path.join(__dirname, `text-tasks${path.extname(__filename)}`), maxWorkers: TEXT_WORKERS, heapMb: TEXT_HEAP_MB });

/** Runs one text task; rejects with a `WorkerTaskError` (timeout, out_of_memory, crashed, failed). */
export function runTextTask<K extends keyof Tasks & string>(task: K, input: Parameters<Tasks[K]>[0], timeoutMs: number): Promise<ReturnType<Tasks[K]>> {
	return pool.run(task, input, { timeoutMs });
}

/** Running and waiting text tasks of this process. */
export function textWorkLoad(): { running: number; waiting: number; workers: number } {
	return pool.load();
}
