/**
 * Reading an HTTP response body safely: decompression with the byte cap applied to what comes out of
 * the decoder (a few kilobytes of gzip can inflate to gigabytes), and text decoding by charset.
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import * as zlib from "node:zlib";
import { fetchFailure } from "../failures";

export interface ContentType {
	/** Lower-case MIME essence, `""` when the header is missing. */
	mime: string;
	charset: string | undefined;
}

export function parseContentType(header: string | undefined): ContentType {
	if (!header) return { mime: "", charset: undefined };
	const [essence, ...params] = header.split(";");
	let charset: string | undefined;
	for (const param of params) {
		const [key, value] = param.split("=");
		if (key?.trim().toLowerCase() === "charset" && value) charset = value.trim().replace(/^"|"$/g, "").toLowerCase();
	}
	return { mime: essence.trim().toLowerCase(), charset };
}

function decoderFor(encoding: string, url: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
	switch (encoding) {
		case "":
		case "identity":
			return undefined;
		case "gzip":
		case "x-gzip":
			// Servers truncating the gzip trailer are common; accept what was decoded so far.
			return zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
		case "deflate":
			return zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH });
		case "br":
			return zlib.createBrotliDecompress();
		default:
			throw fetchFailure("unsupported_content_type", `The page uses an unsupported content encoding (${encoding}).`, { url });
	}
}

/**
 * Collects the body, decompressed, refusing it as soon as either the bytes on the wire or the
 * decompressed bytes pass `maxBytes`. The response is destroyed on refusal so the server stops sending.
 */
export async function readCappedBody(res: IncomingMessage, maxBytes: number, url: string): Promise<Buffer> {
	const tooLarge = () => fetchFailure("too_large", `The page is larger than ${maxBytes} bytes.`, { url });
	const declared = Number(res.headers["content-length"]);
	if (Number.isFinite(declared) && declared > maxBytes) {
		res.destroy();
		throw tooLarge();
	}
	const encoding = String(res.headers["content-encoding"] ?? "").trim().toLowerCase();
	let decoder: ReturnType<typeof decoderFor>;
	try {
		decoder = decoderFor(encoding, url);
	} catch (err) {
		res.destroy();
		throw err;
	}
	let wireBytes = 0;
	let wireOverflow = false;
	res.on("data", (chunk: Buffer) => {
		wireBytes += chunk.length;
		if (wireBytes > maxBytes && !wireOverflow) {
			wireOverflow = true;
			res.destroy();
			decoder?.destroy();
		}
	});
	const source: Readable = decoder ? res.pipe(decoder) : res;
	if (decoder) res.on("error", err => decoder.destroy(err));

	const chunks: Buffer[] = [];
	let total = 0;
	try {
		for await (const chunk of source) {
			const buf = chunk as Buffer;
			total += buf.length;
			if (total > maxBytes) {
				res.destroy();
				source.destroy();
				throw tooLarge();
			}
			chunks.push(buf);
		}
	} catch (err) {
		if (wireOverflow) throw tooLarge();
		if (err && typeof err === "object" && "data" in err) throw err;
		throw fetchFailure("network", "The page's body could not be read completely.", { url });
	}
	if (wireOverflow) throw tooLarge();
	return Buffer.concat(chunks);
}

/** A `<meta charset>` or http-equiv declaration in the first kilobyte of an HTML document. */
function sniffHtmlCharset(body: Buffer): string | undefined {
	const head = body.subarray(0, 1024).toString("latin1");
	const match = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head);
	return match?.[1].toLowerCase();
}

/** Decodes a body to text by its declared (or sniffed) charset, falling back to UTF-8. */
export function decodeText(body: Buffer, type: ContentType): string {
	const label = type.charset ?? (type.mime.includes("html") ? sniffHtmlCharset(body) : undefined) ?? "utf-8";
	let decoder: TextDecoder;
	try {
		decoder = new TextDecoder(label);
	} catch {
		decoder = new TextDecoder("utf-8");
	}
	return decoder.decode(body);
}

/** Best guess of a body's type when the server sent no Content-Type. */
export function sniffMime(body: Buffer): string {
	const head = body.subarray(0, 1024);
	if (head.includes(0)) return "application/octet-stream";
	const text = head.toString("latin1").trimStart().toLowerCase();
	if (text.startsWith("<?xml")) return text.includes("<html") ? "application/xhtml+xml" : "application/xml";
	if (text.startsWith("<!doctype html") || text.startsWith("<html") || /<(head|body|title|p|div)[\s>]/.test(text)) return "text/html";
	return "text/plain";
}
