/**
 * Reads a ZIP archive's central directory - names and declared sizes only, nothing is inflated - so a
 * DOCX can be judged before any parser decompresses it.
 *
 * The declared sizes are what a bomb must declare too: the decompressor used afterwards (yauzl inside
 * word-extractor) refuses an entry that inflates past its declared size, so an archive cannot pass
 * this check with small numbers and then inflate to large ones.
 */

export interface ZipSummary {
	entries: number;
	names: string[];
	compressedBytes: number;
	uncompressedBytes: number;
	/**
	 * Entries whose compressed size is impossible for their declared size: deflate never grows data
	 * by more than a few bytes per 64 KiB block, so a larger compressed size means the declared
	 * (inflated) size understates what the data really inflates to.
	 */
	impossibleSizes: string[];
}

/** Why an archive could not be summarised. */
export class ZipFormatError extends Error {
	override name = "ZipFormatError";
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_ENTRY_SIGNATURE = 0x02014b50;
const EOCD_MIN_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** Office documents have tens of parts; thousands of entries is an attack on the parser. */
const MAX_ENTRIES = 5000;
const STORED = 0;
const DEFLATED = 8;

/** Most a deflate stream can be for `size` input bytes (zlib's deflateBound, rounded up generously). */
function deflateBound(size: number): number {
	return size + Math.ceil(size / 1024) + 64;
}

function findEndOfCentralDirectory(zip: Buffer): number {
	const lowest = Math.max(0, zip.length - EOCD_MIN_SIZE - MAX_COMMENT);
	for (let at = zip.length - EOCD_MIN_SIZE; at >= lowest; at--) {
		if (zip.readUInt32LE(at) === EOCD_SIGNATURE) return at;
	}
	throw new ZipFormatError("no end-of-central-directory record");
}

export function inspectZip(zip: Buffer): ZipSummary {
	if (zip.length < EOCD_MIN_SIZE) throw new ZipFormatError("too short to be a ZIP archive");
	const eocd = findEndOfCentralDirectory(zip);
	const entries = zip.readUInt16LE(eocd + 10);
	const directorySize = zip.readUInt32LE(eocd + 12);
	const directoryOffset = zip.readUInt32LE(eocd + 16);
	// ZIP64 marks these fields with all-ones; a document under 10 MB never needs ZIP64.
	if (entries === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
		throw new ZipFormatError("ZIP64 archives are not accepted");
	}
	if (entries > MAX_ENTRIES) throw new ZipFormatError(`more than ${MAX_ENTRIES} entries`);
	if (directoryOffset + directorySize > eocd) throw new ZipFormatError("central directory out of bounds");

	const names: string[] = [];
	const impossibleSizes: string[] = [];
	let compressedBytes = 0;
	let uncompressedBytes = 0;
	let at = directoryOffset;
	for (let i = 0; i < entries; i++) {
		if (at + 46 > eocd || zip.readUInt32LE(at) !== CENTRAL_ENTRY_SIGNATURE) {
			throw new ZipFormatError("damaged central directory");
		}
		const method = zip.readUInt16LE(at + 10);
		const compressed = zip.readUInt32LE(at + 20);
		const uncompressed = zip.readUInt32LE(at + 24);
		if (compressed === 0xffffffff || uncompressed === 0xffffffff) throw new ZipFormatError("ZIP64 entries are not accepted");
		const nameLength = zip.readUInt16LE(at + 28);
		const extraLength = zip.readUInt16LE(at + 30);
		const commentLength = zip.readUInt16LE(at + 32);
		const name = zip.toString("utf8", at + 46, Math.min(at + 46 + nameLength, eocd));
		names.push(name);
		if ((method === STORED && compressed !== uncompressed) || (method === DEFLATED && compressed > deflateBound(uncompressed))) {
			impossibleSizes.push(name);
		}
		compressedBytes += compressed;
		uncompressedBytes += uncompressed;
		at += 46 + nameLength + extraLength + commentLength;
	}
	return { entries, names, compressedBytes, uncompressedBytes, impossibleSizes };
}
