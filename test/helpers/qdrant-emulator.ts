/**
 * A small in-memory Qdrant, served by `qdrant-contract-server.ts` in the contract test (no Qdrant
 * server can be installed on these machines).
 *
 * It emulates only what the adapter uses (collections, payload indexes, upsert, retrieve, delete by
 * ids or filter, count, query with filter, prefetch and RRF fusion), with Qdrant's semantics where
 * they matter to results: named dense (cosine) and sparse vectors, the `idf` modifier computed over
 * the whole collection, filters with must / should / must_not, match and range conditions, and the
 * top-level filter applying to prefetches. Anything else raises `Unsupported`, which the server
 * records as a failure rather than answering something made up.
 */

type Payload = Record<string, unknown>;
type SparseVector = { indices: number[]; values: number[] };
type PointId = string | number;

interface StoredPoint {
	id: PointId;
	vector: Record<string, number[] | SparseVector>;
	payload: Payload;
	version: number;
}

interface Collection {
	dense: Record<string, { size: number; distance: string }>;
	sparse: Record<string, { modifier?: string | null }>;
	payloadSchema: Record<string, { data_type: string; params?: Record<string, unknown> }>;
	points: Map<string, StoredPoint>;
}

/** A request or state the emulation cannot serve faithfully: answered 400 and recorded. */
export class Unsupported extends Error {}
/** A request Qdrant itself would refuse (wrong input): answered with Qdrant's status, not a violation. */
export class WrongInput extends Error {
	constructor(
		message: string,
		readonly status = 400
	) {
		super(message);
	}
}

const RRF_K = 60;

function pointKey(id: PointId): string {
	return typeof id === "number" ? `n:${id}` : `u:${id.toLowerCase()}`;
}

function asArray<T>(value: T | T[] | null | undefined): T[] {
	if (value === null || value === undefined) return [];
	return Array.isArray(value) ? value : [value];
}

function fieldValues(payload: Payload, key: string): unknown[] {
	const value = payload[key];
	return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
}

type Condition = Record<string, unknown>;
type Filter = { must?: unknown; should?: unknown; must_not?: unknown; min_should?: unknown };

function conditionHolds(point: StoredPoint, condition: Condition): boolean {
	if ("must" in condition || "should" in condition || "must_not" in condition) return filterHolds(point, condition as Filter);
	if ("has_id" in condition) return asArray(condition.has_id as PointId[]).some(id => pointKey(id) === pointKey(point.id));
	if (typeof condition.key !== "string") throw new Unsupported(`condition ${JSON.stringify(condition)} is not emulated`);
	const values = fieldValues(point.payload, condition.key);
	const known = ["key", "match", "range"];
	const extra = Object.keys(condition).filter(k => !known.includes(k) && condition[k] !== null && condition[k] !== undefined);
	if (extra.length) throw new Unsupported(`field condition option ${extra.join(", ")} is not emulated`);
	if (condition.match) {
		const match = condition.match as Record<string, unknown>;
		if ("value" in match) return values.some(v => v === match.value);
		if ("any" in match) return values.some(v => (match.any as unknown[]).includes(v));
		if ("except" in match) return values.length > 0 && values.every(v => !(match.except as unknown[]).includes(v));
		throw new Unsupported(`match ${JSON.stringify(match)} is not emulated`);
	}
	if (condition.range) {
		const range = condition.range as Record<string, number | null | undefined>;
		return values.some(
			v =>
				typeof v === "number" &&
				(range.gt == null || v > range.gt) &&
				(range.gte == null || v >= range.gte) &&
				(range.lt == null || v < range.lt) &&
				(range.lte == null || v <= range.lte)
		);
	}
	throw new Unsupported(`condition ${JSON.stringify(condition)} is not emulated`);
}

function filterHolds(point: StoredPoint, filter: Filter | null | undefined): boolean {
	if (!filter) return true;
	if (filter.min_should) throw new Unsupported("min_should is not emulated");
	const must = asArray(filter.must as Condition[]);
	const should = asArray(filter.should as Condition[]);
	const mustNot = asArray(filter.must_not as Condition[]);
	return (
		must.every(c => conditionHolds(point, c)) &&
		(should.length === 0 || should.some(c => conditionHolds(point, c))) &&
		!mustNot.some(c => conditionHolds(point, c))
	);
}

function bothFilters(outer: Filter | undefined, inner: Filter | null | undefined): Filter | undefined {
	if (!outer) return inner ?? undefined;
	if (!inner) return outer;
	return { must: [outer as Condition, inner as Condition] };
}

interface Ranked {
	point: StoredPoint;
	score: number;
}

function byScore(a: Ranked, b: Ranked): number {
	return b.score - a.score || pointKey(a.point.id).localeCompare(pointKey(b.point.id));
}

export class QdrantEmulator {
	readonly collections = new Map<string, Collection>();
	private version = 0;

	private collection(name: string): Collection {
		const collection = this.collections.get(name);
		if (!collection) throw new WrongInput(`Not found: Collection \`${name}\` doesn't exist!`, 404);
		return collection;
	}

	private nearest(collection: Collection, query: unknown, using: string | undefined, filter: Filter | undefined): Ranked[] {
		const vector = query && typeof query === "object" && "nearest" in query ? (query as { nearest: unknown }).nearest : query;
		const name = using ?? "";
		const candidates = [...collection.points.values()].filter(p => filterHolds(p, filter));
		if (Array.isArray(vector) && vector.every(x => typeof x === "number")) {
			const config = collection.dense[name];
			if (!config) throw new WrongInput(`Wrong input: Not existing vector name error: ${name}`);
			if (vector.length !== config.size) throw new WrongInput(`Wrong input: Vector dimension error: expected dim: ${config.size}, got ${vector.length}`);
			const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
			return candidates
				.filter(p => Array.isArray(p.vector[name]))
				.map(p => {
					const stored = p.vector[name] as number[];
					const dot = stored.reduce((s, x, i) => s + x * vector[i], 0);
					return { point: p, score: dot / (norm(stored) * norm(vector)) };
				})
				.sort(byScore);
		}
		if (vector && typeof vector === "object" && "indices" in vector) {
			const sparse = vector as SparseVector;
			const config = collection.sparse[name];
			if (!config) throw new WrongInput(`Wrong input: Not existing vector name error: ${name}`);
			// Qdrant computes IDF over the whole collection, not the filtered subset.
			const holders = [...collection.points.values()].filter(p => p.vector[name] && !Array.isArray(p.vector[name]));
			const idf = (index: number) => {
				if (config.modifier !== "idf") return 1;
				const df = holders.filter(p => (p.vector[name] as SparseVector).indices.includes(index)).length;
				return Math.log(1 + (holders.length - df + 0.5) / (df + 0.5));
			};
			const ranked: Ranked[] = [];
			for (const point of candidates) {
				const stored = point.vector[name];
				if (!stored || Array.isArray(stored)) continue;
				let score = 0;
				let overlap = false;
				sparse.indices.forEach((index, i) => {
					const at = stored.indices.indexOf(index);
					if (at < 0) return;
					overlap = true;
					score += sparse.values[i] * stored.values[at] * idf(index);
				});
				if (overlap) ranked.push({ point, score });
			}
			return ranked.sort(byScore);
		}
		throw new Unsupported(`query ${JSON.stringify(query).slice(0, 80)} is not emulated`);
	}

	private runQuery(collection: Collection, request: Record<string, unknown>, inherited: Filter | undefined): Ranked[] {
		const filter = bothFilters(inherited, request.filter as Filter | null | undefined);
		const limit = (request.limit as number | null | undefined) ?? 10;
		const offset = (request.offset as number | null | undefined) ?? 0;
		if (request.score_threshold != null || request.params != null || request.lookup_from != null) {
			throw new Unsupported("score_threshold, params and lookup_from are not emulated");
		}
		const prefetches = asArray(request.prefetch as Record<string, unknown>[]);
		let ranked: Ranked[];
		if (prefetches.length) {
			const lists = prefetches.map(p => this.runQuery(collection, p, filter));
			const query = request.query as Record<string, unknown> | null | undefined;
			if (!query || query.fusion !== "rrf") throw new Unsupported("only RRF fusion over prefetches is emulated");
			const fused = new Map<string, Ranked>();
			for (const list of lists) {
				list.forEach((hit, rank) => {
					const key = pointKey(hit.point.id);
					const entry = fused.get(key) ?? { point: hit.point, score: 0 };
					entry.score += 1 / (RRF_K + rank + 1);
					fused.set(key, entry);
				});
			}
			ranked = [...fused.values()].sort(byScore);
		} else if (request.query != null) {
			ranked = this.nearest(collection, request.query, request.using as string | undefined, filter);
		} else {
			throw new Unsupported("a query without vector or prefetch is not emulated");
		}
		return ranked.slice(offset, offset + limit);
	}

	private storePoint(collection: Collection, point: { id: PointId; vector: unknown; payload?: Payload | null }): void {
		if (!point.vector || typeof point.vector !== "object" || Array.isArray(point.vector)) {
			throw new Unsupported("only named vectors are emulated");
		}
		const vector: StoredPoint["vector"] = {};
		for (const [name, value] of Object.entries(point.vector as Record<string, unknown>)) {
			if (collection.dense[name]) {
				if (!Array.isArray(value) || value.length !== collection.dense[name].size) {
					throw new WrongInput(`Wrong input: Vector dimension error: expected dim: ${collection.dense[name].size}`);
				}
				vector[name] = value as number[];
			} else if (collection.sparse[name]) {
				const sparse = value as SparseVector;
				if (sparse.indices.length !== sparse.values.length || new Set(sparse.indices).size !== sparse.indices.length) {
					throw new WrongInput("Wrong input: sparse indices must be unique and aligned with values");
				}
				vector[name] = { indices: [...sparse.indices], values: [...sparse.values] };
			} else {
				throw new WrongInput(`Wrong input: Not existing vector name error: ${name}`);
			}
		}
		collection.points.set(pointKey(point.id), { id: point.id, vector, payload: { ...(point.payload ?? {}) }, version: this.version });
	}

	private updated(): Record<string, unknown> {
		return { operation_id: this.version++, status: "completed" };
	}

	private collectionInfo(collection: Collection): Record<string, unknown> {
		const vectors: Record<string, unknown> = {};
		for (const [name, params] of Object.entries(collection.dense)) vectors[name] = { size: params.size, distance: params.distance };
		const payloadSchema: Record<string, unknown> = {};
		for (const [field, index] of Object.entries(collection.payloadSchema)) {
			const points = [...collection.points.values()].filter(p => p.payload[field] !== undefined).length;
			payloadSchema[field] = { data_type: index.data_type, ...(index.params ? { params: index.params } : {}), points };
		}
		return {
			status: "green",
			optimizer_status: "ok",
			points_count: collection.points.size,
			segments_count: 1,
			config: {
				params: { vectors, sparse_vectors: collection.sparse, shard_number: 1, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true },
				hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
				optimizer_config: { default_segment_number: 0, flush_interval_sec: 5 },
				wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 }
			},
			payload_schema: payloadSchema
		};
	}

	/** Serves one validated request. */
	handle(operationId: string, params: Record<string, string>, body: Record<string, unknown>): unknown {
		const name = params.collection_name;
		switch (operationId) {
			case "get_collections":
				return { collections: [...this.collections.keys()].map(n => ({ name: n })) };
			case "collection_exists":
				return { exists: this.collections.has(name) };
			case "create_collection": {
				if (this.collections.has(name)) throw new WrongInput(`Wrong input: Collection \`${name}\` already exists!`, 409);
				const vectors = (body.vectors ?? {}) as Record<string, unknown>;
				if ("size" in vectors) throw new Unsupported("an unnamed dense vector is not emulated");
				const dense: Collection["dense"] = {};
				for (const [vectorName, config] of Object.entries(vectors)) {
					const { size, distance } = config as { size: number; distance: string };
					dense[vectorName] = { size, distance };
				}
				const sparse: Collection["sparse"] = {};
				for (const [vectorName, config] of Object.entries((body.sparse_vectors ?? {}) as Record<string, { modifier?: string | null }>)) {
					sparse[vectorName] = config.modifier ? { modifier: config.modifier } : {};
				}
				this.collections.set(name, { dense, sparse, payloadSchema: {}, points: new Map() });
				return true;
			}
			case "get_collection":
				return this.collectionInfo(this.collection(name));
			case "delete_collection":
				return this.collections.delete(name);
			case "create_field_index": {
				const collection = this.collection(name);
				const schema = body.field_schema as string | Record<string, unknown> | undefined;
				if (!schema) throw new Unsupported("an index without field_schema is not emulated");
				collection.payloadSchema[body.field_name as string] =
					typeof schema === "string" ? { data_type: schema } : { data_type: schema.type as string, params: schema };
				return this.updated();
			}
			case "upsert_points": {
				const collection = this.collection(name);
				if (!Array.isArray(body.points)) throw new Unsupported("only the points-list form of upsert is emulated");
				if (body.update_filter != null || body.update_mode != null) throw new Unsupported("update_filter / update_mode are not emulated");
				for (const point of body.points) this.storePoint(collection, point);
				return this.updated();
			}
			case "get_points": {
				const collection = this.collection(name);
				const withPayload = body.with_payload !== false;
				return asArray(body.ids as PointId[])
					.map(id => collection.points.get(pointKey(id)))
					.filter((p): p is StoredPoint => p !== undefined)
					.map(p => ({ id: p.id, ...(withPayload ? { payload: p.payload } : {}), ...(body.with_vector === true ? { vector: p.vector } : {}) }));
			}
			case "delete_points": {
				const collection = this.collection(name);
				if (Array.isArray(body.points)) for (const id of body.points) collection.points.delete(pointKey(id));
				else if (body.filter) {
					for (const [key, point] of collection.points) if (filterHolds(point, body.filter as Filter)) collection.points.delete(key);
				} else throw new Unsupported("delete needs points or filter");
				return this.updated();
			}
			case "count_points": {
				const collection = this.collection(name);
				return { count: [...collection.points.values()].filter(p => filterHolds(p, body.filter as Filter | undefined)).length };
			}
			case "query_points": {
				const collection = this.collection(name);
				const withPayload = body.with_payload === true;
				if (body.with_vector) throw new Unsupported("with_vector in queries is not emulated");
				return {
					points: this.runQuery(collection, body, undefined).map(({ point, score }) => ({
						id: point.id,
						version: point.version,
						score,
						...(withPayload ? { payload: point.payload } : {})
					}))
				};
			}
			default:
				throw new Unsupported(`operation ${operationId} is not emulated`);
		}
	}
}
