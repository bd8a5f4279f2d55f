/**
 * The Qdrant back end, proved by contract: no Qdrant server can be installed on these machines, so
 * the adapter talks to a loopback server that validates every request against Qdrant's published
 * OpenAPI document (v1.19, the version @qdrant/js-client-rest 1.19 speaks) and answers from a small
 * in-memory emulation with responses that are themselves validated against the document. Any
 * request the document does not allow fails the test that caused it.
 */
import * as path from "node:path";
import { QdrantVectorIndex } from "../../lib/retrieval/qdrant-index";
import { vectorizeQuery } from "../../lib/retrieval/vectorize";
import { freePort } from "../helpers/ports";
import { QdrantContractServer, startQdrantContractServer } from "../helpers/qdrant-contract-server";
import { runVectorIndexSuite, SUITE_DENSE_DIMENSION } from "./vector-index.suite";

const OPENAPI_PATH = path.resolve(__dirname, "../fixtures/qdrant-openapi-v1.19.json");

const servers: QdrantContractServer[] = [];
afterAll(async () => {
	await Promise.all(servers.map(s => s.stop()));
});

async function contractServer(): Promise<QdrantContractServer> {
	const server = await startQdrantContractServer(OPENAPI_PATH);
	servers.push(server);
	return server;
}

function expectNoViolations(server: QdrantContractServer): void {
	const found = server.violations.splice(0);
	expect(found).toEqual([]);
}

for (const dense of [false, true]) {
	runVectorIndexSuite(`qdrant contract (${dense ? "sparse + dense" : "sparse only"})`, async () => {
		const server = await contractServer();
		const options = {
			url: server.url,
			collection: dense ? "chunks_hybrid" : "chunks",
			...(dense ? { denseDimension: SUITE_DENSE_DIMENSION } : {})
		};
		return {
			supportsDense: dense,
			open: async () => new QdrantVectorIndex(options),
			afterEach: () => expectNoViolations(server),
			destroy: async () => undefined
		};
	});
}

describe("qdrant adapter requests", () => {
	let server: QdrantContractServer;

	beforeAll(async () => {
		server = await contractServer();
	});

	afterEach(() => expectNoViolations(server));

	test("creates one collection with sparse idf and dense cosine vectors and a tenant index, once", async () => {
		const index = new QdrantVectorIndex({ url: server.url, collection: "setup", denseDimension: 8 });
		const other = new QdrantVectorIndex({ url: server.url, collection: "setup", denseDimension: 8 });
		const empty = { sparse: { indices: [1], values: [1] } };
		expect(await index.search("bot", empty, 3)).toEqual([]);
		// Reads do not create the collection.
		expect(server.emulator.collections.has("setup")).toBe(false);

		await Promise.all([index.activate("bot", 1), other.activate("bot", 1)]);
		const collection = server.emulator.collections.get("setup");
		expect(collection?.sparse).toEqual({ text: { modifier: "idf" } });
		expect(collection?.dense).toEqual({ dense: { size: 8, distance: "Cosine" } });
		expect(collection?.payloadSchema.chatbot_id).toEqual({ data_type: "keyword", params: { type: "keyword", is_tenant: true } });
		expect(collection?.payloadSchema.generation?.data_type).toBe("integer");
		const creates = server.exchanges.filter(e => e.operationId === "create_collection");
		expect(creates).toHaveLength(2);
		// The second creator lost the race, got Qdrant's refusal, and carried on with the existing collection.
		expect(await index.activeGeneration("bot")).toBe(1);
		expect(await other.activeGeneration("bot")).toBe(1);
	});

	test("searches with a filter on chatbot and generation, through prefetch + RRF when dense vectors exist", async () => {
		const index = new QdrantVectorIndex({ url: server.url, collection: "queries", denseDimension: 4 });
		await index.activate("bot-q", 3);
		const sparse = await vectorizeQuery("warranty", { locale: "en" });
		server.exchanges.length = 0;
		await index.search("bot-q", { ...sparse, dense: [1, 0, 0, 0] }, 5);
		const query = server.exchanges.find(e => e.operationId === "query_points")?.body as Record<string, unknown>;
		const filter = { must: [{ key: "chatbot_id", match: { value: "bot-q" } }, { key: "generation", match: { value: 3 } }] };
		expect(query).toMatchObject({
			prefetch: [
				{ query: sparse.sparse, using: "text", filter },
				{ query: [1, 0, 0, 0], using: "dense", filter }
			],
			query: { fusion: "rrf" },
			filter,
			limit: 5,
			with_payload: true
		});

		server.exchanges.length = 0;
		await index.search("bot-q", sparse, 5);
		const sparseQuery = server.exchanges.find(e => e.operationId === "query_points")?.body as Record<string, unknown>;
		expect(sparseQuery).toEqual({ query: sparse.sparse, using: "text", filter, limit: 5, with_payload: true });
	});

	test("the contract check itself refuses a request the document does not allow", async () => {
		await new QdrantVectorIndex({ url: server.url, collection: "typo" }).activate("bot", 1);
		const response = await fetch(`${server.url}/collections/typo/index?wait=yes`, {
			method: "PUT",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ field_name: "chatbot_id", field_schema: { type: "keyword", is_tenent: true } })
		});
		expect(response.status).toBe(400);
		const found = server.violations.splice(0);
		expect(found.some(v => v.includes("query.wait"))).toBe(true);
		expect(found.some(v => v.includes("is_tenent") || v.includes("additionalProperty"))).toBe(true);

		const unknown = await fetch(`${server.url}/collections/typo/pointz`, { method: "POST" });
		expect(unknown.status).toBe(400);
		expect(server.violations.splice(0)).toEqual([expect.stringContaining("matches no operation")]);
	});

	test("reports an unreachable Qdrant as unavailable without revealing the API key", async () => {
		const port = await freePort();
		const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
		try {
			const index = new QdrantVectorIndex({ url: `http://127.0.0.1:${port}`, apiKey: "secret-key-1234567890", collection: "c", timeoutMs: 2000 });
			const failure = await index.search("bot", { sparse: { indices: [1], values: [1] } }, 3).catch((err: unknown) => err);
			expect(failure).toMatchObject({ type: "unavailable" });
			expect(JSON.stringify(failure)).not.toContain("secret-key");
			expect(String((failure as Error).message)).not.toContain("secret-key");
		} finally {
			warn.mockRestore();
		}
	});
});
