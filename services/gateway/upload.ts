/**
 * PUT /uploads/{token}: the embedded store's presigned upload target. The token is the storage
 * key in base64url; the query carries the signed grant (content type, size limit, expiry).
 *
 * The signature proves the URL is ours; the storage service's grant makes it single-use: the PUT
 * starts the grant's one upload (`storage.beginPut`) and reports whether the bytes were stored
 * (`storage.endPut`). A stored upload uses the URL up; a failed one may be retried.
 */
import type { ServerResponse } from "node:http";
import { appError } from "../../lib/errors";
import { LocalObjectStore } from "../../lib/storage/local-store";
import type { PutRefusal } from "../../lib/storage/upload-grants";
import type { GatewayHandler, GatewayRequest } from "./context";

const SIGNATURE_REFUSALS = {
	signature: "The upload signature is not valid for this request.",
	expired: "The upload URL has expired; request a new one.",
	content_type: "The Content-Type differs from the one declared when the URL was issued.",
	key: "The upload URL is malformed."
} as const;

function grantRefusal(reason: PutRefusal) {
	switch (reason) {
		case "used":
			return appError("conflict", "This upload URL was already used; each URL takes one upload. Request a new one for another file.");
		case "in_progress":
			return appError("conflict", "An upload to this URL is already in progress.", { hint: "Wait for it to finish; each URL takes one upload." });
		case "expired":
			return appError("forbidden", SIGNATURE_REFUSALS.expired);
		case "unknown":
			return appError("forbidden", "This upload URL is no longer valid; request a new one.");
	}
}

function hasContentCoding(req: GatewayRequest): boolean {
	const coding = req.headers["content-encoding"];
	return coding !== undefined && coding.trim().toLowerCase() !== "identity";
}

export function createUploadHandler(getStore: () => LocalObjectStore): GatewayHandler {
	return async (deps, req: GatewayRequest, res: ServerResponse) => {
		const url = new URL(req.url ?? "/", "http://upload.invalid");
		const token = decodeURIComponent(req.$path.slice("/uploads/".length));
		const key = Buffer.from(token, "base64url").toString("utf8");
		const verdict = getStore().verifyPut(key, url.searchParams, req.headers["content-type"]);
		if ("refused" in verdict) {
			req.resume();
			throw appError("forbidden", SIGNATURE_REFUSALS[verdict.refused]);
		}
		if (hasContentCoding(req)) {
			// The bytes are stored as sent; a compressed body would be stored compressed.
			req.resume();
			throw appError("unsupported_media_type", "Upload the file uncompressed: a Content-Encoding is not accepted here.", { hint: "Send the file's bytes as they are, without Content-Encoding." });
		}
		const declared = Number(req.headers["content-length"] ?? NaN);
		if (Number.isFinite(declared) && declared > verdict.maxBytes) {
			req.resume();
			throw appError("payload_too_large", `The upload is ${declared} bytes; this URL accepts at most ${verdict.maxBytes}.`);
		}
		const begun = await deps.call<{ ok: true } | { ok: false; reason: PutRefusal }>("storage.beginPut", { key });
		if (!begun.ok) {
			req.resume();
			throw grantRefusal(begun.reason);
		}
		let stored = false;
		try {
			await getStore().write(key, req, verdict.contentType, verdict.maxBytes);
			stored = true;
		} catch (err) {
			if ((err as { tooLarge?: boolean }).tooLarge) {
				req.resume();
				throw appError("payload_too_large", `This URL accepts at most ${verdict.maxBytes} bytes.`);
			}
			if (req.readableAborted || (err as NodeJS.ErrnoException).code === "ECONNRESET") {
				throw appError("validation_failed", "The upload ended before all its bytes arrived; nothing was stored.", { hint: "PUT the whole file again to the same URL." });
			}
			throw err;
		} finally {
			await deps.call("storage.endPut", { key, stored });
		}
		res.statusCode = 200;
		res.setHeader("Content-Length", 0);
		res.end();
	};
}
