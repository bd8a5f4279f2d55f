// @ts-check
/**
 * Runs one document parser inside a worker thread (see run-parser.ts for why).
 *
 * Plain CommonJS on purpose: worker threads load their file with Node's own loader, outside the
 * TypeScript hooks of tsx and ts-jest, so this file must run as it is. It is kept tiny: it receives
 * `{ kind, bytes }` as workerData and posts back either the parsed text or the error's name and
 * message.
 */
"use strict";
const { parentPort, workerData } = require("node:worker_threads");

/**
 * @param {Uint8Array} bytes
 * @returns {Promise<{ text: string; pages: number; title: string | undefined }>}
 */
async function parsePdf(bytes) {
	const { PDFParse } = require("pdf-parse");
	const parser = new PDFParse({ data: bytes });
	try {
		const result = await parser.getText();
		/** @type {string | undefined} */
		let title;
		try {
			const info = await parser.getInfo();
			const value = info.info && info.info.Title;
			title = typeof value === "string" ? value : undefined;
		} catch {
			// Metadata is optional; the text is what matters.
		}
		// Pages joined by a blank line, without pdf-parse's "-- n of m --" markers.
		return { text: result.pages.map(page => page.text).join("\n\n"), pages: result.total, title };
	} finally {
		await parser.destroy();
	}
}

/**
 * @param {Uint8Array} bytes
 * @returns {Promise<{ text: string }>}
 */
async function parseWord(bytes) {
	const WordExtractor = require("word-extractor");
	const document = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
	const parts = [document.getBody(), document.getFootnotes(), document.getEndnotes()];
	return { text: parts.filter(part => part.trim() !== "").join("\n\n") };
}

/** @param {{ kind: "pdf" | "word"; bytes: Uint8Array }} job */
async function run(job) {
	try {
		const result = job.kind === "pdf" ? await parsePdf(job.bytes) : await parseWord(job.bytes);
		parentPort?.postMessage({ ok: true, result });
	} catch (err) {
		const error = err instanceof Error ? err : new Error(String(err));
		parentPort?.postMessage({ ok: false, name: error.name, message: error.message });
	}
}

void run(workerData);
