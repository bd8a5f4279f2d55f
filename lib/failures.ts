/**
 * Why a source gave nothing to train on, for both stages that can fail: fetching a page (crawler)
 * and reading a file (extractor). One table names every reason of each stage with the error code a
 * caller gets and the failure code stored on the source; one factory makes the errors.
 *
 * A failure is an `appError` (so it crosses the bus with its stable code) whose `data` carries the
 * stage and the typed reason, so a caller can report a failed page or file, or log the cause,
 * without parsing messages. Messages never name resolved IP addresses: telling a caller which
 * private address a name resolves to would itself leak internal network layout.
 */
import type { Errors } from "moleculer";
import { appError, ErrorCode, ErrorData } from "./errors";

/** Failure codes stored on a source (`failure.code`), as clients see them. */
export const SOURCE_FAILURE_CODES = ["empty", "char_cap", "unreadable", "file_type", "file_size", "timeout", "blocked", "fetch_failed"] as const;
export type SourceFailureCode = (typeof SOURCE_FAILURE_CODES)[number];

export interface SourceFailure {
	code: SourceFailureCode;
	message: string;
}

interface ReasonRule {
	/** What a caller of the failing operation is told. */
	error: ErrorCode;
	/** What is stored on the source. */
	source: SourceFailureCode;
}

/**
 * Page fetches. A bad URL is the caller's syntax mistake (400); a refused address or a robots.txt
 * refusal is a policy decision that will not change on retry (403). Everything else means "this
 * URL gave us nothing trainable": SPEC §7.2 defines `empty` for exactly that and lists it for
 * addDemoSessionUrl, so a slow, huge or broken remote page is not reported as a fault of ours
 * (504/500) that a client would retry.
 */
const FETCH_RULES = {
	invalid_url: { error: "validation_failed", source: "fetch_failed" },
	blocked_address: { error: "forbidden", source: "blocked" },
	robots_disallowed: { error: "forbidden", source: "blocked" },
	timeout: { error: "empty", source: "timeout" },
	too_large: { error: "empty", source: "fetch_failed" },
	too_many_redirects: { error: "empty", source: "fetch_failed" },
	http_status: { error: "empty", source: "fetch_failed" },
	unsupported_content_type: { error: "empty", source: "fetch_failed" },
	network: { error: "empty", source: "fetch_failed" },
	empty: { error: "empty", source: "empty" }
} as const satisfies Record<string, ReasonRule>;

/**
 * File extraction. Codes follow SPEC §7.2 where one fits (`empty`, `file_type`, `file_size`). A
 * damaged, hostile or too-slow file is the uploader's problem but has no code of its own, so it is
 * `validation_failed`; never a 5xx, because retrying the same bytes cannot succeed. A decompression
 * bomb is stored as `unreadable`: to the uploader it is a file we could not read.
 */
const EXTRACTION_RULES = {
	/** The file is fine but holds no text (for example a scanned PDF without a text layer). */
	empty: { error: "empty", source: "empty" },
	/** The file is damaged, encrypted, or not what its format claims. */
	unreadable: { error: "validation_failed", source: "unreadable" },
	/** Larger than the upload limit. */
	too_large: { error: "file_size", source: "file_size" },
	/** An archive that would inflate to an absurd size. */
	bomb: { error: "validation_failed", source: "unreadable" },
	/** Reading took longer than the extraction time limit. */
	timeout: { error: "validation_failed", source: "timeout" },
	/** The declared type is not one of the five accepted types. */
	unsupported_type: { error: "file_type", source: "file_type" },
	/** The bytes do not match the declared type (magic number check). */
	type_mismatch: { error: "file_type", source: "file_type" }
} as const satisfies Record<string, ReasonRule>;

const RULES = { fetch: FETCH_RULES, extract: EXTRACTION_RULES };

export type FailureStage = keyof typeof RULES;
export type FetchFailure = keyof typeof FETCH_RULES;
export type ExtractionFailure = keyof typeof EXTRACTION_RULES;
type ReasonOf<S extends FailureStage> = keyof (typeof RULES)[S] & string;

export interface FailureData<S extends FailureStage = FailureStage> extends ErrorData {
	stage: S;
	reason: ReasonOf<S>;
	/** The URL whose fetch failed (may be a redirect target rather than the URL asked for). */
	url?: string;
	/** The HTTP status when a fetch failed with `http_status`. */
	status?: number;
}

export type FetchFailureData = FailureData<"fetch">;

/** The one factory: an error of `stage` for `reason`, with the code its rule gives. */
function failure<S extends FailureStage>(stage: S, reason: ReasonOf<S>, message: string, extra: ErrorData & { url?: string; status?: number }): Errors.MoleculerError {
	const rule = (RULES[stage] as Record<string, ReasonRule>)[reason];
	const data: FailureData<S> = { ...extra, stage, reason };
	return appError(rule.error, message, data);
}

/** A page that could not be fetched or read. */
export function fetchFailure(reason: FetchFailure, message: string, extra: { url?: string; status?: number; detail?: string } = {}): Errors.MoleculerError {
	return failure("fetch", reason, message, extra);
}

/** A file whose text could not be extracted; the message is also the client's `errors.detail`. */
export function extractionFailure(reason: ExtractionFailure, message: string): Errors.MoleculerError {
	return failure("extract", reason, message, { detail: message });
}

/** The stage and typed reason of a failure, or undefined when `err` is not one (a bug, not a source problem). */
export function failureOf(err: unknown): { stage: FailureStage; reason: string } | undefined {
	const data = err && typeof err === "object" ? (err as { data?: unknown }).data : undefined;
	if (!data || typeof data !== "object") return undefined;
	const { stage, reason } = data as { stage?: unknown; reason?: unknown };
	if (stage !== "fetch" && stage !== "extract") return undefined;
	return typeof reason === "string" && Object.hasOwn(RULES[stage], reason) ? { stage, reason } : undefined;
}

/** The reason of a page-fetch failure, or undefined when `err` is not one. */
export function fetchFailureReason(err: unknown): FetchFailure | undefined {
	const found = failureOf(err);
	return found?.stage === "fetch" ? (found.reason as FetchFailure) : undefined;
}

/** The reason of an extraction failure, or undefined when `err` is not one. */
export function extractionFailureReason(err: unknown): ExtractionFailure | undefined {
	const found = failureOf(err);
	return found?.stage === "extract" ? (found.reason as ExtractionFailure) : undefined;
}

/** The failure to store on a source for a fetch or extraction error, or undefined when `err` is neither (a bug). */
export function sourceFailureOf(err: unknown): SourceFailure | undefined {
	const found = failureOf(err);
	if (!found) return undefined;
	const rule = (RULES[found.stage] as Record<string, ReasonRule>)[found.reason];
	return { code: rule.source, message: (err as Error).message };
}

/** The failure of a file that was read without trouble but holds no text. */
export function noTextFailure(contentType: string | null, fileName: string | null): SourceFailure {
	const name = fileName ?? "The file";
	if (contentType === "application/pdf") {
		return { code: "empty", message: `${name} has no text layer (it may be a scanned image); upload a PDF with selectable text.` };
	}
	return { code: "empty", message: `No readable text was found in ${fileName ?? "the file"}.` };
}

type ClientErrorData = ErrorData & { reason: FetchFailure };

const PAGE_MESSAGES: Partial<Record<FetchFailure, string>> = {
	blocked_address: "The URL resolves to a non-public address (private, loopback, link-local or cloud metadata), so it is not fetched.",
	robots_disallowed: "The site's robots.txt does not allow this page to be fetched.",
	empty: "The page has no readable text."
};

/**
 * What a client of the demo API (and the tool server) is told when a page cannot be added, or
 * undefined when `err` is not a fetch failure.
 *
 * SPEC §4.1 lists 404, 422, 429 and 503 for addDemoSessionUrl, and §7.2 defines `empty` as "a URL
 * returned no body". So every reason a page gives nothing to train on is 422 `empty`, including an
 * address the guard refuses and a page robots.txt disallows (403 in the table above); the message
 * says which, and `errors.detail` carries the precise cause. Only a URL that is not an http(s) URL
 * at all is the caller's syntax mistake (400). The typed reason stays on `data.reason`.
 */
export function pageFetchClientError(err: unknown): Errors.MoleculerError | undefined {
	const reason = fetchFailureReason(err);
	if (reason === undefined) return undefined;
	const cause = (err as Error).message;
	if (reason === "invalid_url") {
		const invalid: ClientErrorData = { reason, detail: `'url': ${cause}`, fields: [{ field: "url", message: cause }] };
		return appError("validation_failed", "The URL cannot be fetched.", invalid);
	}
	const data: ClientErrorData = {
		reason,
		detail: cause,
		hint: reason === "blocked_address" ? "Send the URL of a page on the public internet." : "Add a different page, a file or a text instead."
	};
	return appError("empty", PAGE_MESSAGES[reason] ?? `The page gave nothing to train on: ${lowerFirst(cause)}`, data);
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}

/** Why a crawled page was not added, in words a site owner acts on (the crawl's per-page progress). */
const CRAWL_PAGE_WORDS: Record<FetchFailure, string> = {
	invalid_url: "The address is not a web page address.",
	blocked_address: "The address is not on the public internet.",
	robots_disallowed: "The site's robots.txt does not allow reading it.",
	timeout: "It did not load in time.",
	too_large: "It is too large to read.",
	too_many_redirects: "It redirects too many times.",
	http_status: "The site answered with an error for it.",
	unsupported_content_type: "It is not a web page or text (for example an image or a download).",
	network: "The site could not be reached.",
	empty: "It has no readable text."
};

export function crawlPageFailureWords(reason: FetchFailure | undefined): string {
	return reason ? CRAWL_PAGE_WORDS[reason] : "It could not be read.";
}
