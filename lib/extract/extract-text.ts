/**
 * Text from an uploaded file of one of the five accepted types (SPEC §4.1): PDF, DOCX, DOC, plain
 * text and Markdown.
 *
 * Guards run before any parser sees the bytes: the size limit, a magic-number check that the bytes
 * are what the declared type says, and for DOCX a look at the ZIP directory that refuses archives
 * inflating to absurd sizes. Every format is then read in a worker with a time and heap limit
 * (run-parser.ts): decoding, parsing and clean-up all read the whole file.
 *
 * A file that is fine but holds no text (a scanned PDF without a text layer) resolves with empty
 * text; the caller decides that this is the `empty` outcome. Every other problem rejects with an
 * `extractionFailure` whose `data.reason` names it.
 */
import { extractionFailure } from "../failures";
import { runParser } from "./run-parser";
import { ExtractedText, looksBinary } from "./text-file";
import { inspectZip, ZipFormatError } from "./zip-inspect";

export type { ExtractedText } from "./text-file";
export { stripFrontMatter } from "./text-file";

export const ACCEPTED_CONTENT_TYPES = [
	"application/pdf",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"application/msword",
	"text/plain",
	"text/markdown"
] as const;

export type AcceptedContentType = (typeof ACCEPTED_CONTENT_TYPES)[number];

export interface ExtractLimits {
	/** Largest file accepted (SPEC §8.2: 10,000,000 bytes). */
	maxBytes: number;
	/** Time allowed for one parser run. */
	timeoutMs: number;
	/** Largest total a DOCX may declare once inflated. */
	maxUncompressedBytes: number;
	/** Largest inflation ratio a large DOCX may declare. */
	maxRatio: number;
	/** Heap of the parser worker, in MB. */
	heapMb: number;
}

export const DEFAULT_EXTRACT_LIMITS: Readonly<ExtractLimits> = Object.freeze({
	maxBytes: 10_000_000,
	timeoutMs: 30_000,
	maxUncompressedBytes: 100_000_000,
	maxRatio: 100,
	heapMb: 512
});

/**
 * Below this inflated size the ratio is not judged: small XML parts compress 100:1 honestly (a
 * table of repeated rows), and a few megabytes cannot hurt anyone.
 */
const RATIO_FLOOR_BYTES = 10_000_000;

const PDF_MAGIC = Buffer.from("%PDF-");
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export function isAcceptedContentType(value: string): value is AcceptedContentType {
	return (ACCEPTED_CONTENT_TYPES as readonly string[]).includes(value);
}

function mismatch(expected: string, fileName: string | undefined): Error {
	return extractionFailure("type_mismatch", `${fileName ?? "The file"} is not a ${expected} file, although it was declared as one.`);
}

function checkDocxArchive(bytes: Buffer, limits: ExtractLimits, fileName: string | undefined): void {
	let summary;
	try {
		summary = inspectZip(bytes);
	} catch (err) {
		if (err instanceof ZipFormatError) throw extractionFailure("unreadable", `${fileName ?? "The file"} is a damaged archive (${err.message}).`);
		throw err;
	}
	if (!summary.names.includes("word/document.xml")) throw mismatch("DOCX", fileName);
	if (summary.impossibleSizes.length > 0) {
		throw extractionFailure("bomb", `${fileName ?? "The file"} declares sizes its compressed data cannot have; it is refused as a decompression bomb.`);
	}
	const ratio = summary.uncompressedBytes / Math.max(1, summary.compressedBytes);
	if (summary.uncompressedBytes > limits.maxUncompressedBytes || (summary.uncompressedBytes > RATIO_FLOOR_BYTES && ratio > limits.maxRatio)) {
		throw extractionFailure("bomb", `${fileName ?? "The file"} would inflate to ${summary.uncompressedBytes} bytes; it is refused as a decompression bomb.`);
	}
}

/**
 * Extracts the text of a file. `contentType` may carry parameters (`text/plain; charset=utf-8`);
 * `fileName` is used in messages only. Rejects with an `extractionFailure`.
 */
export async function extractText(
	bytes: Buffer,
	contentType: string,
	fileName?: string,
	limitOverrides: Partial<ExtractLimits> = {}
): Promise<ExtractedText> {
	const limits: ExtractLimits = { ...DEFAULT_EXTRACT_LIMITS, ...limitOverrides };
	const mime = contentType.split(";")[0].trim().toLowerCase();
	if (!isAcceptedContentType(mime)) {
		throw extractionFailure("unsupported_type", `Files of type ${mime || "(none)"} cannot be read; upload PDF, DOCX, DOC, plain text or Markdown.`);
	}
	if (bytes.length > limits.maxBytes) {
		throw extractionFailure("too_large", `${fileName ?? "The file"} is larger than ${limits.maxBytes} bytes.`);
	}
	if (bytes.length === 0) return { text: "" };

	switch (mime) {
		case "application/pdf":
			if (!bytes.subarray(0, 1024).includes(PDF_MAGIC)) throw mismatch("PDF", fileName);
			return runParser("pdf", bytes, limits);
		case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
			if (!bytes.subarray(0, 4).equals(ZIP_MAGIC)) throw mismatch("DOCX", fileName);
			checkDocxArchive(bytes, limits, fileName);
			return runParser("word", bytes, limits);
		case "application/msword":
			if (!bytes.subarray(0, 8).equals(OLE_MAGIC)) throw mismatch("DOC", fileName);
			return runParser("word", bytes, limits);
		case "text/markdown":
			if (looksBinary(bytes)) throw mismatch("text", fileName);
			return runParser("markdown", bytes, limits);
		case "text/plain":
			if (looksBinary(bytes)) throw mismatch("text", fileName);
			return runParser("plainText", bytes, limits);
	}
}
