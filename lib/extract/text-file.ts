/**
 * Text and Markdown files: decoding by byte-order mark or charset guess, front matter, the title a
 * document gives itself, and clean-up. Runs in the parser worker (parse-tasks.ts) like the binary
 * formats, because every step reads the whole file.
 */
import { parse as parseYaml } from "yaml";
import { normalizeText } from "./plain-text";

export interface ExtractedText {
	/** Normalised text; empty when the file holds none. */
	text: string;
	/** From document metadata or Markdown front matter / first heading, when there is one. */
	title?: string;
	/** Page count (PDF only). */
	pages?: number;
}

/** True when the bytes start with a UTF-16 byte-order mark. */
function isUtf16(bytes: Uint8Array): boolean {
	return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/**
 * True when the bytes cannot be text: NUL bytes do not occur in text encoded as UTF-8 or any
 * single-byte charset (UTF-16, recognised by its byte-order mark, is the exception).
 */
export function looksBinary(bytes: Uint8Array): boolean {
	return !isUtf16(bytes) && bytes.subarray(0, 8192).includes(0);
}

/** Decodes text bytes: UTF-16 by BOM, else UTF-8, else Windows-1252 for legacy files. */
function decodeTextFile(bytes: Uint8Array): string {
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
	try {
		return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
	} catch {
		return new TextDecoder("windows-1252").decode(bytes);
	}
}

const FRONT_MATTER = /^(?:---[ \t]*\n([\s\S]*?)\n(?:---|\.\.\.)|\+\+\+[ \t]*\n[\s\S]*?\n\+\+\+)[ \t]*(?:\n|$)/;

/** Markdown without its YAML (or TOML) front matter, and the title the document gives itself. */
export function stripFrontMatter(markdown: string): { body: string; title?: string } {
	const source = markdown.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
	const match = FRONT_MATTER.exec(source);
	const body = match ? source.slice(match[0].length) : source;
	let title: string | undefined;
	if (match?.[1] !== undefined) {
		try {
			const data: unknown = parseYaml(match[1]);
			const value = data && typeof data === "object" ? (data as Record<string, unknown>).title : undefined;
			if (typeof value === "string" && value.trim()) title = value.trim();
		} catch {
			// Malformed front matter is still dropped; it just gives no title.
		}
	}
	title ??= firstHeading(body);
	return { body, title };
}

/**
 * The text of the first level-one ATX heading (`# Title`), without closing `#`s: what
 * `/^#[ \t]+(.+?)[ \t#]*$/m` captures, found line by line by trimming from both ends, because that
 * lazy capture is quadratic on a heading line that ends in a long run of blanks or `#`s.
 */
function firstHeading(markdown: string): string | undefined {
	for (const line of markdown.split(/[\n\r\u2028\u2029]/)) {
		if (line[0] !== "#" || !isBlank(line[1])) continue;
		let start = 1;
		while (isBlank(line[start])) start++;
		// The capture takes at least one character, giving back a blank of the run when nothing follows it.
		if (start === line.length) {
			if (start >= 3) return line[start - 1];
			continue;
		}
		let end = line.length;
		while (end > start && (isBlank(line[end - 1]) || line[end - 1] === "#")) end--;
		return line.slice(start, Math.max(end, start + 1));
	}
	return undefined;
}

function isBlank(char: string | undefined): boolean {
	return char === " " || char === "\t";
}

/** The text (and, for Markdown, the title) of a text file. */
export function readTextFile(bytes: Uint8Array, markdown: boolean): ExtractedText {
	const decoded = decodeTextFile(bytes);
	if (!markdown) return { text: normalizeText(decoded) };
	const { body, title } = stripFrontMatter(decoded);
	return { text: normalizeText(body), ...(title ? { title } : {}) };
}
