/**
 * The vector-index suite against the embedded back end, on a real temporary directory, plus what
 * only the embedded back end has: its files and their atomic replacement.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { chunkSources } from "../../lib/retrieval/chunker";
import { EmbeddedVectorIndex } from "../../lib/retrieval/embedded-index";
import { vectorizeChunks, vectorizeQuery } from "../../lib/retrieval/vectorize";
import { runVectorIndexSuite } from "./vector-index.suite";

const tempDirs: string[] = [];
function tempDir(): string {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vector-index-"));
	tempDirs.push(dir);
	return dir;
}

afterAll(() => {
	for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

runVectorIndexSuite("embedded", async () => {
	const dir = tempDir();
	return {
		supportsDense: true,
		open: async () => new EmbeddedVectorIndex({ dir }),
		destroy: async () => fs.rmSync(dir, { recursive: true, force: true })
	};
});

describe("embedded index files", () => {
	async function items(chatbotId: string, text: string) {
		return vectorizeChunks(chunkSources([{ chatbotId, sourceId: "s", kind: "text", title: "T", text }]), { locale: "en" });
	}

	test("writes one segment per upsert and the active pointer, leaving no temporary files", async () => {
		const dir = tempDir();
		const index = new EmbeddedVectorIndex({ dir });
		await index.upsert("bot-a", 7, await items("bot-a", "The warranty lasts 37 months."));
		await index.upsert("bot-a", 7, await items("bot-a", "Shipping takes two days."));
		await index.activate("bot-a", 7);
		await index.close();
		const files = (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
		expect(files).toEqual(["c-bot-a", path.join("c-bot-a", "active.json"), path.join("c-bot-a", "g7"), path.join("c-bot-a", "g7", "000001.jsonl"), path.join("c-bot-a", "g7", "000002.jsonl")]);
		expect(JSON.parse(fs.readFileSync(path.join(dir, "c-bot-a", "active.json"), "utf8"))).toEqual({ generation: 7, chunks: 1 });
	});

	test("stores chatbot ids that are not file-name-safe under a hashed directory", async () => {
		const dir = tempDir();
		const index = new EmbeddedVectorIndex({ dir });
		const chatbotId = "../../etc/passwd";
		await index.upsert(chatbotId, 1, await items(chatbotId, "Descale the kettle monthly."));
		await index.activate(chatbotId, 1);
		expect(fs.readdirSync(dir)).toEqual([expect.stringMatching(/^h-[0-9a-f]{40}$/)]);
		const hits = await index.search(chatbotId, await vectorizeQuery("descale", { locale: "en" }), 3);
		expect(hits[0].chunk.chatbotId).toBe(chatbotId);
		await index.close();
	});

	test("ignores and removes a temporary file left by an interrupted write", async () => {
		const dir = tempDir();
		const first = new EmbeddedVectorIndex({ dir });
		await first.upsert("bot-b", 1, await items("bot-b", "The warranty lasts 37 months."));
		await first.activate("bot-b", 1);
		await first.close();
		// A crash between writing and renaming leaves a half-written temporary file behind.
		const generationDir = path.join(dir, "c-bot-b", "g1");
		fs.writeFileSync(path.join(generationDir, ".tmp-deadbeef"), '{"c":{"id":"half');

		const second = new EmbeddedVectorIndex({ dir });
		const hits = await second.search("bot-b", await vectorizeQuery("warranty", { locale: "en" }), 3);
		expect(hits).toHaveLength(1);
		expect(fs.readdirSync(generationDir)).toEqual(["000001.jsonl"]);
		await second.close();
	});

	test("persists dense vectors exactly (as float32)", async () => {
		const dir = tempDir();
		const embed = async (texts: string[]) => texts.map(() => [0.25, -0.5, 0.125, 1]);
		const writer = new EmbeddedVectorIndex({ dir });
		const chunks = chunkSources([{ chatbotId: "bot-c", sourceId: "s", kind: "text", title: "T", text: "Kettles boil water." }]);
		await writer.upsert("bot-c", 1, await vectorizeChunks(chunks, { locale: "en", embed }));
		await writer.activate("bot-c", 1);
		await writer.close();
		const line = fs.readFileSync(path.join(dir, "c-bot-c", "g1", "000001.jsonl"), "utf8").trim();
		const stored = JSON.parse(line) as { d: string };
		const bytes = Uint8Array.from(Buffer.from(stored.d, "base64"));
		expect(Array.from(new Float32Array(bytes.buffer))).toEqual([0.25, -0.5, 0.125, 1]);

		const reader = new EmbeddedVectorIndex({ dir });
		// No lexical overlap at all: only the dense vector can find the chunk.
		const hits = await reader.search("bot-c", { sparse: { indices: [], values: [] }, dense: [0.25, -0.5, 0.125, 1] }, 3);
		expect(hits.map(h => h.chunk.text)).toEqual(["Kettles boil water."]);
		await reader.close();
	});

	test("serialises concurrent writes to one chatbot", async () => {
		const dir = tempDir();
		const index = new EmbeddedVectorIndex({ dir });
		const batches = await Promise.all(Array.from({ length: 20 }, (_, i) => items("bot-d", `Fact number ${i} about kettles.`)));
		await Promise.all(batches.map((batch, i) => index.upsert("bot-d", 1, batch.map(b => ({ ...b, chunk: { ...b.chunk, id: `chunk-${i}` } })))));
		await index.activate("bot-d", 1);
		await index.close();
		const reopened = new EmbeddedVectorIndex({ dir });
		const hits = await reopened.search("bot-d", await vectorizeQuery("kettles", { locale: "en" }), 50);
		expect(hits).toHaveLength(20);
		expect(fs.readdirSync(path.join(dir, "c-bot-d", "g1"))).toHaveLength(20);
		await reopened.close();
	});

	test("keeps only the most recently used chatbots in memory and reloads the others from disk", async () => {
		const dir = tempDir();
		const index = new EmbeddedVectorIndex({ dir, maxLoadedChatbots: 2 });
		const ids = ["bot-1", "bot-2", "bot-3", "bot-4"];
		for (const [i, id] of ids.entries()) {
			await index.upsert(id, 1, await items(id, `Kettle model ${i} boils water.`));
			await index.activate(id, 1);
		}
		const loaded = (index as unknown as { states: Map<string, unknown> }).states;
		expect([...loaded.keys()]).toEqual(["bot-3", "bot-4"]);
		// Evicted chatbots answer from disk, with writes made before the eviction.
		for (const id of ids) {
			const hits = await index.search(id, await vectorizeQuery("kettle", { locale: "en" }), 3);
			expect(hits.map(h => h.chunk.chatbotId)).toEqual([id]);
		}
		expect(loaded.size).toBe(2);
		await index.close();
	});

	test("refuses work after close", async () => {
		const index = new EmbeddedVectorIndex({ dir: tempDir() });
		await index.close();
		await expect(index.search("bot-e", { sparse: { indices: [1], values: [1] } }, 1)).rejects.toMatchObject({ type: "unavailable" });
	});
});
