/**
 * Plain-text clean-up shared by every extractor: one line-break style, no trailing spaces, no runs
 * of blank lines, no control characters. Paragraph breaks (a blank line) survive for the chunker.
 *
 * Linear in the length of the text: trailing blanks are cut by a loop, not by a `[ \t]+$` pattern,
 * which a regex engine retries from every blank of a long run that is not at the end of its line.
 */

/** C0 controls other than tab and newline, DEL, and the replacement character of broken bytes. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/g;

export function normalizeText(text: string): string {
	return text
		.replace(/^\ufeff/, "")
		.replace(/\r\n?/g, "\n")
		.replace(/\f/g, "\n\n")
		.replace(CONTROL, "")
		.split("\n")
		.map(trimTrailingBlanks)
		.join("\n")
		.replace(/\n{3,}/g, "\n\n")
		.trim();
}

/** The line without trailing spaces, tabs and no-break spaces (other white space is kept). */
export function trimTrailingBlanks(line: string): string {
	let end = line.length;
	for (let c = line.charCodeAt(end - 1); c === 0x20 || c === 0x09 || c === 0xa0; c = line.charCodeAt(end - 1)) end--;
	return end === line.length ? line : line.slice(0, end);
}
