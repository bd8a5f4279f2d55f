/**
 * Turns any error that reaches the gateway into the SPEC §7.1 body, its status and headers.
 *
 * Our own errors carry a stable code as their `type`. Framework errors (Moleculer, moleculer-web,
 * body-parser) are mapped onto the same codes here, in one place, so no route can leak a stack
 * trace or answer 500 for a caller's mistake.
 */
import { ERROR_CODES, ErrorCode, ErrorData, isErrorCode } from "../errors";

export interface ErrorBody {
	ok: false;
	code: ErrorCode;
	status: number;
	message: string;
	hint: string;
	/** Deprecated alias of `code` (SPEC §7.1). */
	error: ErrorCode;
	documentation_url: string;
	errors?: { detail: string; fields?: Array<{ field: string; message: string }> };
}

export interface RenderedError {
	status: number;
	body: ErrorBody;
	headers: Record<string, string>;
	/** True when the failure is ours (5xx other than known service conditions): worth logging. */
	unexpected: boolean;
}

interface ErrorLike {
	name?: unknown;
	message?: unknown;
	code?: unknown;
	status?: unknown;
	type?: unknown;
	data?: unknown;
}

interface FieldProblem {
	field?: unknown;
	message?: unknown;
}

const FRAMEWORK_TYPES: Record<string, ErrorCode> = {
	// moleculer-web
	NOT_FOUND: "not_found",
	INVALID_REQUEST_BODY: "invalid_json",
	PAYLOAD_TOO_LARGE: "payload_too_large",
	UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
	RATE_LIMIT_EXCEEDED: "rate_limited",
	NO_TOKEN: "unauthorized",
	INVALID_TOKEN: "unauthorized",
	FORBIDDEN: "forbidden",
	// moleculer
	SERVICE_NOT_FOUND: "unavailable",
	SERVICE_NOT_AVAILABLE: "unavailable",
	REQUEST_TIMEOUT: "timeout",
	REQUEST_REJECTED: "unavailable",
	QUEUE_FULL: "unavailable",
	// body-parser / raw-body
	"entity.parse.failed": "invalid_json",
	"entity.too.large": "payload_too_large",
	"encoding.unsupported": "unsupported_media_type",
	"charset.unsupported": "unsupported_media_type",
	"request.aborted": "validation_failed",
	"request.size.invalid": "validation_failed"
};

const BY_STATUS: Record<number, ErrorCode> = {
	400: "validation_failed",
	401: "unauthorized",
	403: "forbidden",
	404: "not_found",
	405: "method_not_allowed",
	409: "conflict",
	413: "payload_too_large",
	415: "unsupported_media_type",
	422: "validation_failed",
	429: "rate_limited"
};

const GENERIC_MESSAGES: Partial<Record<ErrorCode, string>> = {
	invalid_json: "The request body is not valid JSON.",
	payload_too_large: "The request body is too large.",
	unsupported_media_type: "The request body's media type or encoding is not supported.",
	unavailable: "A back-end service is not available right now.",
	timeout: "The operation timed out.",
	internal: "An unexpected error happened.",
	not_found: "Nothing lives at this path."
};

function statusOf(err: ErrorLike): number | undefined {
	for (const candidate of [err.code, err.status]) {
		if (typeof candidate === "number" && candidate >= 400 && candidate <= 599) return candidate;
	}
	return undefined;
}

/** Moleculer's fastest-validator errors arrive as an array of `{field, message}`. */
function validationDetail(data: unknown): ErrorData | undefined {
	if (!Array.isArray(data)) return undefined;
	const fields = (data as FieldProblem[])
		.filter(p => p && typeof p === "object")
		.map(p => ({ field: String(p.field ?? ""), message: String(p.message ?? "is not valid") }));
	if (fields.length === 0) return undefined;
	return { detail: fields.map(f => f.message).join(" "), fields };
}

export function classifyError(err: unknown): { code: ErrorCode; message: string; data: ErrorData } {
	const e: ErrorLike = err && typeof err === "object" ? (err as ErrorLike) : {};
	const data: ErrorData = e.data && typeof e.data === "object" && !Array.isArray(e.data) ? (e.data as ErrorData) : {};

	if (isErrorCode(e.type)) {
		return { code: e.type, message: typeof e.message === "string" ? e.message : GENERIC_MESSAGES[e.type] ?? "", data };
	}
	if (e.type === "VALIDATION_ERROR" || e.name === "ValidationError") {
		return {
			code: "validation_failed",
			message: "The request parameters are not valid.",
			data: validationDetail(e.data) ?? { detail: "One or more parameters are not valid." }
		};
	}
	if (typeof e.type === "string" && FRAMEWORK_TYPES[e.type]) {
		const code = FRAMEWORK_TYPES[e.type];
		return { code, message: GENERIC_MESSAGES[code] ?? (typeof e.message === "string" ? e.message : ""), data: {} };
	}
	const status = statusOf(e);
	if (status !== undefined && status < 500 && BY_STATUS[status]) {
		// A client error we did not type ourselves: its message is a framework's, short and safe.
		const code = BY_STATUS[status];
		const message = typeof e.message === "string" && e.message.length < 300 ? e.message : GENERIC_MESSAGES[code] ?? "";
		return { code, message, data: {} };
	}
	if (status === 503) return { code: "unavailable", message: GENERIC_MESSAGES.unavailable as string, data: {} };
	return { code: "internal", message: GENERIC_MESSAGES.internal as string, data: {} };
}

export function renderError(err: unknown, publicUrl: string): RenderedError {
	const { code, message, data } = classifyError(err);
	const status = ERROR_CODES[code].status;
	const body: ErrorBody = {
		ok: false,
		code,
		status,
		message: message || GENERIC_MESSAGES[code] || code,
		hint: data.hint ?? ERROR_CODES[code].hint,
		error: code,
		documentation_url: `${publicUrl}/docs/reference/errors#${code}`
	};
	if (data.detail) body.errors = data.fields?.length ? { detail: data.detail, fields: data.fields } : { detail: data.detail };
	const headers: Record<string, string> = { ...(data.headers ?? {}) };
	if (data.retryAfter !== undefined) headers["Retry-After"] = String(data.retryAfter);
	return { status, body, headers, unexpected: code === "internal" };
}
