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
	chatbot_paused: { status: 422, hint: "The chatbot's account holds more chatbots than its plan allows; its owner chooses which ones answer on the Billing page, or moves to a larger plan." },
	global_cap: { status: 503, hint: "The pool of concurrent demos is full; retry in a few minutes." },
	network_cap: { status: 429, hint: "Your network already has the most live demos it may hold; reuse one of them, or retry after Retry-After seconds." },
	rate_limited: { status: 429, hint: "Wait for the number of seconds in Retry-After, then retry." },
	not_found: { status: 404, hint: "Check the path; GET /api lists every endpoint." },
	invalid_json: { status: 400, hint: "Send a valid JSON body with Content-Type: application/json." },
	malformed_request: { status: 400, hint: "The HTTP request itself is malformed (request line or a header); fix the client and send it again." },
	invalid_signature: { status: 400, hint: "The webhook's signature header is missing, does not match the raw body, or is older than 5 minutes; the sender should sign the exact bytes it sends." },
	validation_failed: { status: 400, hint: "Fix the fields named in errors.detail and send the request again." },
	payload_too_large: { status: 413, hint: "Send a smaller request body." },
	headers_too_large: { status: 431, hint: "Send fewer or shorter headers (all headers together must stay under 16 KB)." },
	request_timeout: { status: 408, hint: "Send the whole request promptly; retry on a new connection." },
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
	/**
	 * How a page for people shows this error (middlewares/http-reply.middleware.ts): the page's
	 * title, a message when it should differ from the error's, and where to go next.
	 */
	page?: PageNotice;
}

export interface PageNotice {
	title: string;
	message?: string;
	/** A local path or absolute URL, and its label. */
	link?: { href: string; label: string };
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
