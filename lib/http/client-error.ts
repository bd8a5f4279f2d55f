/**
 * The reply to a request Node's HTTP parser refused before any route saw it: a malformed request
 * line or header (400), headers over the size limit (431), a chunk extension over its limit (413),
 * or a request not received in time (408). Node's own reply has no body; this one carries the
 * SPEC §7 Error body like every other failure. Written straight to the socket, then closed.
 */
import { STATUS_CODES } from "node:http";
import { appError, ErrorCode } from "../errors";
import { renderError } from "./error-body";
import { API_VERSION } from "./versioning";

const BY_PARSER_CODE: Record<string, { code: ErrorCode; message: string }> = {
	HPE_HEADER_OVERFLOW: { code: "headers_too_large", message: "The request headers are larger than the server accepts (16 KB in all)." },
	HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: "payload_too_large", message: "A chunk extension of the request body is too large." },
	ERR_HTTP_REQUEST_TIMEOUT: { code: "request_timeout", message: "The request was not received in time." }
};

const MALFORMED = { code: "malformed_request" as const, message: "The HTTP request is malformed: its request line or a header could not be parsed." };

/** The whole HTTP/1.1 response for a parser error code (`err.code` of the `clientError` event). */
export function clientErrorResponse(parserCode: string | undefined, publicUrl: string): string {
	const { code, message } = (parserCode !== undefined && BY_PARSER_CODE[parserCode]) || MALFORMED;
	const rendered = renderError(appError(code, message), publicUrl);
	const body = JSON.stringify(rendered.body);
	return [
		`HTTP/1.1 ${rendered.status} ${STATUS_CODES[rendered.status] ?? "Error"}`,
		"Content-Type: application/json; charset=utf-8",
		`Content-Length: ${Buffer.byteLength(body)}`,
		`API-Version: ${API_VERSION}`,
		"Cache-Control: no-store",
		"Connection: close",
		"",
		body
	].join("\r\n");
}
