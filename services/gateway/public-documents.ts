/**
 * Public documents the gateway serves itself (a strong ETag: the widget script, 16 KB on every page
 * that embeds the chat) go gzip-coded to clients that accept it. A document's compressed bytes are
 * made once per ETag, off the event loop (zlib's thread pool), shared by the requests that arrive
 * meanwhile, and kept for the most recently used documents.
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
import { RecentMap } from "../../lib/cache/recent-map";
import { acceptsGzip, COMPRESS_MIN_BYTES, compressibleType } from "../../lib/http/compression";
import { gzipEtag, ifNoneMatchNames } from "../../lib/http/etag";
import { headerValue, sendChunks } from "./context";

const gzipAsync = promisify(gzip);

/** Documents kept compressed: the gateway's static assets are a handful; each new build tags them anew. */
const KEPT_DOCUMENTS = 32;
const compressed = new RecentMap<string, Promise<Buffer>>(KEPT_DOCUMENTS);

function gzipped(etag: string, body: string | Buffer): Promise<Buffer> {
	let made = compressed.get(etag);
	if (!made) {
		made = gzipAsync(body);
		compressed.set(etag, made);
		made.catch(() => compressed.delete(etag));
	}
	return made;
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

interface Coded {
	body: string | Buffer;
	/** Set when the body is gzip-coded: the variant's tag. */
	gzipTag?: string;
}

/** The body as the client should get it: gzip-coded when it takes gzip and the body is text of some length. */
async function coded(acceptEncoding: string | undefined, etag: string, body: string | Buffer, contentType: string | undefined): Promise<Coded> {
	const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
	if (!compressibleType(contentType) || length < COMPRESS_MIN_BYTES || !acceptsGzip(acceptEncoding)) return { body };
	return { body: await gzipped(etag, body), gzipTag: gzipEtag(etag) };
}

/** On a 304, the tag of the variant the client holds: the gzip one when that is what it revalidated. */
function heldTag(req: IncomingMessage, etag: string): string {
	const gzipTag = gzipEtag(etag);
	return ifNoneMatchNames(headerValue(req, "if-none-match"), gzipTag) ? gzipTag : etag;
}

/** Marks a response with a strong ETag as varying by Accept-Encoding. */
function varyOnEncoding(res: ServerResponse): void {
	if (isStrongTag(res.getHeader("ETag"))) res.setHeader("Vary", varyWithEncoding(res.getHeader("Vary")));
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
export async function sendPublicDocument(req: IncomingMessage, res: ServerResponse, body: string | Buffer, contentType: string): Promise<void> {
	const etag = res.getHeader("ETag");
	if (!isStrongTag(etag)) return sendChunks(res, 200, [body], contentType);
	varyOnEncoding(res);
	const answer = await coded(headerValue(req, "accept-encoding"), etag, body, contentType);
	if (answer.gzipTag) {
		res.setHeader("ETag", answer.gzipTag);
		res.setHeader("Content-Encoding", "gzip");
	}
	sendChunks(res, 200, [answer.body], contentType);
}
