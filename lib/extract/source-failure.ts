/**
 * How a file that yielded no text is reported on its source: `failure: { code, message }` with one
 * of the source failure codes of the product decisions (empty, unreadable, file_type, file_size,
 * timeout). A decompression bomb is reported as `unreadable`: to the uploader it is a file we
 * could not read, and naming it a bomb helps nobody.
 */
import type { Failure, FailureCode } from "../chatbots/model";
import { ExtractionFailure, extractionFailureReason } from "./extraction-failure";

const CODE_BY_REASON: Record<ExtractionFailure, FailureCode> = {
	empty: "empty",
	unreadable: "unreadable",
	bomb: "unreadable",
	too_large: "file_size",
	timeout: "timeout",
	unsupported_type: "file_type",
	type_mismatch: "file_type"
};

/** The source failure for an extraction error, or undefined when `err` is not one (a bug). */
export function sourceFailureOf(err: unknown): Failure | undefined {
	const reason = extractionFailureReason(err);
	return reason === undefined ? undefined : { code: CODE_BY_REASON[reason], message: (err as Error).message };
}

/** The failure of a file that was read without trouble but holds no text. */
export function noTextFailure(contentType: string | null, fileName: string | null): Failure {
	const name = fileName ?? "The file";
	if (contentType === "application/pdf") {
		return { code: "empty", message: `${name} has no text layer (it may be a scanned image); upload a PDF with selectable text.` };
	}
	return { code: "empty", message: `No readable text was found in ${fileName ?? "the file"}.` };
}
