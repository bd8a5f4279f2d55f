/**
 * YAML front matter of the documentation sources: a `---` fenced block at the very top of the file.
 * The `.md` URLs serve the body only (SPEC §4.3), so stripping must be exact and never eat content.
 */
import { parse as parseYaml } from "yaml";

export interface SplitSource {
	/** The parsed YAML mapping; empty when the file has no front matter. */
	data: Record<string, unknown>;
	/** Everything after the closing fence, leading blank lines removed. */
	body: string;
}

// The opening fence must be the first line; the closing fence is the first line that is exactly `---`
// (or `...`, which YAML also allows to end a document). A BOM or CRLF line ends are tolerated.
const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

export function splitFrontMatter(source: string): SplitSource {
	const match = FRONT_MATTER.exec(source);
	if (!match) return { data: {}, body: source.replace(/^\uFEFF/, "") };
	const parsed: unknown = parseYaml(match[1]);
	if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) {
		throw new Error("front matter must be a YAML mapping");
	}
	return {
		data: (parsed ?? {}) as Record<string, unknown>,
		body: source.slice(match[0].length).replace(/^(?:[ \t]*\r?\n)+/, "")
	};
}

/** Removes the front matter, keeping the Markdown body exactly as written. */
export function stripFrontMatter(source: string): string {
	return splitFrontMatter(source).body;
}

/** The fields every documentation page declares. */
export interface DocFrontMatter {
	title: string;
	description: string;
	category: string;
	slug: string;
	order: number;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Parses and validates a documentation page's front matter. Our own sources are at fault when this
 * throws, so the message names the file and the field: the catalog refuses to load a broken doc set
 * rather than serve a page with no title.
 */
export function parseDocSource(source: string, fileLabel: string): { meta: DocFrontMatter; body: string } {
	let split: SplitSource;
	try {
		split = splitFrontMatter(source);
	} catch (err) {
		throw new Error(`${fileLabel}: invalid front matter: ${(err as Error).message}`);
	}
	const { data, body } = split;
	const text = (field: string): string => {
		const value = data[field];
		if (typeof value !== "string" || value.trim() === "") throw new Error(`${fileLabel}: front matter field "${field}" must be a non-empty string`);
		return value.trim();
	};
	const meta: DocFrontMatter = {
		title: text("title"),
		description: text("description"),
		category: text("category"),
		slug: text("slug"),
		order: typeof data.order === "number" && Number.isFinite(data.order) ? data.order : NaN
	};
	if (Number.isNaN(meta.order)) throw new Error(`${fileLabel}: front matter field "order" must be a number`);
	for (const field of ["category", "slug"] as const) {
		if (!SLUG.test(meta[field])) throw new Error(`${fileLabel}: front matter field "${field}" must be lowercase words joined by hyphens`);
	}
	if (body.trim() === "") throw new Error(`${fileLabel}: the page has no content`);
	return { meta, body };
}
