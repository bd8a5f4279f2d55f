/**
 * Document storage for a service that owns collections (moleculer-db).
 *
 * Embedded default: NeDB files under DATA_DIR (one file per collection). With MONGO_URI: MongoDB
 * through mongoose. Either way the owning service works through `DocumentCollection`, which speaks
 * Mongo-style query documents that both engines run, so each conditional update is written once.
 *
 * moleculer-db's generic CRUD actions are switched off: a collection changes only through its
 * owner's named actions.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ServiceSchema } from "moleculer";
import DbService from "moleculer-db";
import type MongooseAdapterClass from "moleculer-db-adapter-mongoose";
import type { Mongoose } from "mongoose";
import type { AppConfig } from "../config";
import { indexedFields } from "../lib/storage/collection-indexes";
import type { CollectionWrite } from "../lib/storage/collection-write";
import { withPreferredIndexLast } from "../lib/storage/query-index";

const CRUD_ACTIONS = ["find", "count", "list", "create", "insert", "get", "update", "remove"] as const;

/** What moleculer-db's NeDB and mongoose adapters both offer (the parts we use). */
interface MoleculerDbAdapter {
	find(params: { query?: object; sort?: string[]; limit?: number; offset?: number }): Promise<unknown[]>;
	findOne(query: object): Promise<unknown>;
	count(params?: { query?: object }): Promise<number>;
	insert(entity: object): Promise<unknown>;
	updateMany(query: object, update: object): Promise<number>;
	removeMany(query: object): Promise<unknown>;
	/** NeDB returns the object; mongoose a promise of `toJSON()`. */
	entityToObject(entity: unknown): Record<string, unknown> | Promise<Record<string, unknown>>;
	init(broker: unknown, service: unknown): void;
	connect(): Promise<void>;
	disconnect(): Promise<void>;
}

/** The datafiles hold every document: readable by the service's user only, like DATA_DIR itself. */
const NEDB_MODES = { fileMode: 0o600, dirMode: 0o700 };

/** NeDB's datafile is append-only; rewriting it this often keeps it the size of its documents. */
const NEDB_COMPACTION_MS = 10 * 60_000;

/** NeDB's own promise API (what moleculer-db's NeDB adapter wraps in promisify over callbacks). */
interface NedbCursor<R> extends PromiseLike<R> {
	sort(fields: Record<string, 1 | -1>): NedbCursor<R>;
	limit(n: number): NedbCursor<R>;
}

interface NedbQueries {
	/** Resolves to a copy of the first matching document, or null. */
	findOneAsync(query: object): PromiseLike<unknown>;
	findAsync(query: object): NedbCursor<unknown[]>;
	countAsync(query: object): PromiseLike<number>;
	insertAsync(doc: object): Promise<unknown>;
	updateAsync(query: object, update: object, options: { multi: true }): Promise<{ numAffected: number }>;
	removeAsync(query: object, options: { multi: true }): Promise<number>;
	ensureIndexAsync(options: { fieldName: string }): Promise<void>;
}

/** The part of a mongoose model that creates an index (the MongoDB driver's `createIndex`). */
interface MongoIndexes {
	collection: { createIndex(spec: Record<string, 1>): Promise<string> };
}

/** moleculer-db's sort list (`["expires_at", "-created_at"]`) as NeDB's sort document. */
function nedbSort(fields: readonly string[]): Record<string, 1 | -1> {
	const sort: Record<string, 1 | -1> = {};
	for (const field of fields) {
		if (field.startsWith("-")) sort[field.slice(1)] = -1;
		else sort[field] = 1;
	}
	return sort;
}

interface NedbDatastore {
	setAutocompactionInterval(ms: number): void;
	stopAutocompaction(): void;
}

/** A collection of plain documents, whichever engine stores them. */
export class DocumentCollection<T extends { _id: string }> {
	private compacting: NedbDatastore | undefined;
	/** `_id`, then the indexed fields most selective first: the order NeDB is steered by. */
	private readonly preferred: readonly string[];
	private readonly writeListeners: Array<(write: CollectionWrite) => void> = [];

	/** `indexes`: the fields to index, most selective first (lib/storage/collection-indexes.ts). */
	constructor(
		private readonly adapter: MoleculerDbAdapter,
		private readonly indexes: readonly string[] = []
	) {
		this.preferred = ["_id", ...indexes];
	}

	/**
	 * Creates the collection's indexes where they are missing (both engines treat an existing one
	 * as done). Call once connected, before serving.
	 */
	async ensureIndexes(): Promise<void> {
		const nedb = this.nedb();
		const model = (this.adapter as { model?: Partial<MongoIndexes> }).model;
		for (const fieldName of this.indexes) {
			if (nedb) await nedb.ensureIndexAsync({ fieldName });
			else if (model?.collection) await model.collection.createIndex({ [fieldName]: 1 });
		}
	}

	/**
	 * Calls `listener` after every write that changed a document: with the document inserted, or
	 * with the query of an update or removal that matched at least one document.
	 */
	onWrite(listener: (write: CollectionWrite) => void): void {
		this.writeListeners.push(listener);
	}

	private wrote(write: CollectionWrite): void {
		for (const listener of this.writeListeners) listener(write);
	}

	/** Starts periodic compaction when the engine is NeDB (MongoDB needs none). Call once connected. */
	startMaintenance(intervalMs = NEDB_COMPACTION_MS): void {
		const db = (this.adapter as { db?: Partial<NedbDatastore> }).db;
		if (db && typeof db.setAutocompactionInterval === "function" && typeof db.stopAutocompaction === "function") {
			this.compacting = db as NedbDatastore;
			this.compacting.setAutocompactionInterval(intervalMs);
		}
	}

	/** Stops what `startMaintenance` started. Call before disconnecting. */
	stopMaintenance(): void {
		this.compacting?.stopAutocompaction();
		this.compacting = undefined;
	}

	/**
	 * NeDB's datastore once connected, whose promise API is used directly: moleculer-db's adapter
	 * reaches it through promisify over NeDB's callback API, and those wrappers cost more than the
	 * lookup on the hottest reads (profiled); its `count` also copied every matching document.
	 * Undefined for MongoDB, which goes through the adapter.
	 */
	private nedb(): NedbQueries | undefined {
		const db = (this.adapter as { db?: Partial<NedbQueries> }).db;
		return typeof db?.findOneAsync === "function" && typeof db.countAsync === "function" ? (db as NedbQueries) : undefined;
	}

	/** The query as NeDB should get it: see lib/storage/query-index.ts. */
	private steered(query: object): object {
		return withPreferredIndexLast(query as Record<string, unknown>, this.preferred);
	}

	private async plain(entity: unknown): Promise<T> {
		return (await this.adapter.entityToObject(entity)) as unknown as T;
	}

	async findOne(query: object): Promise<T | null> {
		const nedb = this.nedb();
		if (nedb) return ((await nedb.findOneAsync(this.steered(query))) as T | null) ?? null;
		const found = await this.adapter.findOne(query);
		return found ? this.plain(found) : null;
	}

	async find(query: object, opts: { sort?: string[]; limit?: number } = {}): Promise<T[]> {
		const nedb = this.nedb();
		if (nedb) {
			let cursor = nedb.findAsync(this.steered(query));
			if (opts.sort) cursor = cursor.sort(nedbSort(opts.sort));
			if (opts.limit !== undefined && opts.limit > 0) cursor = cursor.limit(opts.limit);
			return (await cursor) as T[];
		}
		const rows = await this.adapter.find({ query, ...opts });
		return Promise.all(rows.map(r => this.plain(r)));
	}

	async count(query: object = {}): Promise<number> {
		const nedb = this.nedb();
		return nedb ? nedb.countAsync(this.steered(query)) : this.adapter.count({ query });
	}

	async insert(doc: T): Promise<T> {
		const nedb = this.nedb();
		const inserted = nedb ? ((await nedb.insertAsync(doc)) as T) : await this.plain(await this.adapter.insert(doc));
		this.wrote({ inserted });
		return inserted;
	}

	/** Applies `update` to every document matching `query` atomically per document; returns how many changed. */
	async update(query: object, update: object): Promise<number> {
		const nedb = this.nedb();
		const changed = nedb ? (await nedb.updateAsync(this.steered(query), update, { multi: true })).numAffected : Number(await this.adapter.updateMany(query, update));
		if (changed > 0) this.wrote({ query });
		return changed;
	}

	async remove(query: object): Promise<number> {
		const removed = await this.removeMatching(query);
		if (removed > 0) this.wrote({ query });
		return removed;
	}

	private async removeMatching(query: object): Promise<number> {
		const nedb = this.nedb();
		if (nedb) return nedb.removeAsync(this.steered(query), { multi: true });
		const result = await this.adapter.removeMany(query);
		if (typeof result === "number") return result;
		const deleted = (result as { deletedCount?: number } | null)?.deletedCount;
		return typeof deleted === "number" ? deleted : 0;
	}
}

function createAdapter(config: Readonly<AppConfig>, collection: string): MoleculerDbAdapter {
	if (config.mongoUri) {
		// `strict: false`: documents are shaped by the owning service; `_id` is our own string id.
		// Loaded only when configured: mongoose and the MongoDB driver hold some 50 MB once required.
		const mongoose = require("mongoose") as Mongoose;
		const MongooseAdapter = require("moleculer-db-adapter-mongoose") as typeof MongooseAdapterClass;
		const schema = new mongoose.Schema({ _id: String }, { strict: false, versionKey: false, collection, minimize: false });
		const adapter = new MongooseAdapter(config.mongoUri, { serverSelectionTimeoutMS: 5000 }) as unknown as MoleculerDbAdapter & { model?: unknown };
		adapter.model = mongoose.models[collection] ?? mongoose.model(collection, schema);
		return adapter;
	}
	fs.mkdirSync(config.dataDir, { recursive: true, mode: NEDB_MODES.dirMode });
	return new DbService.MemoryAdapter({ filename: path.join(config.dataDir, `${collection}.db`), modes: NEDB_MODES }) as unknown as MoleculerDbAdapter;
}

/**
 * A standalone collection for services that own more than one: connected in the owner's
 * `started`, disconnected in `stopped`. `indexes` defaults to the collection's own list.
 */
export async function openCollection<T extends { _id: string }>(
	config: Readonly<AppConfig>,
	name: string,
	owner: { broker: unknown },
	indexes: readonly string[] = indexedFields(name)
): Promise<{ collection: DocumentCollection<T>; close: () => Promise<void> }> {
	const adapter = createAdapter(config, name);
	adapter.init(owner.broker, owner);
	await adapter.connect();
	const collection = new DocumentCollection<T>(adapter, indexes);
	await collection.ensureIndexes();
	collection.startMaintenance();
	return {
		collection,
		close: () => {
			collection.stopMaintenance();
			return adapter.disconnect();
		}
	};
}

/**
 * Touches the store through the `_id` index: it answers, whatever the collection holds. A count
 * would read every document (the readiness probe counted, every few seconds).
 */
async function probeStore(documents: DocumentCollection<{ _id: string }> | undefined): Promise<void> {
	await (documents as DocumentCollection<{ _id: string }>).findOne({ _id: "health-probe" });
}

/**
 * The mixin for a service whose main collection is `collection`: moleculer-db connects it, and
 * `this.documents` wraps it. A `health` action answers when the store answers.
 */
export function createDbMixin(config: Readonly<AppConfig>, collection: string): Partial<ServiceSchema> {
	const disabled = Object.fromEntries(CRUD_ACTIONS.map(a => [a, false]));
	return {
		mixins: [DbService],
		adapter: createAdapter(config, collection),
		settings: { idField: "_id" },
		actions: {
			...disabled,
			/** Answers when the document store answers; throws otherwise. */
			health: {
				visibility: "public",
				async handler(this: { documents?: DocumentCollection<{ _id: string }> }) {
					await probeStore(this.documents);
					return { ok: true };
				}
			}
		},
		methods: {
			/** Readiness (services/ops/readiness.ts): the document store answers. */
			async readinessCheck(this: { documents?: DocumentCollection<{ _id: string }> }) {
				await probeStore(this.documents);
			}
		},
		created(this: { adapter?: MoleculerDbAdapter; documents?: DocumentCollection<{ _id: string }> }) {
			this.documents = new DocumentCollection(this.adapter as MoleculerDbAdapter, indexedFields(collection));
		},
		// moleculer-db connects in its own `started`, which runs before this one.
		async started(this: { documents?: DocumentCollection<{ _id: string }> }) {
			await this.documents?.ensureIndexes();
			this.documents?.startMaintenance();
		},
		stopped(this: { documents?: DocumentCollection<{ _id: string }> }) {
			this.documents?.stopMaintenance();
		}
	} as Partial<ServiceSchema>;
}
