/**
 * 10,000 chunks of real English prose for the chat benchmark: the project's English documentation
 * pages (the answer-quality corpora), repeated under distinct source ids until the count is
 * reached, chunked and vectorised as training does. The question is one of the dev set's.
 */
import { chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import type { IndexedChunk } from "../../lib/retrieval/vector-index";
import { vectorizeChunks } from "../../lib/retrieval/vectorize";
import { loadCorpus } from "../answers/corpus";
import { CORPORA, QUESTIONS } from "../answers/dev-set";

export const CHUNK_COUNT = 10_000;

export async function knowledgeChunks(chatbotId: string, count = CHUNK_COUNT): Promise<IndexedChunk[]> {
	const pages = CORPORA.filter(c => c.locale === "en").flatMap(corpus => loadCorpus(corpus, chatbotId));
	const sources: ChunkSource[] = [];
	let chunks = 0;
	for (let copy = 0; chunks < count; copy++) {
		const round = pages.map(page => ({ ...page.source, sourceId: `${page.key}-${copy}` }));
		chunks += chunkSources(round).length;
		sources.push(...round);
	}
	return vectorizeChunks(chunkSources(sources).slice(0, count), { locale: "en" });
}

/** An answerable English question from the dev set (the first one of the first English corpus). */
export function benchQuestion(): string {
	const question = QUESTIONS.find(q => q.corpus === "docs-en-a" && !q.oos && !q.conv);
	if (!question) throw new Error("the dev set has no answerable docs-en-a question");
	return question.q;
}
