/**
 * A PDF page's text from its positioned pieces of text (pdf.js `getTextContent` items), with a
 * blank line where a paragraph ends. A PDF has no paragraphs, only lines placed on the page: left
 * as lines, a one-page FAQ reads as one paragraph, and every question about it was answered with
 * the whole page. Paragraphs are told by the space above a line: more than a line's usual pitch
 * (authors and word processors space paragraphs apart, or leave an empty line between them).
 *
 * Lines are put together as pdf-parse did before (its defaults): a new line where the baseline
 * moves by more than `LINE_THRESHOLD` and by more than the tallest piece on the line (so a
 * superscript stays on its line) or where pdf.js marks one; a tab between pieces of one line that
 * stand further apart than `CELL_THRESHOLD` (table cells).
 */

import { ENDS_STATEMENT } from "../text/sentences";

/** One piece of text, its position in page coordinates read top-down (y grows down the page). */
export interface PlacedText {
	str: string;
	x: number;
	y: number;
	width: number;
	height: number;
	/** pdf.js: the piece ends its line. */
	hasEOL: boolean;
}

/** Baseline move (in points) from which a piece may start a new line. */
const LINE_THRESHOLD = 4.6;
/** Horizontal gap (in points) from which two pieces of one line are separate cells. */
const CELL_THRESHOLD = 7;
/**
 * The space above a line, over the page's line pitch, from which the line starts a paragraph.
 * Paragraph spacing is at least half a line in common styles (an empty line between paragraphs is
 * twice the pitch); line spacing varies by much less within a page.
 */
const PARAGRAPH_GAP = 1.3;
/** A line pitch below this share of the text's height is no pitch (pieces of one line at nearly the same height). */
const MIN_PITCH_SHARE = 0.5;

interface Line {
	text: string;
	/** Baseline of its first piece with text. */
	y: number;
	/** Tallest piece. */
	height: number;
}

function linesOf(items: readonly PlacedText[]): Line[] {
	const lines: Line[] = [];
	let text = "";
	let y: number | undefined;
	let height = 0;
	let lastY: number | undefined;
	let lastEnd: number | undefined;
	const close = () => {
		if (text.trim() !== "" && y !== undefined) lines.push({ text, y, height });
		text = "";
		y = undefined;
		height = 0;
	};
	for (const item of items) {
		const move = lastY === undefined ? 0 : Math.abs(lastY - item.y);
		if (move > LINE_THRESHOLD && move - 1 > height) close();
		const cell = lastY !== undefined && move < LINE_THRESHOLD && lastEnd !== undefined && text !== "" && Math.abs(lastEnd - item.x) > CELL_THRESHOLD;
		text += cell ? `\t${item.str}` : item.str;
		if (y === undefined && item.str.trim() !== "") y = item.y;
		height = Math.max(height, item.height);
		lastY = item.y;
		lastEnd = item.x + item.width;
		if (item.hasEOL) close();
	}
	close();
	return lines;
}

/**
 * The page's usual distance between one baseline and the next: the smallest one that is a real
 * step down (at least `MIN_PITCH_SHARE` of the taller line's height). Undefined when the page has
 * fewer than two lines.
 */
function linePitch(lines: readonly Line[]): number | undefined {
	let pitch: number | undefined;
	for (let i = 1; i < lines.length; i++) {
		const gap = lines[i].y - lines[i - 1].y;
		if (gap >= MIN_PITCH_SHARE * Math.max(lines[i].height, lines[i - 1].height) && (pitch === undefined || gap < pitch)) pitch = gap;
	}
	return pitch;
}

/** Lines as text: one line per line, a blank line before each paragraph. */
function paragraphs(lines: readonly Line[]): string {
	const pitch = linePitch(lines);
	return lines
		.map((line, i) => {
			if (i === 0) return line.text;
			const gap = line.y - lines[i - 1].y;
			// Further down than a line's pitch, or back up the page (the next column).
			const opensParagraph = pitch !== undefined && (gap > PARAGRAPH_GAP * pitch || gap < 0);
			return (opensParagraph ? "\n\n" : "\n") + line.text;
		})
		.join("");
}

/** The page's text: one line per line, a blank line before each paragraph. */
export function pageText(items: readonly PlacedText[]): string {
	return paragraphs(linesOf(items));
}

/** Pages from which a line repeated at the top or foot of most pages is a running header or footer. */
const MIN_PAGES_FOR_RUNNING_LINES = 3;
/** Share of the pages a line must open (or close) to be a running header (or footer). */
const RUNNING_LINE_SHARE = 0.5;

/** A line as it repeats from page to page: its figures (page numbers, dates) and spacing ignored. */
function runningForm(line: Line): string {
	return line.text.replace(/\d+/g, "#").replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * The forms of the lines that open (`at` 0) or close (`at` -1) at least half the pages: a document
 * title or chapter name printed atop every page, a page number or "Page 3 of 12" at its foot.
 */
function runningLines(pages: readonly Line[][], at: 0 | -1): Set<string> {
	const counts = new Map<string, number>();
	for (const lines of pages) {
		const line = lines.at(at);
		if (!line) continue;
		const form = runningForm(line);
		counts.set(form, (counts.get(form) ?? 0) + 1);
	}
	return new Set([...counts].filter(([, count]) => count >= RUNNING_LINE_SHARE * pages.length).map(([form]) => form));
}

const STARTS_LOWER = /^\p{Ll}/u;

/**
 * A document's text from its pages' positioned text: each page's paragraphs, without the running
 * header and footer that repeat at the top and foot of most pages (from three pages on; the first
 * page keeps its top line, most often the document's title), and a paragraph that runs on to the
 * next page kept whole (the page's last line ends no sentence and the next page's first line starts
 * in lower case); other pages are apart by a blank line.
 */
export function documentText(pages: ReadonlyArray<readonly PlacedText[]>): string {
	const lines = pages.map(linesOf);
	if (lines.length >= MIN_PAGES_FOR_RUNNING_LINES) {
		const headers = runningLines(lines, 0);
		const footers = runningLines(lines, -1);
		for (const [number, page] of lines.entries()) {
			// The first page's top line is the document's title more often than a running header.
			if (number > 0 && page.length > 0 && headers.has(runningForm(page[0]))) page.shift();
			if (page.length > 0 && footers.has(runningForm(page[page.length - 1]))) page.pop();
		}
	}
	let text = "";
	let lastLine: Line | undefined;
	for (const page of lines) {
		if (page.length === 0) continue;
		const runsOn = lastLine !== undefined && !ENDS_STATEMENT.test(lastLine.text.trim()) && STARTS_LOWER.test(page[0].text.trim());
		text += (text ? (runsOn ? "\n" : "\n\n") : "") + paragraphs(page);
		lastLine = page[page.length - 1];
	}
	return text;
}
