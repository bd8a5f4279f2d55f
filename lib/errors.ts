/**
 * Error classes and their stable codes (SPEC §7.2 plus the generic codes every surface needs).
 *
 * Errors are plain Moleculer errors whose `type` is the stable code, so they survive the trip over
 * the bus: Moleculer rebuilds `MoleculerClientError` / `MoleculerServerError` from
 * `{name, message, code, type, data}` on the caller's side, and the gateway renders them from there.
 * Callers branch on `err.type`, never on `err.message`.
 */
import { Errors } from "moleculer";

/** Every error code a client can see, with its HTTP status and a default recovery hint. */
export const ERROR_CODES = {
	expired: { status: 404, hint: "Create a new session with POST /api/tools/sessions; do not retry this id." },
	url_cap: { status: 422, hint: "This session already holds the maximum number of URLs; add text or a file instead." },
	file_cap: { status: 422, hint: "This session already holds the maximum number of files; add text or a URL instead." },
	char_cap: { status: 422, hint: "The training-character budget would be exceeded; send a shorter source or start a new session." },
	empty: { status: 422, hint: "Nothing trainable was found; add a different source with readable text." },
	file_type: { status: 422, hint: "Upload one of: PDF, DOCX, DOC, plain text or Markdown." },
	file_size: { status: 422, hint: "Upload a file of at most 10,000,000 bytes." },
	message_cap: { status: 422, hint: "This chatbot has answered all the messages its plan allows; create a new demo or claim the chatbot." },
	global_cap: { status: 503, hint: "The pool of concurrent demos is full; retry in a few minutes." },
	rate_limited: { status: 429, hint: "Wait for the number of seconds in Retry-After, then retry." },
	not_found: { status: 404, hint: "Check the path; GET /api lists every endpoint." },
	invalid_json: { status: 400, hint: "Send a valid JSON body with Content-Type: application/json." },
	validation_failed: { status: 400, hint: "Fix the fields named in errors.detail and send the request again." },
	payload_too_large: { status: 413, hint: "Send a smaller request body." },
	unsupported_media_type: { status: 415, hint: "Send the body with the Content-Type the endpoint documents." },
	method_not_allowed: { status: 405, hint: "Use one of the methods listed in the Allow header." },
	unauthorized: { status: 401, hint: "Send a valid credential, or none to work anonymously where allowed." },
	forbidden: { status: 403, hint: "This request is not allowed from here; do not retry unchanged." },
	conflict: { status: 409, hint: "The resource changed or was already used; fetch it again before retrying." },
	unavailable: { status: 503, hint: "A back-end service is not answering; retry in a few seconds." },
	timeout: { status: 504, hint: "The operation took too long; retry in a few seconds." },
	internal: { status: 500, hint: "An unexpected error happened on our side; retry later." }
} as const satisfies Record<string, { status: number; hint: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(value: unknown): value is ErrorCode {
	return typeof value === "string" && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);
}

/** Extra data an error may carry to the client. */
export interface ErrorData {
	/** Overrides the default hint of the code. */
	hint?: string;
	/** Field-level detail, rendered as `errors.detail`. */
	detail?: string;
	/** Machine-readable per-field problems, rendered as `errors.fields`. */
	fields?: Array<{ field: string; message: string }>;
	/** Seconds a client should wait (429 and 503). */
	retryAfter?: number;
	/** Extra response headers (for example `Allow`, `WWW-Authenticate`). */
	headers?: Record<string, string>;
}

/**
 * A failure caused by the caller or by the state of their resource (4xx), or a known service
 * condition with a stable code (503 `global_cap`, `unavailable`).
 */
export function appError(code: ErrorCode, message: string, data: ErrorData = {}): Errors.MoleculerError {
	const status = ERROR_CODES[code].status;
	if (status >= 500) return new Errors.MoleculerRetryableError(message, status, code, data);
	return new Errors.MoleculerClientError(message, status, code, data);
}

/** Shorthands for the errors raised most often. */
export const errors = {
	expired: () => appError("expired", "No live demo session has this id."),
	notFound: (what = "The requested resource") => appError("not_found", `${what} was not found.`),
	validation: (detail: string, fields: ErrorData["fields"] = []) =>
		appError("validation_failed", "The request parameters are not valid.", { detail, fields }),
	capExceeded: (code: "url_cap" | "file_cap" | "char_cap", message: string) => appError(code, message),
	empty: (message = "No readable text was found.") => appError("empty", message)
};
