/**
 * Public documents the gateway serves itself (a strong ETag: the widget script, 16 KB on every page
 * that embeds the chat) go gzip-coded to clients that accept it, coded once per document.
 *
 * The gzip variant is another representation, so it has its own tag (`"<tag>-gzip"`, which
 * If-None-Match accepts as the same: lib/http/etag.ts), and every answer with a strong ETag says
 * `Vary: Accept-Encoding`, 304s included, since shared caches may keep these documents.
 *
 * The discovery documents and the documentation pages are not coded yet: their tests pin their
 * Vary (exactly `Accept` on negotiated pages) and an ETag equal to the SHA-256 of the bytes a client
 * reads, which a coded variant cannot keep while staying correct for shared caches.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";
import { acceptsGzip, COMPRESS_MIN_BYTES, compressibleType } from "../../lib/http/compression";
import { gzipEtag, ifNoneMatchNames } from "../../lib/http/etag";
import { headerValue, sendChunks } from "./context";

const gzipAsync = promisify(gzip);

/**
 * A document's body and media type, and its gzip coding, made the first time a client takes it,
 * off the event loop (zlib's thread pool), shared by the requests that arrive meanwhile.
 */
export class PublicDocument {
	private gzipped: Promise<Buffer> | undefined;

	constructor(
		readonly body: Buffer,
		readonly contentType: string
	) {}

	/** Text of some length: worth coding. */
	get compressible(): boolean {
		return compressibleType(this.contentType) && this.body.length >= COMPRESS_MIN_BYTES;
	}

	gzip(): Promise<Buffer> {
		if (!this.gzipped) {
			this.gzipped = gzipAsync(this.body);
			this.gzipped.catch(() => (this.gzipped = undefined));
		}
		return this.gzipped;
	}
}

function isStrongTag(etag: unknown): etag is string {
	return typeof etag === "string" && etag.startsWith('"');
}

/** A Vary value that also names Accept-Encoding. */
function varyWithEncoding(vary: unknown): string {
	if (vary === undefined || vary === null || vary === "") return "Accept-Encoding";
	const text = String(vary);
	return text.toLowerCase().includes("accept-encoding") ? text : `${text}, Accept-Encoding`;
}

/** On a 304, the tag of the variant the client holds: the gzip one when that is what it revalidated. */
function heldTag(req: IncomingMessage, etag: string): string {
	const gzipTag = gzipEtag(etag);
	return ifNoneMatchNames(headerValue(req, "if-none-match"), gzipTag) ? gzipTag : etag;
}

function varyOnEncoding(res: ServerResponse): void {
	res.setHeader("Vary", varyWithEncoding(res.getHeader("Vary")));
}

/**
 * Headers of a 304 for a public document: it stands for a 200 that may have been coded, so it
 * varies by Accept-Encoding and names the variant the client holds.
 */
export function markNotModified(req: IncomingMessage, res: ServerResponse): void {
	const etag = res.getHeader("ETag");
	if (!isStrongTag(etag)) return;
	varyOnEncoding(res);
	res.setHeader("ETag", heldTag(req, etag));
}

/**
 * Sends a 200 whose other headers are already set: a public document (a strong ETag among those
 * headers) is coded as the client takes it; anything else goes as it is.
 */
export async function sendPublicDocument(req: IncomingMessage, res: ServerResponse, document: PublicDocument): Promise<void> {
	const etag = res.getHeader("ETag");
	if (isStrongTag(etag)) {
		varyOnEncoding(res);
		if (document.compressible && acceptsGzip(headerValue(req, "accept-encoding"))) {
			const coded = await document.gzip();
			res.setHeader("ETag", gzipEtag(etag));
			res.setHeader("Content-Encoding", "gzip");
			return sendChunks(res, 200, [coded], document.contentType);
		}
	}
	sendChunks(res, 200, [document.body], document.contentType);
}
