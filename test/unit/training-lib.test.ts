import { chunkSources } from "../../lib/retrieval/chunker";
import { batches, nextGeneration } from "../../lib/training/jobs";
import { chunkSourcesOf, TrainableSource } from "../../lib/training/sources";

const source = (fields: Partial<TrainableSource>): TrainableSource => ({
	_id: "s1",
	chatbot_id: "c1",
	kind: "text",
	url: null,
	title: null,
	file_name: null,
	question: null,
	answer: null,
	text: null,
	...fields
});

describe("nextGeneration", () => {
	it("is the clock when the clock is ahead", () => {
		expect(nextGeneration(1_000, 10, undefined)).toBe(1_000);
	});
	it("always exceeds the current and the in-progress generation, even if the clock went back", () => {
		expect(nextGeneration(1_000, 5_000, undefined)).toBe(5_001);
		expect(nextGeneration(1_000, 5_000, 7_000)).toBe(7_001);
	});
});

describe("batches", () => {
	it("splits in order into batches of at most the size", () => {
		expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
		expect(batches([], 3)).toEqual([]);
	});
});

describe("chunkSourcesOf", () => {
	it("cites a page by its title and URL, a file by its name", () => {
		const [page, file] = chunkSourcesOf(
			[
				source({ _id: "p", kind: "url", url: "https://shop.example/warranty", title: "Warranty", text: "The warranty lasts 37 months." }),
				source({ _id: "f", kind: "file", file_name: "manual.pdf", text: "Descale every 11 weeks." })
			],
			"en"
		);
		expect(page).toMatchObject({ sourceId: "p", kind: "url", title: "Warranty", url: "https://shop.example/warranty" });
		expect(page).not.toHaveProperty("fileName");
		expect(file).toMatchObject({ sourceId: "f", kind: "file", title: "manual.pdf", fileName: "manual.pdf" });
	});

	it("titles a page without a title by its URL", () => {
		expect(chunkSourcesOf([source({ kind: "url", url: "https://shop.example/a", text: "Hello there." })], "en")[0].title).toBe("https://shop.example/a");
	});

	it("titles a pasted text by its first line when it is short, else by a label in the chatbot's language", () => {
		expect(chunkSourcesOf([source({ text: "# Opening hours\n\nWe open at nine." })], "en")[0].title).toBe("Opening hours");
		const long = "x".repeat(81);
		expect(chunkSourcesOf([source({ text: `${long}\nmore` })], "en")[0].title).toBe("Text");
		expect(chunkSourcesOf([source({ text: `${long}\nmás` })], "es")[0].title).toBe("Texto");
	});

	it("keeps a Q&A pair as one chunk that carries its question and answer", () => {
		const sources = chunkSourcesOf([source({ kind: "qa", title: "Filters?", question: "Do you sell filters?", answer: "Yes, 4 euros each.", text: "Do you sell filters?\nYes, 4 euros each." })], "en");
		expect(sources).toEqual([expect.objectContaining({ kind: "qa", question: "Do you sell filters?", answer: "Yes, 4 euros each." })]);
		expect(chunkSources(sources)).toHaveLength(1);
	});

	it("skips sources without text and incomplete Q&A pairs", () => {
		expect(chunkSourcesOf([source({ text: "   " }), source({ kind: "qa", question: "Why?", answer: "" }), source({ kind: "file", text: null })], "en")).toEqual([]);
	});

	it("gives the same chunk ids on every run, so a re-run overwrites instead of duplicating", () => {
		const input = [source({ text: "First paragraph here.\n\nSecond paragraph there." })];
		expect(chunkSources(chunkSourcesOf(input, "en")).map(c => c.id)).toEqual(chunkSources(chunkSourcesOf(input, "en")).map(c => c.id));
	});
});
