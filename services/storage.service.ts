/**
 * storage: object storage for uploaded files — upload grants and their presigned PUT targets,
 * existence checks, attaching, deletion, on local disk (embedded) or an S3-compatible store (`S3_*`).
 *
 * It owns the `upload_grants` collection (lib/storage/grant-book.ts): how many upload URLs a
 * chatbot may hold at once, the single use of each embedded URL, and the sweep of uploads that
 * were never attached. Grants belong to the chatbot named in the storage key, whichever surface
 * (demo API, dashboard) asked for them.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { appError } from "../lib/errors";
import { createObjectStore, ObjectStore } from "../lib/storage";
import { GrantBook, GrantCollection } from "../lib/storage/grant-book";
import { isWellFormedKey } from "../lib/storage/object-store";
import type { GrantDoc } from "../lib/storage/upload-grants";
import { createDbMixin, DocumentCollection } from "../mixins/db.mixin";

interface Vars {
	store: ObjectStore;
	grants: GrantBook;
	documents?: DocumentCollection<GrantDoc>;
}

type C<P> = Context<P, Record<string, unknown>>;

const keyParam = { type: "string", min: 1, max: 400 } as const;

function requireWellFormed(key: string): void {
	if (!isWellFormedKey(key)) throw appError("validation_failed", "The storage key is malformed.", { fields: [{ field: "key", message: "not a storage key" }] });
}

export default function createStorageService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Record<string, never>, Vars> {
	return {
		name: "storage",
		mixins: [createDbMixin(config, "upload_grants") as ServiceSchema],
		created() {
			this.store = createObjectStore(config);
			this.grants = new GrantBook(this.documents as unknown as GrantCollection, this.store, Date.now, (key, err) =>
				this.logger.warn(`Could not delete the unattached upload ${key}:`, (err as Error).message)
			);
		},
		actions: {
			/**
			 * Grants one upload of `key` and returns its PUT target, valid `ttl_seconds`, accepting only
			 * `content_type` and at most the size. `slots` is how many unexpired, unattached grants the
			 * key's owner may hold with this one (a chatbot: max_files minus its files).
			 * Throws `file_cap` when they are all out, `conflict` for a key already granted.
			 */
			presignPut: {
				params: {
					key: keyParam,
					content_type: "string",
					size: { type: "number", integer: true, min: 0, optional: true },
					max_bytes: "number|integer|min:0",
					ttl_seconds: "number|integer",
					slots: { type: "number", integer: true, min: 0, optional: true, default: 1 }
				},
				async handler(ctx: C<{ key: string; content_type: string; size?: number; max_bytes: number; ttl_seconds: number; slots: number }>) {
					const p = ctx.params;
					requireWellFormed(p.key);
					const target = await this.store.presignPut(p.key, p.content_type, { maxBytes: p.max_bytes, size: p.size, ttlSeconds: p.ttl_seconds });
					await this.grants.grant({ key: p.key, contentType: p.content_type, maxBytes: p.size ?? p.max_bytes, expiresAt: target.expiresAt, slots: p.slots });
					return target;
				}
			},
			/** The embedded PUT handler starts the one upload a grant allows: `{ok}` or why not. */
			beginPut: {
				params: { key: keyParam },
				handler(ctx: C<{ key: string }>) {
					return this.grants.beginPut(ctx.params.key);
				}
			},
			/** The embedded PUT handler reports the end of an upload: stored (URL used) or failed (may retry). */
			endPut: {
				params: { key: keyParam, stored: "boolean" },
				async handler(ctx: C<{ key: string; stored: boolean }>) {
					await this.grants.endPut(ctx.params.key, ctx.params.stored);
					return { ok: true };
				}
			},
			/**
			 * Starts attaching an upload: `{stored_key, size, contentType}` of the object, now sealed.
			 * Throws `empty` (nothing uploaded) or `conflict` (already attached or being attached).
			 * Follow it with `settleAttach`.
			 */
			beginAttach: {
				params: { key: keyParam },
				async handler(ctx: C<{ key: string }>) {
					requireWellFormed(ctx.params.key);
					const attached = await this.grants.beginAttach(ctx.params.key);
					return { stored_key: attached.storedKey, size: attached.size, contentType: attached.contentType };
				}
			},
			/** Records an attach as done, or undoes it (`attached: false`) when the source was refused. */
			settleAttach: {
				params: { key: keyParam, stored_key: keyParam, attached: "boolean" },
				async handler(ctx: C<{ key: string; stored_key: string; attached: boolean }>) {
					await this.grants.settleAttach(ctx.params.key, ctx.params.stored_key, ctx.params.attached);
					return { ok: true };
				}
			},
			/** Size and content type of a stored object, or null when nothing is there. */
			head: {
				params: { key: "string" },
				handler(ctx: C<{ key: string }>) {
					return this.store.head(ctx.params.key);
				}
			},
			/** Deletes uploads never attached whose URLs expired, and records of used URLs. `now` in epoch ms. */
			sweepUploads: {
				visibility: "public",
				params: { now: "number|integer" },
				handler(ctx: C<{ now: number }>) {
					return this.grants.sweep(ctx.params.now);
				}
			},
			/** Deletes every object under a prefix (a chatbot's files) and forgets the chatbot's grants. */
			deletePrefix: {
				params: { prefix: "string|min:3" },
				async handler(ctx: C<{ prefix: string }>) {
					const deleted = await this.store.deletePrefix(ctx.params.prefix);
					const owner = ctx.params.prefix.split("/")[1];
					if (owner) await this.grants.forgetOwner(owner);
					return { deleted };
				}
			}
		}
	};
}
