/**
 * Body-parser failures as our own typed errors.
 *
 * body-parser reports a caller's mistake with an http-errors object (`status` 4xx, a `type` such as
 * `entity.parse.failed`). A body that its Content-Encoding says is gzip, deflate or br but does not
 * decompress arrives differently: the zlib error with a string `code` (`Z_DATA_ERROR`,
 * `ERR__ERROR_FORMAT_PADDING_2`), which moleculer-web would turn into a 500. Mapping here, before
 * the framework sees the error, keeps every one of them a 4xx with a message that says what to fix.
 */
import { appError, ErrorCode } from "../errors";

interface ParserError {
	type?: unknown;
	status?: unknown;
	statusCode?: unknown;
	code?: unknown;
}

const BY_TYPE: Record<string, { code: ErrorCode; message: string }> = {
	"entity.parse.failed": { code: "invalid_json", message: "The request body is not valid JSON." },
	"entity.too.large": { code: "payload_too_large", message: "The request body is too large." },
	"parameters.too.many": { code: "payload_too_large", message: "The form has too many fields." },
	"querystring.parse.rangeError": { code: "validation_failed", message: "The form nests too deeply." },
	"encoding.unsupported": { code: "unsupported_media_type", message: "This Content-Encoding is not supported; send the body uncompressed, or as gzip, deflate or br." },
	"charset.unsupported": { code: "unsupported_media_type", message: "This charset is not supported; send the body as UTF-8." },
	"request.aborted": { code: "validation_failed", message: "The request body ended before it was complete." },
	"request.size.invalid": { code: "validation_failed", message: "The request body's length differs from its Content-Length." }
};

function statusOf(err: ParserError): number | undefined {
	for (const candidate of [err.status, err.statusCode]) if (typeof candidate === "number") return candidate;
	return undefined;
}

/**
 * The client error a body-parser failure stands for, or the error unchanged when it is ours
 * (a 5xx, or something that is not a parser error at all).
 */
export function bodyParserFailure(err: unknown, contentEncoding: string | undefined): unknown {
	const e: ParserError = err && typeof err === "object" ? (err as ParserError) : {};
	const known = typeof e.type === "string" ? BY_TYPE[e.type] : undefined;
	if (known) return appError(known.code, known.message);
	const status = statusOf(e);
	if (status === undefined || status >= 500) return err;
	// What is left with a 4xx status is the decompression stream failing on bytes that are not what
	// the Content-Encoding header declares.
	const encoding = (contentEncoding ?? "").trim().toLowerCase().slice(0, 20) || "its Content-Encoding";
	return appError("invalid_json", `The request body could not be decoded as ${encoding} data, as its Content-Encoding header declares.`, {
		hint: "Send the body uncompressed, or make sure it really is compressed with the declared Content-Encoding."
	});
}
