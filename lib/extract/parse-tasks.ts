/**
 * The tasks of the file-parser worker (see run-parser.ts): the bytes of one file in, its
 * normalised text out. Everything that reads a whole file runs here, off the event loop: the PDF
 * and Word parsers, text decoding, front matter, and clean-up.
 */
import { normalizeText } from "./plain-text";
import { ExtractedText, readTextFile } from "./text-file";
import { documentText, PlacedText } from "./pdf-layout";

function withText(text: string, title: string | undefined, pages?: number): ExtractedText {
	const cleanTitle = title?.trim();
	return { text: normalizeText(text), ...(cleanTitle ? { title: cleanTitle } : {}), ...(pages !== undefined ? { pages } : {}) };
}

export async function pdf(bytes: Uint8Array): Promise<ExtractedText> {
	// Loaded on first use, so a worker that reads only text files never loads pdf.js.
	const { PDFParse } = await import("pdf-parse");
	const parser = new PDFParse({ data: bytes });
	try {
		// pdf-parse's own text has no paragraph breaks (pdf-layout.ts): the pages are read from the
		// pdf.js document it loads (its `load`, private in its typings).
		const document = await (parser as unknown as { load(): Promise<PdfDocument> }).load();
		const pages: PlacedText[][] = [];
		for (let number = 1; number <= document.numPages; number++) {
			const page = await document.getPage(number);
			const viewport = page.getViewport({ scale: 1 });
			const content = await page.getTextContent();
			const placed: PlacedText[] = [];
			for (const item of content.items) {
				if (!("str" in item)) continue;
				const [x, y] = viewport.convertToViewportPoint(item.transform[4], item.transform[5]);
				placed.push({ str: item.str, x, y, width: item.width, height: item.height, hasEOL: item.hasEOL });
			}
			pages.push(placed);
			page.cleanup();
		}
		let title: string | undefined;
		try {
			const value: unknown = (await parser.getInfo()).info?.Title;
			title = typeof value === "string" ? value : undefined;
		} catch {
			// Metadata is optional; the text is what matters.
		}
		return withText(documentText(pages), title, document.numPages);
	} finally {
		await parser.destroy();
	}
}

/** What is read of a pdf.js document: its pages' positioned text. */
interface PdfDocument {
	numPages: number;
	getPage(number: number): Promise<{
		getViewport(options: { scale: number }): { convertToViewportPoint(x: number, y: number): number[] };
		getTextContent(): Promise<{ items: Array<{ str: string; transform: number[]; width: number; height: number; hasEOL: boolean } | { type: string }> }>;
		cleanup(): void;
	}>;
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
