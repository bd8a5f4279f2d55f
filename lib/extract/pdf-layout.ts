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

/** The page's text: one line per line, a blank line before each paragraph. */
export function pageText(items: readonly PlacedText[]): string {
	const lines = linesOf(items);
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
