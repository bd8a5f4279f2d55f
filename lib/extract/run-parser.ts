/**
 * Runs the reading of one file in a worker thread with a time limit and a heap limit (the shared
 * worker pool of lib/workers), so a hostile file fails its own source, never the process: a parser
 * stuck in it is terminated, an archive inflating to gigabytes hits the worker's heap cap, and an
 * exception thrown from a parser's callback kills only the worker.
 */
import * as path from "node:path";
import { extractionFailure } from "../failures";
import { coresForWorkers, WorkerPool, WorkerTaskError } from "../workers/worker-pool";
import type * as ParseTasks from "./parse-tasks";
import type { ExtractedText } from "./text-file";

export type ParserKind = keyof typeof ParseTasks;

export interface ParserLimits {
	timeoutMs: number;
	/** Old-generation heap of the worker, in MB. */
	heapMb: number;
}

/** Files read at once per process; more wait their turn. */
const MAX_PARSERS = coresForWorkers();

/** yauzl's message when an entry inflates past the size its directory declared: a lying archive. */
const OVERSIZED_ENTRY = /too many bytes in the stream|expected \d+.*got/i;

const pools = new Map<number, WorkerPool<typeof ParseTasks>>();

function poolFor(heapMb: number): WorkerPool<typeof ParseTasks> {
	let pool = pools.get(heapMb);
	if (!pool) {
		// The task module sits beside this one, as TypeScript (tsx, jest) or compiled JavaScript.
		pool = new WorkerPool<typeof ParseTasks>({ module: path.join(__dirname, `parse-tasks${path.extname(__filename)}`), maxWorkers: MAX_PARSERS, heapMb });
		pools.set(heapMb, pool);
	}
	return pool;
}

/** Reads a file of the given kind in a parser worker. Rejects with an `extractionFailure`. */
export async function runParser(kind: ParserKind, bytes: Buffer, limits: ParserLimits): Promise<ExtractedText> {
	try {
		return await poolFor(limits.heapMb).run(kind, new Uint8Array(bytes), { timeoutMs: limits.timeoutMs });
	} catch (err) {
		throw err instanceof WorkerTaskError ? parserFailure(err, limits) : err;
	}
}

function parserFailure(err: WorkerTaskError, limits: ParserLimits): Error {
	switch (err.kind) {
		case "timeout":
			return extractionFailure("timeout", `Reading the file took longer than ${limits.timeoutMs} ms.`);
		case "out_of_memory":
			return extractionFailure("bomb", "Reading the file needed more memory than any real document of its size.");
		case "failed":
			if (OVERSIZED_ENTRY.test(err.message)) return extractionFailure("bomb", "The file's archive inflates beyond the sizes it declares.");
			if (err.remote?.name === "PasswordException") return extractionFailure("unreadable", "The file is password-protected.");
			return extractionFailure("unreadable", "The file is damaged or not a valid document.");
		case "crashed":
			// Also a parser that lost a stream error and never settled (word-extractor does this on a ZIP
			// entry that inflates past its declared size).
			return extractionFailure("unreadable", "The file is damaged or not a valid document.");
		case "closed":
			return err;
	}
}
