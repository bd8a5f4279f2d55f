import { analyzedChunk } from "../../lib/answer/chunk-analysis";
import { analyze } from "../../lib/text/tokenize";
import type { Chunk } from "../../lib/retrieval/chunker";

function chunk(id: string, text: string, heading?: string): Chunk {
	return { id, chatbotId: "bot", sourceId: "src", ordinal: 0, text, ...(heading ? { heading } : {}), title: "Kettle guide", kind: "text" };
}

describe("analysed chunks", () => {
	test("a chunk's sentences, terms and context are read line by line", () => {
		const analysis = analyzedChunk(chunk("a1", "The warranty lasts 37 months. It covers parts.\nDescale every 11 weeks.", "Warranty"), "en");
		expect(analysis.units.map(u => [u.text, u.line])).toEqual([
			["The warranty lasts 37 months.", 0],
			["It covers parts.", 0],
			["Descale every 11 weeks.", 1]
		]);
		expect(analysis.terms.has("warranti")).toBe(true);
		expect(analysis.terms.has("descal")).toBe(true);
		expect([...analysis.context].sort()).toEqual(["guid", "kettl", "warranti"]);
	});

	test("a chunk's terms, read sentence by sentence, are those of its whole text", () => {
		const text = "Use %j for JSON. e.g. maxRetries sets it.\nLa sesión dura 72 horas; Retry-After vale 1.5 s. Ver node.js v2.0.\n  Ünïcödé “quotes” and it’s fine.";
		for (const locale of ["en", "es"] as const) {
			expect([...analyzedChunk(chunk(`e-${locale}`, text), locale).terms].sort()).toEqual([...new Set(analyze(text, locale))].sort());
		}
	});

	test("the same chunk asked about again is not analysed again", () => {
		const first = analyzedChunk(chunk("b1", "Keys expire after 90 days."), "en");
		expect(analyzedChunk(chunk("b1", "Keys expire after 90 days."), "en")).toBe(first);
	});

	test("a chunk keeping its id with new text, heading or locale is analysed anew", () => {
		// Chunk ids are positions in a source: retraining a changed source keeps them.
		const before = analyzedChunk(chunk("c1", "Keys expire after 90 days."), "en");
		const retrained = analyzedChunk(chunk("c1", "Tokens expire after 30 days."), "en");
		expect(retrained).not.toBe(before);
		expect(retrained.terms.has("token")).toBe(true);
		expect(retrained.terms.has("kei")).toBe(false);
		expect(analyzedChunk(chunk("c1", "Tokens expire after 30 days.", "Limits"), "en").context.has("limit")).toBe(true);
		expect(analyzedChunk(chunk("c1", "Tokens expire after 30 days."), "es")).not.toBe(retrained);
	});

	test("only the chunks read most recently are kept: memory stays bounded whatever is asked", () => {
		const first = analyzedChunk(chunk("d0", "The first chunk read."), "en");
		for (let i = 1; i <= 1024; i++) analyzedChunk(chunk(`d${i}`, `Chunk number ${i}.`), "en");
		expect(analyzedChunk(chunk("d0", "The first chunk read."), "en")).not.toBe(first);
	});
});
