/**
 * PUT /uploads/{token}: the embedded store's presigned upload target. The token is the storage
 * key in base64url; the query carries the signed grant (content type, size limit, expiry).
 */
import type { ServerResponse } from "node:http";
import { appError } from "../../lib/errors";
import { LocalObjectStore } from "../../lib/storage/local-store";
import type { GatewayHandler, GatewayRequest } from "./context";

const REFUSALS = {
	signature: "The upload signature is not valid for this request.",
	expired: "The upload URL has expired; request a new one.",
	content_type: "The Content-Type differs from the one declared when the URL was issued.",
	key: "The upload URL is malformed."
} as const;

export function createUploadHandler(getStore: () => LocalObjectStore): GatewayHandler {
	return async (_deps, req: GatewayRequest, res: ServerResponse) => {
		const url = new URL(req.url ?? "/", "http://upload.invalid");
		const token = decodeURIComponent(req.$path.slice("/uploads/".length));
		const key = Buffer.from(token, "base64url").toString("utf8");
		const verdict = getStore().verifyPut(key, url.searchParams, req.headers["content-type"]);
		if ("refused" in verdict) {
			req.resume();
			throw appError("forbidden", REFUSALS[verdict.refused]);
		}
		const declared = Number(req.headers["content-length"] ?? NaN);
		if (Number.isFinite(declared) && declared > verdict.maxBytes) {
			req.resume();
			throw appError("payload_too_large", `The upload is ${declared} bytes; this URL accepts at most ${verdict.maxBytes}.`);
		}
		try {
			await getStore().write(key, req, verdict.contentType, verdict.maxBytes);
		} catch (err) {
			if ((err as { tooLarge?: boolean }).tooLarge) {
				req.resume();
				throw appError("payload_too_large", `This URL accepts at most ${verdict.maxBytes} bytes.`);
			}
			throw err;
		}
		res.statusCode = 200;
		res.setHeader("Content-Length", 0);
		res.end();
	};
}
