/**
 * Document storage for a service that owns collections (moleculer-db).
 *
 * Embedded default: NeDB files under DATA_DIR (one file per collection). With MONGO_URI: MongoDB
 * through mongoose. Either way the service talks to `this.adapter` with Mongo-style query
 * documents that both engines run, so each conditional update is written once.
 *
 * moleculer-db's generic CRUD actions are switched off: a collection changes only through its
 * owner's named actions.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ServiceSchema } from "moleculer";
import DbService from "moleculer-db";
import MongooseAdapter from "moleculer-db-adapter-mongoose";
import mongoose from "mongoose";
import type { AppConfig } from "../config";

const CRUD_ACTIONS = ["find", "count", "list", "create", "insert", "get", "update", "remove"] as const;

/** The subset of the moleculer-db adapter API our services use (both adapters implement it). */
export interface DbAdapter {
	find(params: { query?: object; sort?: string[] | Record<string, number>; limit?: number; offset?: number }): Promise<Record<string, unknown>[]>;
	findOne(query: object): Promise<Record<string, unknown> | null>;
	count(params?: { query?: object }): Promise<number>;
	insert(entity: object): Promise<Record<string, unknown>>;
	updateMany(query: object, update: object): Promise<number>;
	removeMany(query: object): Promise<number>;
}

export function createDbMixin(config: Readonly<AppConfig>, collection: string): Partial<ServiceSchema> {
	let adapter: unknown;
	if (config.mongoUri) {
		// `strict: false`: documents are shaped by the owning service; `_id` is our own string id.
		const schema = new mongoose.Schema({ _id: String }, { strict: false, versionKey: false, collection });
		adapter = new MongooseAdapter(config.mongoUri, { serverSelectionTimeoutMS: 5000 });
		(adapter as { model?: unknown }).model = mongoose.models[collection] ?? mongoose.model(collection, schema);
	} else {
		fs.mkdirSync(config.dataDir, { recursive: true });
		adapter = new DbService.MemoryAdapter({ filename: path.join(config.dataDir, `${collection}.db`), autoload: false });
	}
	const disabled = Object.fromEntries(CRUD_ACTIONS.map(a => [a, false]));
	return {
		mixins: [DbService],
		adapter,
		settings: { idField: "_id" },
		actions: {
			...disabled,
			/** Answers when the document store answers; throws otherwise. */
			health: {
				visibility: "public",
				async handler(this: { adapter?: DbAdapter }) {
					await (this.adapter as DbAdapter).count({ query: {} });
					return { ok: true };
				}
			}
		}
	} as Partial<ServiceSchema>;
}
