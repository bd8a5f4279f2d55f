/**
 * Why a file yielded no text, as a typed reason on the error's `data` (the same shape as crawl
 * failures), so the extractor can mark the source failed with that reason and the error still
 * crosses the bus intact.
 */
import type { Errors } from "moleculer";
import { appError, ErrorCode, ErrorData } from "../errors";

export type ExtractionFailure =
	/** The file is fine but holds no text (for example a scanned PDF without a text layer). */
	| "empty"
	/** The file is damaged, encrypted, or not what its format claims. */
	| "unreadable"
	/** Larger than the upload limit. */
	| "too_large"
	/** An archive that would inflate to an absurd size (decompression bomb). */
	| "bomb"
	/** Parsing took longer than the extraction time limit. */
	| "timeout"
	/** The declared type is not one of the five accepted types. */
	| "unsupported_type"
	/** The bytes do not match the declared type (magic number check). */
	| "type_mismatch";

export interface ExtractionFailureData extends ErrorData {
	reason: ExtractionFailure;
}

/**
 * Codes follow SPEC §7.2 where one fits (`empty`, `file_type`, `file_size`). A damaged, hostile or
 * too-slow file is the uploader's problem but has no code of its own, so it is `validation_failed`;
 * never a 5xx, because retrying the same bytes cannot succeed.
 */
const CODE_BY_REASON: Record<ExtractionFailure, ErrorCode> = {
	empty: "empty",
	unreadable: "validation_failed",
	too_large: "file_size",
	bomb: "validation_failed",
	timeout: "validation_failed",
	unsupported_type: "file_type",
	type_mismatch: "file_type"
};

export function extractionFailure(reason: ExtractionFailure, message: string): Errors.MoleculerError {
	const data: ExtractionFailureData = { reason, detail: message };
	return appError(CODE_BY_REASON[reason], message, data);
}

const REASONS = new Set<string>(Object.keys(CODE_BY_REASON));

/** The typed reason of an extraction failure, or undefined when `err` is not one. */
export function extractionFailureReason(err: unknown): ExtractionFailure | undefined {
	if (!err || typeof err !== "object") return undefined;
	const data = (err as { data?: unknown }).data;
	if (!data || typeof data !== "object") return undefined;
	const reason = (data as { reason?: unknown }).reason;
	return typeof reason === "string" && REASONS.has(reason) ? (reason as ExtractionFailure) : undefined;
}
