/**
 * storage: object storage for uploaded files — presigned PUT targets, existence checks and
 * deletion, on local disk (embedded) or an S3-compatible store (`S3_*`).
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { createObjectStore, ObjectStore } from "../lib/storage";

interface Vars {
	store: ObjectStore;
}

type C<P> = Context<P, Record<string, unknown>>;

export default function createStorageService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Record<string, never>, Vars> {
	return {
		name: "storage",
		created() {
			this.store = createObjectStore(config);
		},
		actions: {
			/** A PUT target for `key`, valid `ttl_seconds`, that only accepts `content_type` and at most the size. */
			presignPut: {
				params: { key: "string", content_type: "string", size: { type: "number", optional: true }, max_bytes: "number", ttl_seconds: "number" },
				handler(ctx: C<{ key: string; content_type: string; size?: number; max_bytes: number; ttl_seconds: number }>) {
					const p = ctx.params;
					return this.store.presignPut(p.key, p.content_type, { maxBytes: p.max_bytes, size: p.size, ttlSeconds: p.ttl_seconds });
				}
			},
			/** Size and content type of a stored object, or null when nothing is there. */
			head: {
				params: { key: "string" },
				handler(ctx: C<{ key: string }>) {
					return this.store.head(ctx.params.key);
				}
			},
			/** Deletes every object under a prefix (a chatbot's files). */
			deletePrefix: {
				params: { prefix: "string|min:3" },
				async handler(ctx: C<{ prefix: string }>) {
					return { deleted: await this.store.deletePrefix(ctx.params.prefix) };
				}
			}
		}
	};
}
