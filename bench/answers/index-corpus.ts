/** A benchmark corpus indexed as a chatbot's training would: crawled-page text → chunker → BM25 → generation index. */
import { chunkSources } from "../../lib/retrieval/chunker";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeChunks } from "../../lib/retrieval/vectorize";
import { loadCorpus } from "./corpus";
import type { Corpus } from "./dev-set";

export async function indexCorpus(corpus: Corpus): Promise<GenerationIndex> {
	const index = new GenerationIndex();
	for (const item of await vectorizeChunks(chunkSources(loadCorpus(corpus).map(p => p.source)), { locale: corpus.locale })) index.add(item);
	return index;
}
