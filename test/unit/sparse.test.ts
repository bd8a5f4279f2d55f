import {
	BM25_B,
	BM25_K1,
	bm25Idf,
	chunkTerms,
	documentVector,
	documentVectors,
	queryVector,
	termId
} from "../../lib/retrieval/sparse";
import { reciprocalRankFusion } from "../../lib/retrieval/rrf";

function weightOf(vector: { indices: number[]; values: number[] }, term: string): number | undefined {
	const i = vector.indices.indexOf(termId(term));
	return i < 0 ? undefined : vector.values[i];
}

describe("termId", () => {
	test("is the FNV-1a 32-bit hash of the UTF-8 bytes", () => {
		// Published FNV-1a test vectors.
		expect(termId("")).toBe(0x811c9dc5);
		expect(termId("a")).toBe(0xe40c292c);
		expect(termId("foobar")).toBe(0xbf9cf968);
	});

	test("encodes non-ASCII as UTF-8, including astral characters", () => {
		const viaBytes = (s: string) => {
			let h = 0x811c9dc5;
			for (const b of Buffer.from(s, "utf8")) h = Math.imul(h ^ b, 0x01000193);
			return h >>> 0;
		};
		for (const word of ["año", "garantía", "日本", "😀x"]) expect(termId(word)).toBe(viaBytes(word));
	});

	test("fits Qdrant's uint32 sparse indices", () => {
		for (const word of ["warranti", "37", "zephyr-9"]) {
			expect(Number.isInteger(termId(word))).toBe(true);
			expect(termId(word)).toBeGreaterThanOrEqual(0);
			expect(termId(word)).toBeLessThanOrEqual(0xffffffff);
		}
	});
});

describe("documentVector", () => {
	test("gives ascending unique indices aligned with weights", () => {
		const vector = documentVector(["b", "a", "b", "c", "a", "b"]);
		expect(vector.indices.length).toBe(3);
		expect([...vector.indices].sort((x, y) => x - y)).toEqual(vector.indices);
		expect(vector.values.length).toBe(vector.indices.length);
	});

	test("follows the BM25 term-frequency formula", () => {
		const terms = ["warranti", "warranti", "last", "month"];
		const avg = 8;
		const norm = 1 - BM25_B + (BM25_B * terms.length) / avg;
		const vector = documentVector(terms, avg);
		expect(weightOf(vector, "warranti")).toBeCloseTo((2 * (BM25_K1 + 1)) / (2 + BM25_K1 * norm), 10);
		expect(weightOf(vector, "last")).toBeCloseTo((1 * (BM25_K1 + 1)) / (1 + BM25_K1 * norm), 10);
	});

	test("saturates repeated terms: the tenth repeat adds less than the second", () => {
		const w = (tf: number) => weightOf(documentVector(Array(tf).fill("kettl"), tf), "kettl") as number;
		expect(w(2) - w(1)).toBeGreaterThan(w(10) - w(9));
		expect(w(100)).toBeLessThan(BM25_K1 + 1);
	});

	test("weighs a term less in a longer document than in a shorter one", () => {
		const [short, long] = documentVectors([["kettl", "steel"], ["kettl", ...Array(30).fill("filler")]]);
		expect(weightOf(short, "kettl") as number).toBeGreaterThan(weightOf(long, "kettl") as number);
	});
});

describe("chunk terms", () => {
	test("a chunk's lines of code hold no symbol terms: an example uses its symbols, a sentence speaks of them", () => {
		const chunk = { heading: "Block quotes", text: "The > character starts a quote:\n> > nested\n> quoted", codeLines: [1, 2] };
		expect(chunkTerms(chunk, "en")).toEqual(["block", "quot", ">", "charact", "start", "quot", "nest", "quot"]);
		// Without code lines, every symbol standing alone counts.
		expect(chunkTerms({ ...chunk, codeLines: [] }, "en").filter(term => term === ">")).toHaveLength(4);
	});
});

describe("query side", () => {
	test("gives each distinct query term weight 1 (the index applies IDF)", () => {
		const vector = queryVector(["warranti", "long", "warranti"]);
		expect(vector.values).toEqual([1, 1]);
		expect(new Set(vector.indices)).toEqual(new Set([termId("warranti"), termId("long")]));
	});

	test("IDF favours rare terms and stays positive for terms in every document", () => {
		expect(bm25Idf(100, 1)).toBeGreaterThan(bm25Idf(100, 50));
		expect(bm25Idf(100, 100)).toBeGreaterThan(0);
		expect(bm25Idf(10, 2)).toBeCloseTo(Math.log(1 + (10 - 2 + 0.5) / (2 + 0.5)), 12);
	});

	test("chunk terms include the section heading", () => {
		expect(chunkTerms({ heading: "Warranty", text: "It lasts 37 months." }, "en")).toEqual(["warranti", "last", "37", "month"]);
	});
});

describe("reciprocalRankFusion", () => {
	test("sums 1/(k+rank) over lists and ranks items found high in both first", () => {
		const fused = reciprocalRankFusion(
			[
				["a", "b", "c"],
				["c", "b", "d"]
			],
			x => x
		);
		// c: 1/63 + 1/61 just beats b: 1/62 + 1/62; a and d appear once.
		expect(fused.map(f => f.item)).toEqual(["c", "b", "a", "d"]);
		expect(fused[0].score).toBeCloseTo(1 / 63 + 1 / 61, 12);
		expect(fused[1].score).toBeCloseTo(2 / 62, 12);
		expect(fused.find(f => f.item === "a")?.score).toBeCloseTo(1 / 61, 12);
	});

	test("keeps first-appearance order on ties", () => {
		expect(reciprocalRankFusion([["x"], ["y"]], s => s).map(f => f.item)).toEqual(["x", "y"]);
	});
});
