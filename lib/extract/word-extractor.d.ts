/** Types for word-extractor 1.x, which ships none (only the parts this project uses). */
declare module "word-extractor" {
	interface TextOptions {
		/** Convert typographic quotes and dashes to ASCII (default true). */
		filterUnicode?: boolean;
	}

	class WordDocument {
		getBody(options?: TextOptions): string;
		getFootnotes(options?: TextOptions): string;
		getEndnotes(options?: TextOptions): string;
		getHeaders(options?: TextOptions & { includeFooters?: boolean }): string;
		getFooters(options?: TextOptions): string;
		getAnnotations(options?: TextOptions): string;
		getTextboxes(options?: TextOptions & { includeHeadersAndFooters?: boolean; includeBody?: boolean }): string;
	}

	/** Reads .doc (OLE) and .docx (Office Open XML) files from a path or a Buffer. */
	class WordExtractor {
		extract(source: string | Buffer): Promise<WordDocument>;
	}

	export = WordExtractor;
}
