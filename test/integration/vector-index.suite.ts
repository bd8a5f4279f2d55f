/**
 * The behaviour every vector-index back end must have, as one suite run once per back end
 * (embedded always; Qdrant through the contract emulator, and against a real Qdrant when one is
 * configured). Chatbot ids are unique per test, so the suite also runs against a shared server.
 */
import { randomBytes } from "node:crypto";
import { chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import type { IndexedChunk, VectorIndex } from "../../lib/retrieval/vector-index";
import { EmbedFn, vectorizeChunks, vectorizeQuery } from "../../lib/retrieval/vectorize";

/** Dense vectors in the suite are 4-dimensional and hand-made, so fusion results are predictable. */
export const SUITE_DENSE_DIMENSION = 4;

export interface VectorIndexBackend {
	/** Opens an index over the back end's storage; opening again gives a second instance over the same data. */
	open(): Promise<VectorIndex>;
	/** Set when the back end accepts `SUITE_DENSE_DIMENSION`-sized dense vectors. */
	supportsDense: boolean;
	/** Checks run after every test (e.g. no contract violations). */
	afterEach?(): void | Promise<void>;
	destroy(): Promise<void>;
}

const run = randomBytes(3).toString("hex");
let counter = 0;
function newChatbotId(): string {
	return `bot-${run}-${++counter}`;
}

function warrantyPage(chatbotId: string, months: number): ChunkSource {
	return {
		chatbotId,
		sourceId: "page-support",
		kind: "url",
		title: "Acme support",
		url: "https://acme.test/support",
		text: [
			"# Warranty",
			`Every kettle is covered. The warranty lasts ${months} months from delivery.`,
			"",
			// A code block: its line is recorded as code (`codeLines`), which every index returns.
			"```",
			"kettle warranty --check",
			"```",
			"",
			"# Shipping",
			"Orders ship within 2 business days to Ireland and Spain."
		].join("\n")
	};
}

function manualFile(chatbotId: string): ChunkSource {
	return {
		chatbotId,
		sourceId: "file-manual",
		kind: "file",
		title: "Kettle manual",
		fileName: "manual.pdf",
		text: "Descale the kettle every month with citric acid. Never immerse the base in water."
	};
}

function qaPair(chatbotId: string): ChunkSource {
	return {
		chatbotId,
		sourceId: "qa-store",
		kind: "qa",
		title: "Do you have a store in Madrid?",
		question: "Do you have a store in Madrid?",
		answer: "Yes, on Gran Vía 12."
	};
}

async function vectors(sources: ChunkSource[], embed?: EmbedFn): Promise<IndexedChunk[]> {
	return vectorizeChunks(chunkSources(sources), { locale: "en", embed });
}

async function ask(index: VectorIndex, chatbotId: string, question: string, limit = 5, embed?: EmbedFn) {
	return index.search(chatbotId, await vectorizeQuery(question, { locale: "en", embed }), limit);
}

export function runVectorIndexSuite(name: string, makeBackend: () => Promise<VectorIndexBackend>): void {
	describe(`vector index: ${name}`, () => {
		let backend: VectorIndexBackend;
		let index: VectorIndex;

		beforeAll(async () => {
			backend = await makeBackend();
			index = await backend.open();
		});

		afterEach(async () => {
			await backend.afterEach?.();
		});

		afterAll(async () => {
			await index?.close();
			await backend?.destroy();
		});

		test("has nothing for a chatbot that was never indexed", async () => {
			const chatbotId = newChatbotId();
			expect(await ask(index, chatbotId, "warranty")).toEqual([]);
			expect(await index.activeGeneration(chatbotId)).toBeUndefined();
		});

		test("finds the relevant chunk first and returns it with all its metadata", async () => {
			const chatbotId = newChatbotId();
			const items = await vectors([warrantyPage(chatbotId, 37), manualFile(chatbotId), qaPair(chatbotId)]);
			await index.upsert(chatbotId, 1, items);
			await index.activate(chatbotId, 1);
			expect(await index.activeGeneration(chatbotId)).toBe(1);

			const warranty = items.find(i => i.chunk.heading === "Warranty")?.chunk;
			const hits = await ask(index, chatbotId, "How long is the warranty?");
			expect(hits[0].chunk).toEqual(warranty);
			expect(hits[0].chunk.codeLines).toEqual([2]);
			expect(hits[0].score).toBeGreaterThan(0);

			const [manualHit] = await ask(index, chatbotId, "how often should I descale?");
			expect(manualHit.chunk).toMatchObject({ sourceId: "file-manual", fileName: "manual.pdf", title: "Kettle manual", kind: "file" });
			expect(manualHit.chunk.url).toBeUndefined();

			const [qaHit] = await ask(index, chatbotId, "Is there a store in Madrid?");
			expect(qaHit.chunk).toMatchObject({ kind: "qa", question: "Do you have a store in Madrid?", answer: "Yes, on Gran Vía 12." });
		});

		test("returns at most `limit` hits, best first, and nothing for unrelated words", async () => {
			const chatbotId = newChatbotId();
			const sources: ChunkSource[] = Array.from({ length: 12 }, (_, i) => ({
				chatbotId,
				sourceId: `note-${i}`,
				kind: "text",
				title: `Note ${i}`,
				text: `${"kettle ".repeat(i + 1)}note number ${i}.`
			}));
			await index.upsert(chatbotId, 3, await vectors(sources));
			await index.activate(chatbotId, 3);
			const hits = await ask(index, chatbotId, "kettle", 5);
			expect(hits).toHaveLength(5);
			for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
			// More occurrences of the only query term rank higher (BM25 saturates but stays monotonic).
			expect(hits[0].chunk.sourceId).toBe("note-11");
			expect(await ask(index, chatbotId, "photosynthesis chlorophyll")).toEqual([]);
		});

		test("keeps chatbots apart", async () => {
			const first = newChatbotId();
			const second = newChatbotId();
			await index.upsert(first, 1, await vectors([warrantyPage(first, 37)]));
			await index.upsert(second, 1, await vectors([warrantyPage(second, 12)]));
			await index.activate(first, 1);
			await index.activate(second, 1);
			const hits = await ask(index, second, "warranty months", 10);
			expect(hits.length).toBeGreaterThan(0);
			for (const hit of hits) expect(hit.chunk.chatbotId).toBe(second);
			expect(hits[0].chunk.text).toContain("12 months");
		});

		test("searches the generation the caller names, whichever is active", async () => {
			const chatbotId = newChatbotId();
			await index.upsert(chatbotId, 1, await vectors([warrantyPage(chatbotId, 37)]));
			await index.upsert(chatbotId, 2, await vectors([warrantyPage(chatbotId, 48)]));
			await index.activate(chatbotId, 1);
			const question = await vectorizeQuery("How long is the warranty?", { locale: "en" });
			expect((await index.search(chatbotId, question, 5, 2))[0].chunk.text).toContain("48 months");
			expect((await index.search(chatbotId, question, 5, 1))[0].chunk.text).toContain("37 months");
			expect((await index.search(chatbotId, question, 5))[0].chunk.text).toContain("37 months");
			expect(await index.search(chatbotId, question, 5, 7)).toEqual([]);
		});

		test("answers from the previous generation until the new one is activated", async () => {
			const chatbotId = newChatbotId();
			await index.upsert(chatbotId, 1, await vectors([warrantyPage(chatbotId, 37)]));
			await index.activate(chatbotId, 1);

			// Retraining: the new generation is fully written but not yet active.
			await index.upsert(chatbotId, 2, await vectors([warrantyPage(chatbotId, 48)]));
			const before = await ask(index, chatbotId, "How long is the warranty?");
			expect(before[0].chunk.text).toContain("37 months");
			expect(before.some(h => h.chunk.text.includes("48 months"))).toBe(false);
			expect(await index.activeGeneration(chatbotId)).toBe(1);

			await index.activate(chatbotId, 2);
			const after = await ask(index, chatbotId, "How long is the warranty?");
			expect(after[0].chunk.text).toContain("48 months");
			expect(after.some(h => h.chunk.text.includes("37 months"))).toBe(false);

			await index.deleteGeneration(chatbotId, 1);
			expect((await ask(index, chatbotId, "How long is the warranty?"))[0].chunk.text).toContain("48 months");
			expect(await index.activeGeneration(chatbotId)).toBe(2);
		});

		test("re-upserting the same chunks replaces them instead of duplicating", async () => {
			const chatbotId = newChatbotId();
			const items = await vectors([warrantyPage(chatbotId, 37), manualFile(chatbotId)]);
			await index.upsert(chatbotId, 5, items);
			await index.upsert(chatbotId, 5, items.slice(0, 1));
			await index.upsert(chatbotId, 5, items);
			await index.activate(chatbotId, 5);
			const hits = await ask(index, chatbotId, "warranty kettle shipping descale", 20);
			const ids = hits.map(h => h.chunk.id);
			expect(new Set(ids).size).toBe(ids.length);
			expect(new Set(ids)).toEqual(new Set(items.map(i => i.chunk.id)));
		});

		test("deleting the active generation leaves the chatbot without an index", async () => {
			const chatbotId = newChatbotId();
			await index.upsert(chatbotId, 4, await vectors([manualFile(chatbotId)]));
			await index.activate(chatbotId, 4);
			await index.deleteGeneration(chatbotId, 4);
			expect(await index.activeGeneration(chatbotId)).toBeUndefined();
			expect(await ask(index, chatbotId, "descale")).toEqual([]);
		});

		test("pruneGenerations keeps only the active generation", async () => {
			const chatbotId = newChatbotId();
			await index.upsert(chatbotId, 1, await vectors([warrantyPage(chatbotId, 37)]));
			await index.upsert(chatbotId, 2, await vectors([warrantyPage(chatbotId, 48)]));
			await index.upsert(chatbotId, 3, await vectors([warrantyPage(chatbotId, 60)]));
			await index.activate(chatbotId, 2);
			await index.pruneGenerations(chatbotId);
			expect((await ask(index, chatbotId, "warranty"))[0].chunk.text).toContain("48 months");
			// Generations 1 and 3 are gone: activating one of them finds nothing.
			await index.activate(chatbotId, 3);
			expect(await ask(index, chatbotId, "warranty")).toEqual([]);
			await index.activate(chatbotId, 1);
			expect(await ask(index, chatbotId, "warranty")).toEqual([]);
		});

		test("pruneGenerations below a generation keeps it and every newer one", async () => {
			const chatbotId = newChatbotId();
			for (const [generation, months] of [[1, 37], [2, 48], [3, 60]]) await index.upsert(chatbotId, generation, await vectors([warrantyPage(chatbotId, months)]));
			await index.activate(chatbotId, 2);
			await index.pruneGenerations(chatbotId, 2);
			expect((await ask(index, chatbotId, "warranty"))[0].chunk.text).toContain("48 months");
			// Generation 3 (a newer run still being written) stays; generation 1 is gone.
			await index.activate(chatbotId, 3);
			expect((await ask(index, chatbotId, "warranty"))[0].chunk.text).toContain("60 months");
			await index.activate(chatbotId, 1);
			expect(await ask(index, chatbotId, "warranty")).toEqual([]);
		});

		test("deleteChatbot removes everything of that chatbot and nothing of others", async () => {
			const doomed = newChatbotId();
			const kept = newChatbotId();
			for (const id of [doomed, kept]) {
				await index.upsert(id, 1, await vectors([manualFile(id)]));
				await index.upsert(id, 2, await vectors([manualFile(id)]));
				await index.activate(id, 1);
			}
			await index.deleteChatbot(doomed);
			expect(await index.activeGeneration(doomed)).toBeUndefined();
			expect(await ask(index, doomed, "descale")).toEqual([]);
			await index.activate(doomed, 2);
			expect(await ask(index, doomed, "descale")).toEqual([]);
			expect((await ask(index, kept, "descale")).length).toBe(1);
		});

		test("a re-opened index serves the same data", async () => {
			const chatbotId = newChatbotId();
			await index.upsert(chatbotId, 9, await vectors([warrantyPage(chatbotId, 37), qaPair(chatbotId)]));
			await index.activate(chatbotId, 9);
			await index.upsert(chatbotId, 10, await vectors([warrantyPage(chatbotId, 99)]));
			const expected = await ask(index, chatbotId, "How long is the warranty?");

			const reopened = await backend.open();
			try {
				expect(await reopened.activeGeneration(chatbotId)).toBe(9);
				const hits = await ask(reopened, chatbotId, "How long is the warranty?");
				expect(hits.map(h => h.chunk)).toEqual(expected.map(h => h.chunk));
				// The unactivated generation was persisted too, and can still be activated after re-opening.
				await reopened.activate(chatbotId, 10);
				expect((await ask(reopened, chatbotId, "How long is the warranty?"))[0].chunk.text).toContain("99 months");
			} finally {
				await reopened.close();
			}
		});

		test("reports stats that count indexed chatbots and chunks", async () => {
			const chatbotId = newChatbotId();
			const items = await vectors([warrantyPage(chatbotId, 37), manualFile(chatbotId)]);
			const before = await index.stats();
			await index.upsert(chatbotId, 1, items);
			await index.activate(chatbotId, 1);
			const after = await index.stats();
			expect(after.chatbots).toBe(before.chatbots + 1);
			expect(after.chunks).toBe(before.chunks + items.length);
		});

		test("refuses chunks of another chatbot and out-of-range limits with validation errors", async () => {
			const chatbotId = newChatbotId();
			const foreign = await vectors([manualFile("someone-else")]);
			await expect(index.upsert(chatbotId, 1, foreign)).rejects.toMatchObject({ type: "validation_failed" });
			await expect(index.search(chatbotId, { sparse: { indices: [], values: [] } }, 0)).rejects.toMatchObject({ type: "validation_failed" });
			await expect(index.activate(chatbotId, -1)).rejects.toMatchObject({ type: "validation_failed" });
		});

		test("fuses dense and sparse rankings by reciprocal rank when embeddings exist", async () => {
			if (!backend.supportsDense) {
				console.log(`${name}: dense vectors not configured, fusion test not applicable`);
				return;
			}
			const chatbotId = newChatbotId();
			const texts: Record<string, { text: string; dense: number[] }> = {
				lexical: { text: "Descaling the kettle: descaling removes limescale from the kettle.", dense: [-1, 0, 0, 0] },
				semantic: { text: "Mineral build-up inside appliances is best removed with citric acid.", dense: [1, 0, 0, 0] },
				both: { text: "Descaling keeps the water tasting fresh.", dense: [0.8, 0.6, 0, 0] },
				neither: { text: "Our offices close on public holidays.", dense: [0, 1, 0, 0] }
			};
			const sources: ChunkSource[] = Object.entries(texts).map(([key, { text }]) => ({ chatbotId, sourceId: key, kind: "text", title: key, text }));
			const question = "descaling kettle";
			const byText = new Map(Object.values(texts).map(t => [t.text, t.dense]));
			// Stand-in for an embeddings model: the vectors above, and the question close to "semantic".
			const embed: EmbedFn = async inputs => inputs.map(input => (input === question ? [1, 0, 0, 0] : (byText.get(input) as number[])));

			await index.upsert(chatbotId, 1, await vectors(sources, embed));
			await index.activate(chatbotId, 1);

			const sparseOnly = (await ask(index, chatbotId, question, 4)).map(h => h.chunk.sourceId);
			expect(sparseOnly).toEqual(["lexical", "both"]);

			const fused = (await ask(index, chatbotId, question, 4, embed)).map(h => h.chunk.sourceId);
			expect(new Set(fused)).toEqual(new Set(["lexical", "semantic", "both", "neither"]));
			const at = (id: string) => fused.indexOf(id);
			// Good in both rankings beats good in one; a dense-only match beats a chunk that is last in the dense ranking only.
			expect(at("both")).toBeLessThan(at("semantic"));
			expect(at("lexical")).toBeLessThan(at("neither"));
			expect(at("semantic")).toBeLessThan(at("neither"));
		});
	});
}
