/**
 * Gzip bodies made of a large constant prefix and a short tail that changes per response (a
 * JSON-RPC result that never changes, followed by the request's id), without compressing anything
 * per response: the prefix is deflated once, and each body is
 *
 *   gzip header · the prefix's deflate blocks (flushed to a byte boundary, not final)
 *   · one final stored (uncompressed) block holding the tail · CRC-32 and length of the whole.
 *
 * That is one ordinary gzip member (RFC 1952) holding one deflate stream (RFC 1951): a stored block
 * may follow any byte-aligned block, and the tail's CRC continues the prefix's. Any gzip decoder
 * reads it as it reads any other body.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";

/** ID1 ID2, CM = deflate, no flags, no modification time, no extra flags, OS unknown. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);
/** A stored block's LEN is 16 bits. */
const MAX_STORED = 0xffff;

export class GzipPrefix {
	private readonly deflated: Buffer;
	private readonly crc: number;
	private readonly length: number;

	constructor(prefix: Buffer) {
		// A sync flush ends the data on a byte boundary with an empty non-final stored block.
		this.deflated = deflateRawSync(prefix, { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_SYNC_FLUSH });
		this.crc = crc32(prefix);
		this.length = prefix.length;
	}

	/** The gzip body of `prefix + tail` as pieces to write in order; undefined when the tail is too long for one stored block. */
	body(tail: string): Buffer[] | undefined {
		const bytes = Buffer.from(tail, "utf8");
		if (bytes.length > MAX_STORED) return undefined;
		const stored = Buffer.allocUnsafe(5);
		stored[0] = 0x01; // BFINAL = 1, BTYPE = 00 (stored), padding to the byte boundary
		stored.writeUInt16LE(bytes.length, 1);
		stored.writeUInt16LE(~bytes.length & 0xffff, 3);
		const trailer = Buffer.allocUnsafe(8);
		trailer.writeUInt32LE(crc32(bytes, this.crc), 0);
		trailer.writeUInt32LE((this.length + bytes.length) % 2 ** 32, 4);
		return [GZIP_HEADER, this.deflated, stored, bytes, trailer];
	}
}
