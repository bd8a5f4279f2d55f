/**
 * The part of NeDB's document model the tests use: `modify` applies a Mongo-style update to a
 * document exactly as the store does, so a transition can be checked without a write.
 */
declare module "@seald-io/nedb/lib/model" {
	export function modify<T extends object>(doc: T, update: Record<string, unknown>): T;
}
