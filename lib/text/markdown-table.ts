/**
 * Markdown pipe tables (GitHub Flavored Markdown): a header row, a delimiter row of dashes with
 * one cell per header cell ("| --- | :---: |"), then body rows. Owners type and upload them; the
 * chunker reads their rows as lines of cells, without the pipes and the delimiter row that would
 * otherwise show in answers.
 *
 * Read by scanning, with no pattern over a whole line: a row's cells are split at each "|" not
 * escaped with a backslash.
 */

/** The cells of a table row, trimmed, without the empty edges a leading or trailing "|" leaves. */
export function tableCells(line: string): string[] {
	const cells: string[] = [];
	let cell = "";
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (c === "\\" && line[i + 1] === "|") {
			cell += "|";
			i++;
		} else if (c === "|") {
			cells.push(cell.trim());
			cell = "";
		} else cell += c;
	}
	cells.push(cell.trim());
	const trimmed = line.trim();
	if (trimmed.startsWith("|")) cells.shift();
	if (trimmed.endsWith("|") && !trimmed.endsWith("\\|") && cells.length > 0) cells.pop();
	return cells;
}

/** One cell of a delimiter row: dashes with an optional colon at either end. */
function isDelimiterCell(cell: string): boolean {
	let start = 0;
	let end = cell.length;
	if (cell[start] === ":") start++;
	if (end > start && cell[end - 1] === ":") end--;
	if (end <= start) return false;
	for (let i = start; i < end; i++) if (cell[i] !== "-") return false;
	return true;
}

/** A line that can be a table row: it holds a "|" (escaped ones count too; the cells decide). */
function mayBeTableRow(line: string): boolean {
	return line.includes("|");
}

export interface MarkdownTable {
	header: string[];
	rows: string[][];
	/** Index of the first line after the table. */
	end: number;
}

/**
 * The table starting at `lines[start]`, if one does: a header row with a "|", then a delimiter row
 * with as many cells. Its body runs while lines hold a "|" (GFM also takes a following line
 * without one as a row; a sentence typed right under a table is more likely prose).
 */
export function tableAt(lines: readonly string[], start: number): MarkdownTable | undefined {
	const headerLine = lines[start];
	const delimiterLine = lines[start + 1];
	if (headerLine === undefined || delimiterLine === undefined || !mayBeTableRow(headerLine) || !mayBeTableRow(delimiterLine)) return undefined;
	const header = tableCells(headerLine);
	const delimiter = tableCells(delimiterLine);
	if (header.length === 0 || delimiter.length !== header.length || !delimiter.every(isDelimiterCell)) return undefined;
	const rows: string[][] = [];
	let end = start + 2;
	while (end < lines.length && lines[end].trim() !== "" && mayBeTableRow(lines[end])) rows.push(tableCells(lines[end++]));
	return { header, rows, end };
}
