/**
 * Stored sources → the chunker's input. Each chunk keeps what a citation shows: the page title and
 * URL, the file name, or a label for pasted text; a Q&A pair stays one chunk that answers its
 * question directly.
 */
import type { Locale } from "../text/tokenize";
import type { ChunkSource } from "../retrieval/chunker";

/** The fields of a stored source the trainer needs (lib/chatbots/model.ts `Source`). */
export interface TrainableSource {
	_id: string;
	chatbot_id: string;
	kind: "url" | "file" | "text" | "qa";
	url: string | null;
	title: string | null;
	file_name: string | null;
	question: string | null;
	answer: string | null;
	text: string | null;
}

const TEXT_LABEL: Record<Locale, string> = { en: "Text", es: "Texto" };
/** A pasted text is cited by its first line when that line is short enough to read as a title. */
const FIRST_LINE_TITLE_MAX = 80;

/** The first non-empty line of a text, without Markdown heading marks, if it is title-sized. */
function firstLineTitle(text: string | null): string | undefined {
	const line = (text ?? "")
		.split(/\r?\n/)
		.map(l => l.replace(/^#{1,6}\s+/, "").trim())
		.find(Boolean);
	return line && line.length <= FIRST_LINE_TITLE_MAX ? line : undefined;
}

function titleOf(source: TrainableSource, locale: Locale): string {
	const title = source.title?.trim();
	if (title) return title;
	if (source.kind === "url" && source.url) return source.url;
	if (source.kind === "file" && source.file_name) return source.file_name;
	return firstLineTitle(source.text) ?? TEXT_LABEL[locale];
}

/** One chunker input per source; sources without text (or a Q&A pair without both halves) are skipped. */
export function chunkSourcesOf(sources: readonly TrainableSource[], locale: Locale): ChunkSource[] {
	const out: ChunkSource[] = [];
	for (const source of sources) {
		const base = {
			chatbotId: source.chatbot_id,
			sourceId: source._id,
			title: titleOf(source, locale),
			...(source.kind === "url" && source.url ? { url: source.url } : {}),
			...(source.kind === "file" && source.file_name ? { fileName: source.file_name } : {})
		};
		if (source.kind === "qa") {
			if (source.question?.trim() && source.answer?.trim()) out.push({ ...base, kind: "qa", question: source.question, answer: source.answer });
			continue;
		}
		if (source.text?.trim()) out.push({ ...base, kind: source.kind, text: source.text });
	}
	return out;
}
