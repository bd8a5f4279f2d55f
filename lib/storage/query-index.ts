/**
 * Which index NeDB answers a query from. NeDB reads one index per query: among the query's top-level
 * keys that are indexed and compared for equality (a string, number, boolean, date or null), the
 * last one in the query's own key order; failing that an indexed `$in`, then an indexed range. So
 * `{ _id, account_id }` would be answered from every chatbot of the account, and
 * `{ claim_hash, kind, account_id: null }` from every unclaimed sandbox, once `account_id` is indexed.
 *
 * A collection lists its indexed fields most selective first (`_id` always leads); the query is
 * handed to NeDB with the first of them it compares for equality moved to the end. MongoDB's
 * planner chooses by itself, and key order does not change what a query matches.
 */

function isEquality(value: unknown): boolean {
	return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date;
}

/** `query` with its most selective indexed equality key last (the same object when it already is, or has none). */
export function withPreferredIndexLast<Q extends Record<string, unknown>>(query: Q, preferred: readonly string[]): Q {
	const keys = Object.keys(query);
	for (const field of preferred) {
		if (!Object.hasOwn(query, field) || !isEquality(query[field])) continue;
		if (keys[keys.length - 1] === field) return query;
		const reordered: Record<string, unknown> = {};
		for (const key of keys) if (key !== field) reordered[key] = query[key];
		reordered[field] = query[field];
		return reordered as Q;
	}
	return query;
}
