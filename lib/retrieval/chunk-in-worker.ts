/**
 * Chunking off the event loop: the trainer's way to run `chunkSources` (chunker.ts) over a
 * chatbot's sources in the text worker, with a time limit, so a large or hostile text cannot hold
 * the process (or starve the training run's own lease renewals).
 */
import { runTextTask } from "../workers/text-work";
import { WorkerTaskError } from "../workers/worker-pool";
import type { Chunk, ChunkSource } from "./chunker";

/**
 * Far above what the largest chatbot needs: chunking takes about 0.1 s per million characters, and
 * the largest plan holds 40 million.
 */
export const CHUNKING_TIMEOUT_MS = 60_000;

/** Chunks every source, in order, in the text worker. Rejects with a `WorkerTaskError` whose message says why. */
export async function chunkSourcesInWorker(sources: readonly ChunkSource[], timeoutMs = CHUNKING_TIMEOUT_MS): Promise<Chunk[]> {
	try {
		return await runTextTask("chunk", [...sources], timeoutMs);
	} catch (err) {
		if (!(err instanceof WorkerTaskError)) throw err;
		const why = err.message.charAt(0).toLowerCase() + err.message.slice(1);
		throw new WorkerTaskError(err.kind, `The sources could not be chunked: ${why}`, err.remote);
	}
}
