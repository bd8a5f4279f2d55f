/**
 * Files of the embedded index. Layout under the index directory:
 *
 *   <chatbot>/active.json            {"generation": 7, "chunks": 120}: the generation searches use
 *   <chatbot>/g<generation>/000001.jsonl, 000002.jsonl, …   one segment per upsert call
 *
 * Every file is written to a temporary name in the same directory, flushed to disk, then renamed:
 * a rename is atomic on POSIX file systems, so a reader (or a restart after a crash) sees the old
 * file or the new one, never a torn one. Upserts append a new segment instead of rewriting the
 * generation, so indexing N chunks in batches costs O(N); on load, later segments win for a chunk id.
 */
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import * as readline from "node:readline";
import type { Chunk } from "./chunker";
import type { IndexedChunk } from "./vector-index";

export const ACTIVE_FILE = "active.json";
const SEGMENT_FILE = /^(\d{6,})\.jsonl$/;
const TEMP_PREFIX = ".tmp-";
/** Lines are written in batches of about this many characters, to bound memory for big upserts. */
const WRITE_BATCH_CHARS = 1 << 20;

export interface ActivePointer {
	generation: number;
	chunks: number;
}

/** One line of a segment file. Short keys: a segment holds one line per chunk. */
interface SegmentRecord {
	c: Chunk;
	i: number[];
	v: number[];
	/** Embedding as base64 of little-endian float32. */
	d?: string;
}

/** Directory name for a chatbot id: readable when the id is file-name-safe, hashed otherwise. */
export function chatbotDirName(chatbotId: string): string {
	return /^[A-Za-z0-9_-]{1,100}$/.test(chatbotId)
		? `c-${chatbotId}`
		: `h-${createHash("sha256").update(chatbotId).digest("hex").slice(0, 40)}`;
}

export function generationDirName(generation: number): string {
	return `g${generation}`;
}

export function parseGenerationDirName(name: string): number | undefined {
	const match = /^g(\d+)$/.exec(name);
	return match ? Number(match[1]) : undefined;
}

/** Writes `parts` to `file` atomically (temp file, fsync, rename). */
export async function writeFileAtomic(file: string, parts: Iterable<string>): Promise<void> {
	const temp = path.join(path.dirname(file), `${TEMP_PREFIX}${randomBytes(6).toString("hex")}`);
	// Index files hold the chatbot's text: readable by the service's user only.
	const handle = await fs.open(temp, "w", 0o600);
	try {
		let buffer = "";
		for (const part of parts) {
			buffer += part;
			if (buffer.length >= WRITE_BATCH_CHARS) {
				await handle.write(buffer);
				buffer = "";
			}
		}
		if (buffer) await handle.write(buffer);
		await handle.sync();
	} finally {
		await handle.close();
	}
	try {
		await fs.rename(temp, file);
	} catch (err) {
		await fs.rm(temp, { force: true });
		throw err;
	}
}

export async function readActivePointer(chatbotDir: string): Promise<ActivePointer | undefined> {
	try {
		const parsed = JSON.parse(await fs.readFile(path.join(chatbotDir, ACTIVE_FILE), "utf8")) as Partial<ActivePointer>;
		return typeof parsed.generation === "number" ? { generation: parsed.generation, chunks: parsed.chunks ?? 0 } : undefined;
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw err;
	}
}

export async function writeActivePointer(chatbotDir: string, pointer: ActivePointer): Promise<void> {
	await fs.mkdir(chatbotDir, { recursive: true, mode: 0o700 });
	await writeFileAtomic(path.join(chatbotDir, ACTIVE_FILE), [JSON.stringify(pointer)]);
}

function* segmentLines(items: readonly IndexedChunk[]): Generator<string> {
	for (const { chunk, sparse, dense } of items) {
		const record: SegmentRecord = { c: chunk, i: sparse.indices, v: sparse.values };
		if (dense) record.d = Buffer.from(Float32Array.from(dense).buffer).toString("base64");
		yield `${JSON.stringify(record)}\n`;
	}
}

export async function writeSegment(generationDir: string, sequence: number, items: readonly IndexedChunk[]): Promise<void> {
	await fs.mkdir(generationDir, { recursive: true, mode: 0o700 });
	await writeFileAtomic(path.join(generationDir, `${String(sequence).padStart(6, "0")}.jsonl`), segmentLines(items));
}

function decodeDense(base64: string): number[] {
	// Copy out of Buffer's shared pool: a pooled slice may not be 4-byte aligned.
	const bytes = Uint8Array.from(Buffer.from(base64, "base64"));
	return Array.from(new Float32Array(bytes.buffer));
}

/**
 * Reads a generation's segments in order and hands each record to `onItem`. Returns the next free
 * segment number. Leftover temporary files of an interrupted write are removed.
 */
export async function readSegments(generationDir: string, onItem: (item: IndexedChunk) => void): Promise<number> {
	let names: string[];
	try {
		names = await fs.readdir(generationDir);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return 1;
		throw err;
	}
	const segments = names
		.map(name => ({ name, match: SEGMENT_FILE.exec(name) }))
		.filter((s): s is { name: string; match: RegExpExecArray } => s.match !== null)
		.map(s => ({ name: s.name, sequence: Number(s.match[1]) }))
		.sort((a, b) => a.sequence - b.sequence);
	for (const name of names) if (name.startsWith(TEMP_PREFIX)) await fs.rm(path.join(generationDir, name), { force: true });
	for (const segment of segments) {
		const lines = readline.createInterface({ input: createReadStream(path.join(generationDir, segment.name), "utf8"), crlfDelay: Infinity });
		for await (const line of lines) {
			if (!line) continue;
			const record = JSON.parse(line) as SegmentRecord;
			onItem({ chunk: record.c, sparse: { indices: record.i, values: record.v }, ...(record.d ? { dense: decodeDense(record.d) } : {}) });
		}
	}
	return segments.length ? segments[segments.length - 1].sequence + 1 : 1;
}

/** Generation numbers that have a directory under the chatbot's directory. */
export async function listGenerations(chatbotDir: string): Promise<number[]> {
	try {
		return (await fs.readdir(chatbotDir))
			.map(parseGenerationDirName)
			.filter((g): g is number => g !== undefined)
			.sort((a, b) => a - b);
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw err;
	}
}
