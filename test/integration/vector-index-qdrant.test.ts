/**
 * The same vector-index suite against a real Qdrant, when one is configured with QDRANT_URL (and
 * QDRANT_API_KEY if it needs one). Each run uses fresh collections and deletes them afterwards.
 * No Qdrant can be installed on the development machines, so there this file reports itself skipped
 * and the contract test (vector-index-qdrant-contract.test.ts) stands in.
 */
import { randomBytes } from "node:crypto";
import { QdrantClient } from "@qdrant/js-client-rest";
import { QdrantVectorIndex } from "../../lib/retrieval/qdrant-index";
import { runVectorIndexSuite, SUITE_DENSE_DIMENSION } from "./vector-index.suite";

const url = process.env.QDRANT_URL;
const apiKey = process.env.QDRANT_API_KEY || undefined;

if (!url) {
	console.log("QDRANT_URL is not set: the vector-index suite against a real Qdrant was skipped.");
	test.skip("vector index suite against a real Qdrant (set QDRANT_URL to run)", () => undefined);
} else {
	for (const dense of [false, true]) {
		runVectorIndexSuite(`real qdrant (${dense ? "sparse + dense" : "sparse only"})`, async () => {
			const collection = `test_chunks_${randomBytes(4).toString("hex")}`;
			const options = { url, apiKey, collection, ...(dense ? { denseDimension: SUITE_DENSE_DIMENSION } : {}) };
			return {
				supportsDense: dense,
				open: async () => new QdrantVectorIndex(options),
				destroy: async () => {
					const parsed = new URL(url);
					const client = new QdrantClient({ url: parsed.origin, apiKey, checkCompatibility: false });
					await client.deleteCollection(collection);
				}
			};
		});
	}
}
