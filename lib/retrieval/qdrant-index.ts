/**
 * Vector index on Qdrant (@qdrant/js-client-rest), for running at scale.
 *
 * One collection holds every chatbot: named sparse vector `text` with the `idf` modifier (Qdrant
 * applies BM25 IDF at query time, see `sparse.ts`) and, when embeddings are configured, a named
 * dense vector `dense` (cosine). The payload field `chatbot_id` has a keyword index marked
 * `is_tenant`, so Qdrant co-locates each chatbot's points; `generation` has an integer index.
 *
 * Generations: chunks are written under their generation number, and a per-chatbot pointer point
 * (see `qdrant-points.ts`) names the active one. `search` reads the pointer, then queries with a
 * filter on (chatbot_id, generation). The pointer lives in Qdrant itself, next to the data it
 * points at, so every replica of the vectors service sees the same switch at the same moment and
 * no other store has to stay consistent with Qdrant. All writes use `wait=true`, so a search that
 * follows `activate` sees the new generation.
 *
 * The collection and its payload indexes are created on first write, idempotently (a concurrent
 * creator is tolerated). An existing collection's own configuration decides whether dense vectors
 * are used.
 */
import { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { appError } from "../errors";
import {
	ACTIVE_GENERATION_FIELD,
	CHATBOT_FIELD,
	chunkPointId,
	DENSE_VECTOR,
	fromPayload,
	GENERATION_FIELD,
	pointerPointId,
	SPARSE_VECTOR,
	toPayload
} from "./qdrant-points";
import {
	assertChatbotId,
	assertGeneration,
	assertIndexedChunks,
	assertLimit,
	fusionCandidates,
	IndexedChunk,
	IndexQuery,
	IndexStats,
	SearchHit,
	VectorIndex
} from "./vector-index";

export interface QdrantIndexOptions {
	url: string;
	apiKey?: string;
	collection: string;
	/** Dense embedding size for a collection created by this adapter; omitted: sparse only, or inferred from the first upsert carrying embeddings. */
	denseDimension?: number;
	/** Per-request timeout. */
	timeoutMs?: number;
	/** Points per upsert request. */
	batchSize?: number;
}

interface CollectionShape {
	/** Size of the `dense` vector, when the collection has one. */
	dense: number | undefined;
}

type Filter = Schemas["Filter"];

function chatbotCondition(chatbotId: string): Schemas["FieldCondition"] {
	return { key: CHATBOT_FIELD, match: { value: chatbotId } };
}

function generationFilter(chatbotId: string, generation: number): Filter {
	return { must: [chatbotCondition(chatbotId), { key: GENERATION_FIELD, match: { value: generation } }] };
}

function statusOf(err: unknown): number | undefined {
	const status = (err as { status?: unknown } | null)?.status;
	return typeof status === "number" ? status : undefined;
}

/** Reads the dense vector size from a collection's `vectors` configuration. */
function denseSize(vectors: Schemas["VectorsConfig"] | undefined): number | undefined {
	if (!vectors || "size" in vectors) return undefined;
	const params = (vectors as Record<string, Schemas["VectorParams"]>)[DENSE_VECTOR];
	return params ? Number(params.size) : undefined;
}

export class QdrantVectorIndex implements VectorIndex {
	private readonly client: QdrantClient;
	private readonly collection: string;
	private readonly batchSize: number;
	private shape: Promise<CollectionShape> | undefined;
	private closed = false;

	constructor(private readonly options: QdrantIndexOptions) {
		// The client ignores a path in `url`; pass it as `prefix` so Qdrant behind a path-routing proxy works.
		const parsed = new URL(options.url);
		const prefix = parsed.pathname.replace(/\/+$/, "");
		this.client = new QdrantClient({
			url: parsed.origin,
			...(prefix ? { prefix } : {}),
			...(options.apiKey ? { apiKey: options.apiKey } : {}),
			timeout: options.timeoutMs ?? 10_000,
			checkCompatibility: false
		});
		this.collection = options.collection;
		this.batchSize = options.batchSize ?? 256;
	}

	/** Runs a Qdrant call, turning transport and server failures into `unavailable` without leaking credentials. */
	private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
		if (this.closed) throw appError("unavailable", "The vector index is closed.");
		try {
			return await run();
		} catch (err) {
			const status = statusOf(err);
			throw appError("unavailable", `Qdrant ${operation} failed${status ? ` with HTTP ${status}` : ""}.`, {
				detail: status ? undefined : (err as Error).name
			});
		}
	}

	private async readShape(): Promise<CollectionShape> {
		const info = await this.client.getCollection(this.collection);
		const schema = info.payload_schema ?? {};
		if (!schema[CHATBOT_FIELD]) {
			await this.client.createPayloadIndex(this.collection, {
				field_name: CHATBOT_FIELD,
				field_schema: { type: "keyword", is_tenant: true },
				wait: true
			});
		}
		if (!schema[GENERATION_FIELD]) {
			await this.client.createPayloadIndex(this.collection, {
				field_name: GENERATION_FIELD,
				field_schema: { type: "integer", lookup: true, range: true },
				wait: true
			});
		}
		return { dense: denseSize(info.config.params.vectors) };
	}

	private async createOrRead(denseHint: number | undefined): Promise<CollectionShape> {
		if (!(await this.client.collectionExists(this.collection)).exists) {
			const dense = this.options.denseDimension ?? denseHint;
			try {
				await this.client.createCollection(this.collection, {
					vectors: dense ? { [DENSE_VECTOR]: { size: dense, distance: "Cosine" } } : {},
					sparse_vectors: { [SPARSE_VECTOR]: { modifier: "idf" } }
				});
			} catch (err) {
				// Another replica may have created it between our check and our create: then use theirs.
				if (!(await this.client.collectionExists(this.collection)).exists) throw err;
			}
		}
		return this.readShape();
	}

	/** The collection's shape, creating collection and indexes on first use. */
	private ensureCollection(denseHint?: number): Promise<CollectionShape> {
		if (!this.shape) {
			this.shape = this.call("collection setup", () => this.createOrRead(denseHint));
			this.shape.catch(() => (this.shape = undefined));
		}
		return this.shape;
	}

	/** The shape if the collection exists, without creating it (reads must not create). */
	private async existingShape(): Promise<CollectionShape | undefined> {
		if (this.shape) return this.shape;
		const exists = await this.call("collection check", () => this.client.collectionExists(this.collection));
		return exists.exists ? this.ensureCollection() : undefined;
	}

	async upsert(chatbotId: string, generation: number, items: readonly IndexedChunk[]): Promise<void> {
		assertChatbotId(chatbotId);
		assertGeneration(generation);
		assertIndexedChunks(chatbotId, items);
		if (items.length === 0) return;
		const shape = await this.ensureCollection(items.find(item => item.dense)?.dense?.length);
		if (items.some(item => item.dense) && shape.dense === undefined) {
			throw appError("unavailable", `Qdrant collection "${this.collection}" has no dense vector; use a new QDRANT_COLLECTION to add embeddings.`);
		}
		for (let start = 0; start < items.length; start += this.batchSize) {
			const points = items.slice(start, start + this.batchSize).map(({ chunk, sparse, dense }) => ({
				id: chunkPointId(chatbotId, generation, chunk.id),
				vector: {
					[SPARSE_VECTOR]: { indices: sparse.indices, values: sparse.values },
					...(dense && shape.dense !== undefined ? { [DENSE_VECTOR]: dense } : {})
				},
				payload: { ...toPayload(chunk, generation) }
			}));
			await this.call("upsert", () => this.client.upsert(this.collection, { wait: true, points }));
		}
	}

	async activate(chatbotId: string, generation: number): Promise<void> {
		assertChatbotId(chatbotId);
		assertGeneration(generation);
		await this.ensureCollection();
		await this.call("activate", () =>
			this.client.upsert(this.collection, {
				wait: true,
				points: [{ id: pointerPointId(chatbotId), vector: {}, payload: { [CHATBOT_FIELD]: chatbotId, [ACTIVE_GENERATION_FIELD]: generation } }]
			})
		);
	}

	async activeGeneration(chatbotId: string): Promise<number | undefined> {
		assertChatbotId(chatbotId);
		if (!(await this.existingShape())) return undefined;
		const [pointer] = await this.call("pointer read", () =>
			this.client.retrieve(this.collection, { ids: [pointerPointId(chatbotId)], with_payload: true, with_vector: false })
		);
		const value = pointer?.payload?.[ACTIVE_GENERATION_FIELD];
		return typeof value === "number" ? value : undefined;
	}

	async search(chatbotId: string, query: IndexQuery, limit: number, searched?: number): Promise<SearchHit[]> {
		assertChatbotId(chatbotId);
		assertLimit(limit);
		if (searched !== undefined) assertGeneration(searched);
		const shape = await this.existingShape();
		if (!shape) return [];
		const generation = searched ?? (await this.activeGeneration(chatbotId));
		if (generation === undefined) return [];
		const filter = generationFilter(chatbotId, generation);
		const useDense = query.dense !== undefined && shape.dense === query.dense.length;
		const useSparse = query.sparse.indices.length > 0;
		const sparse = { indices: query.sparse.indices, values: query.sparse.values };

		let request: Schemas["QueryRequest"];
		if (useSparse && useDense) {
			const pool = fusionCandidates(limit);
			request = {
				prefetch: [
					{ query: sparse, using: SPARSE_VECTOR, filter, limit: pool },
					{ query: query.dense as number[], using: DENSE_VECTOR, filter, limit: pool }
				],
				query: { fusion: "rrf" },
				filter,
				limit,
				with_payload: true
			};
		} else if (useSparse || useDense) {
			request = {
				query: useSparse ? sparse : (query.dense as number[]),
				using: useSparse ? SPARSE_VECTOR : DENSE_VECTOR,
				filter,
				limit,
				with_payload: true
			};
		} else {
			return [];
		}
		const response = await this.call("query", () => this.client.query(this.collection, request));
		const hits: SearchHit[] = [];
		for (const point of response.points) {
			const chunk = fromPayload(point.payload);
			if (chunk) hits.push({ chunk, score: point.score });
		}
		return hits;
	}

	private async deleteWhere(operation: string, filter: Filter): Promise<void> {
		if (!(await this.existingShape())) return;
		await this.call(operation, () => this.client.delete(this.collection, { wait: true, filter }));
	}

	async deleteGeneration(chatbotId: string, generation: number): Promise<void> {
		assertChatbotId(chatbotId);
		assertGeneration(generation);
		if ((await this.activeGeneration(chatbotId)) === generation) {
			await this.call("pointer delete", () => this.client.delete(this.collection, { wait: true, points: [pointerPointId(chatbotId)] }));
		}
		await this.deleteWhere("generation delete", generationFilter(chatbotId, generation));
	}

	async pruneGenerations(chatbotId: string, olderThan?: number): Promise<void> {
		assertChatbotId(chatbotId);
		if (olderThan !== undefined) assertGeneration(olderThan);
		const active = await this.activeGeneration(chatbotId);
		await this.deleteWhere("generation prune", {
			// `range` matches only points that have a generation, which keeps the pointer point.
			must: [chatbotCondition(chatbotId), { key: GENERATION_FIELD, range: olderThan === undefined ? { gte: 0 } : { gte: 0, lt: olderThan } }],
			...(active !== undefined ? { must_not: [{ key: GENERATION_FIELD, match: { value: active } }] } : {})
		});
	}

	async deleteChatbot(chatbotId: string): Promise<void> {
		assertChatbotId(chatbotId);
		await this.deleteWhere("chatbot delete", { must: [chatbotCondition(chatbotId)] });
	}

	async stats(): Promise<IndexStats> {
		if (!(await this.existingShape())) return { backend: "qdrant", chatbots: 0, chunks: 0 };
		const count = (key: string) =>
			this.call("count", () => this.client.count(this.collection, { exact: true, filter: { must: [{ key, range: { gte: 0 } }] } }));
		const [chunks, chatbots] = await Promise.all([count(GENERATION_FIELD), count(ACTIVE_GENERATION_FIELD)]);
		return { backend: "qdrant", chatbots: chatbots.count, chunks: chunks.count };
	}

	async close(): Promise<void> {
		this.closed = true;
	}
}
