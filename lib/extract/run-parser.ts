/**
 * Runs the PDF or Word parser in a worker thread with a time limit and a heap limit.
 *
 * A Promise.race timeout would only stop waiting: a parser stuck in a hostile file would keep the
 * CPU and could still exhaust the heap. A worker can be terminated outright, its heap is capped on
 * its own (a PDF whose compressed streams inflate to gigabytes hits that cap, not the service's), and
 * an exception thrown from a parser's callback kills only the worker. So a bad file fails that
 * source, never the process that extracts it.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { extractionFailure } from "./extraction-failure";

export type ParserKind = "pdf" | "word";

export interface ParsedDocument {
	text: string;
	pages?: number;
	title?: string;
}

export interface ParserLimits {
	timeoutMs: number;
	/** Old-generation heap of the worker, in MB. */
	heapMb: number;
}

type WorkerReply = { ok: true; result: ParsedDocument } | { ok: false; name: string; message: string };

const WORKER_FILE = path.join(__dirname, "parse-worker.js");

/** yauzl's message when an entry inflates past the size its directory declared: a lying archive. */
const OVERSIZED_ENTRY = /too many bytes in the stream|expected \d+.*got/i;

export function runParser(kind: ParserKind, bytes: Buffer, limits: ParserLimits): Promise<ParsedDocument> {
	return new Promise((resolve, reject) => {
		const worker = new Worker(WORKER_FILE, {
			workerData: { kind, bytes: new Uint8Array(bytes) },
			// The worker is plain JavaScript: the TypeScript loader hooks of tsx or jest would only slow
			// its start-up several-fold.
			execArgv: [],
			resourceLimits: { maxOldGenerationSizeMb: limits.heapMb }
		});
		let settled = false;
		const settle = (outcome: () => void) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			void worker.terminate();
			outcome();
		};
		const timer = setTimeout(
			() => settle(() => reject(extractionFailure("timeout", `Reading the file took longer than ${limits.timeoutMs} ms.`))),
			limits.timeoutMs
		);
		worker.once("message", (reply: WorkerReply) => {
			settle(() => {
				if (reply.ok) return resolve(reply.result);
				if (OVERSIZED_ENTRY.test(reply.message)) {
					return reject(extractionFailure("bomb", "The file's archive inflates beyond the sizes it declares."));
				}
				const encrypted = reply.name === "PasswordException";
				reject(extractionFailure("unreadable", encrypted ? "The file is password-protected." : "The file is damaged or not a valid document."));
			});
		});
		worker.once("error", (err: Error & { code?: string }) => {
			settle(() => {
				if (err.code === "ERR_WORKER_OUT_OF_MEMORY") {
					return reject(extractionFailure("bomb", "Reading the file needed more memory than any real document of its size."));
				}
				reject(extractionFailure("unreadable", "The file is damaged or not a valid document."));
			});
		});
		// Exiting without a reply happens when a parser loses a stream error and its promise never
		// settles (word-extractor does this on a ZIP entry that inflates past its declared size).
		worker.once("exit", () => settle(() => reject(extractionFailure("unreadable", "The file is damaged or not a valid document."))));
	});
}
