/**
 * One generation's in-memory index (lib/retrieval/embedded-generation.ts): BM25 over its postings
 * gives the same scores as scoring every chunk by hand, a replaced chunk's old slot is never
 * returned, and postings that outgrow their first arrays keep every entry.
 */
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import type { Chunk } from "../../lib/retrieval/chunker";
import { bm25Idf, documentVectors, queryVector, SparseVector } from "../../lib/retrieval/sparse";
import { analyze } from "../../lib/text/tokenize";

const chunk = (id: string, text: string): Chunk => ({ id, chatbotId: "bot", sourceId: "s", ordinal: 0, text, title: "t", kind: "text" });

function indexed(texts: Record<string, string>): { index: GenerationIndex; vectors: Map<string, SparseVector> } {
	const ids = Object.keys(texts);
	const vectors = documentVectors(ids.map(id => analyze(texts[id], "en")));
	const index = new GenerationIndex();
	ids.forEach((id, i) => index.add({ chunk: chunk(id, texts[id]), sparse: vectors[i] }));
	return { index, vectors: new Map(ids.map((id, i) => [id, vectors[i]])) };
}

/** BM25 of one chunk for the query, the way the index defines it, computed without postings. */
function byHand(query: SparseVector, doc: SparseVector, all: SparseVector[]): number {
	let score = 0;
	query.indices.forEach((term, q) => {
		const at = doc.indices.indexOf(term);
		if (at < 0) return;
		const df = all.filter(v => v.indices.includes(term)).length;
		score += query.values[q] * bm25Idf(all.length, df) * doc.values[at];
	});
	return score;
}

describe("generation index", () => {
	test("ranks by BM25 with the scores a chunk-by-chunk computation gives", () => {
		const texts: Record<string, string> = {};
		// Forty chunks share "kettle", so its postings grow well past their first arrays.
		for (let i = 0; i < 40; i++) texts[`k${i}`] = `kettle model ${i} ${i % 3 === 0 ? "warranty lasts long" : "descaling every week"}`;
		texts.w = "warranty warranty terms for every kettle";
		const { index, vectors } = indexed(texts);
		const query = queryVector(analyze("kettle warranty", "en"));
		const hits = index.searchSparse(query, 50);
		const all = [...vectors.values()];
		const expected = [...vectors.entries()].map(([id, v]) => ({ id, score: byHand(query, v, all) })).filter(x => x.score > 0);
		expect(hits).toHaveLength(expected.length);
		expect(hits).toHaveLength(41);
		const found = new Map(index.search({ sparse: query }, 50).map(hit => [hit.chunk.id, hit.score]));
		for (const { id, score } of expected) expect(found.get(id)).toBeCloseTo(score, 10);
		expect(index.search({ sparse: query }, 1)[0].chunk.id).toBe("w");
	});

	test("a chunk added again under its id replaces the old one, which no search returns", () => {
		const { index } = indexed({ a: "the ferry leaves at seven", b: "bicycles ride free" });
		const [replacement] = documentVectors([analyze("the ferry leaves at eight", "en")]);
		index.add({ chunk: chunk("a", "the ferry leaves at eight"), sparse: replacement });
		expect(index.size).toBe(2);
		expect(index.search({ sparse: queryVector(analyze("seven", "en")) }, 5)).toEqual([]);
		const ferry = index.search({ sparse: queryVector(analyze("ferry", "en")) }, 5);
		expect(ferry.map(hit => hit.chunk.text)).toEqual(["the ferry leaves at eight"]);
		expect(index.search({ sparse: queryVector(analyze("bicycles", "en")) }, 5).map(hit => hit.chunk.id)).toEqual(["b"]);
	});
});
