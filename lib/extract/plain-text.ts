/**
 * Plain-text clean-up shared by every extractor: one line-break style, no trailing spaces, no runs
 * of blank lines, no control characters. Paragraph breaks (a blank line) survive for the chunker.
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
		.map(line => line.replace(/[ \t\u00a0]+$/g, ""))
		.join("\n")
		.replace(/\n{3,}/g, "\n\n")
		.trim();
}
