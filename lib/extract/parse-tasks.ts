/**
 * The tasks of the file-parser worker (see run-parser.ts): the bytes of one file in, its
 * normalised text out. Everything that reads a whole file runs here, off the event loop: the PDF
 * and Word parsers, text decoding, front matter, and clean-up.
 */
import { normalizeText } from "./plain-text";
import { ExtractedText, readTextFile } from "./text-file";

function withText(text: string, title: string | undefined, pages?: number): ExtractedText {
	const cleanTitle = title?.trim();
	return { text: normalizeText(text), ...(cleanTitle ? { title: cleanTitle } : {}), ...(pages !== undefined ? { pages } : {}) };
}

export async function pdf(bytes: Uint8Array): Promise<ExtractedText> {
	// Loaded on first use, so a worker that reads only text files never loads pdf.js.
	const { PDFParse } = await import("pdf-parse");
	const parser = new PDFParse({ data: bytes });
	try {
		const result = await parser.getText();
		let title: string | undefined;
		try {
			const value: unknown = (await parser.getInfo()).info?.Title;
			title = typeof value === "string" ? value : undefined;
		} catch {
			// Metadata is optional; the text is what matters.
		}
		// Pages joined by a blank line, without pdf-parse's "-- n of m --" markers.
		return withText(result.pages.map(page => page.text).join("\n\n"), title, result.total);
	} finally {
		await parser.destroy();
	}
}

/** DOC and DOCX: body, footnotes and endnotes. */
export async function word(bytes: Uint8Array): Promise<ExtractedText> {
	const { default: WordExtractor } = await import("word-extractor");
	const document = await new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
	const parts = [document.getBody(), document.getFootnotes(), document.getEndnotes()];
	return withText(parts.filter(part => part.trim() !== "").join("\n\n"), undefined);
}

export function plainText(bytes: Uint8Array): ExtractedText {
	return readTextFile(bytes, false);
}

export function markdown(bytes: Uint8Array): ExtractedText {
	return readTextFile(bytes, true);
}
