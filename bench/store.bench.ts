/**
 * Document-store lookups as the collections grow: the embedded store (NeDB) answering the hot
 * paths' lookups by a field other than `_id`, with the collection's indexes (lib/storage/
 * collection-indexes.ts) beside the same collection without them (every lookup then matches every
 * document), measured in the same run over the same documents.
 *
 * - chatbot by slug: every chat message and widget load (`chatbots.findBySlug`);
 * - chatbot by claim hash: the claim page (among unclaimed sandboxes, whose `account_id` is null);
 * - API key by hash: every POST /mcp that carries a key (`accounts.verifyApiKey`);
 * - a chatbot's sources: `chatbots.get` with sources, the dashboard, training.
 *
 * Run: `npx tsx bench/store.bench.ts`. `run()` returns the rows for an aggregator.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadConfig } from "../config";
import { notExpired } from "../lib/chatbots/gates";
import { openCollection, DocumentCollection } from "../mixins/db.mixin";
import { printMarkdownTable, runStandalone } from "./table";

export interface StoreRow {
	documents: number;
	lookup: string;
	/** Median microseconds per lookup with the collection's indexes. */
	indexed: number;
	/** The same lookup on the same documents without them. */
	unindexed: number;
}

type Doc = { _id: string } & Record<string, unknown>;

interface Lookup {
	name: string;
	collection: string;
	/** The i-th document of a collection of n. */
	document(i: number, n: number): Doc;
	/** A lookup that finds document i. */
	ask(collection: DocumentCollection<Doc>, i: number, now: number): Promise<unknown>;
}

const hex = (i: number) => i.toString(16).padStart(64, "0");

const LOOKUPS: Lookup[] = [
	{
		name: "chatbot by slug",
		collection: "chatbots",
		document: i => ({
			_id: `c-${i}`,
			slug: `slug${i}`,
			kind: i % 2 ? "sandbox" : "account",
			account_id: i % 2 ? null : `a-${i % 500}`,
			claim_hash: i % 2 ? hex(i) : null,
			expires_at: i % 2 ? Date.now() + 86_400_000 : null,
			train_pending: false,
			crawl: { status: "done", found: 5, crawled: 5, failed: 0 },
			counts: { urls: 1, files: 0, chars: 1200, messages: 3 }
		}),
		ask: (c, i, now) => c.findOne({ slug: `slug${i}`, ...notExpired(now) })
	},
	{
		name: "chatbot by claim hash",
		collection: "chatbots",
		document: () => ({ _id: "" }),
		// Odd documents are the unclaimed sandboxes.
		ask: (c, i, now) => c.findOne({ claim_hash: hex(i | 1), kind: "sandbox", account_id: null, ...notExpired(now) })
	},
	{
		name: "API key by hash",
		collection: "api_keys",
		document: i => ({ _id: `k-${i}`, hash: hex(i), account_id: `a-${i % 500}`, revoked_at: null, created_at: 0, last_used_at: null }),
		ask: (c, i) => c.findOne({ hash: hex(i), revoked_at: null })
	},
	{
		name: "a chatbot's sources",
		collection: "sources",
		document: (i, n) => ({ _id: `s-${i}`, chatbot_id: `c-${i % Math.max(1, Math.floor(n / 4))}`, kind: "url", status: "ready", char_count: 900 }),
		ask: (c, i, _now) => c.find({ chatbot_id: `c-${i % 25}` })
	}
];

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

/** Median µs of `ask` over `rounds` lookups of spread-out documents. */
async function time(lookup: Lookup, collection: DocumentCollection<Doc>, n: number, rounds: number): Promise<number> {
	const samples: number[] = [];
	const now = Date.now();
	for (let r = 0; r < rounds; r++) {
		const i = Math.floor(((r * 7919) % rounds) * (n / rounds));
		const started = performance.now();
		const found = await lookup.ask(collection, i, now);
		samples.push((performance.now() - started) * 1000);
		if (found === null || (Array.isArray(found) && found.length === 0)) throw new Error(`${lookup.name} found nothing for document ${i} of ${n}`);
	}
	return median(samples);
}

/** A collection filled with `n` documents, indexed as configured or not at all. */
async function filled(dir: string, name: string, lookup: Lookup, n: number, indexed: boolean) {
	const config = loadConfig({ DATA_DIR: path.join(dir, indexed ? "indexed" : "unindexed"), LOG_LEVEL: "error" });
	const opened = await openCollection<Doc>(config, name, { broker: {} }, indexed ? undefined : []);
	for (let i = 0; i < n; i++) await opened.collection.insert(lookup.document(i, n));
	return opened;
}

export async function run(sizes = [1_000, 20_000], rounds = 400): Promise<StoreRow[]> {
	const rows: StoreRow[] = [];
	for (const n of sizes) {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-store-bench-"));
		try {
			const stores = new Map<string, { indexed: DocumentCollection<Doc>; unindexed: DocumentCollection<Doc>; close(): Promise<void> }>();
			for (const lookup of LOOKUPS) {
				// Lookups on the same collection share its documents (filled by the first of them).
				if (!stores.has(lookup.collection)) {
					const indexed = await filled(dir, lookup.collection, lookup, n, true);
					const unindexed = await filled(dir, lookup.collection, lookup, n, false);
					stores.set(lookup.collection, {
						indexed: indexed.collection,
						unindexed: unindexed.collection,
						close: async () => {
							await indexed.close();
							await unindexed.close();
						}
					});
				}
				const store = stores.get(lookup.collection)!;
				// Warm both, then measure them alternately so neither gets a quieter moment.
				await time(lookup, store.indexed, n, 50);
				await time(lookup, store.unindexed, n, 50);
				const indexed = await time(lookup, store.indexed, n, rounds);
				const unindexed = await time(lookup, store.unindexed, n, rounds);
				rows.push({ documents: n, lookup: lookup.name, indexed, unindexed });
			}
			for (const store of stores.values()) await store.close();
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}
	return rows;
}

export function printTable(rows: StoreRow[]): void {
	printMarkdownTable(
		rows.map(row => ({
			documents: row.documents.toLocaleString("en-US"),
			lookup: row.lookup,
			"indexed µs (median)": row.indexed.toFixed(1),
			"unindexed µs (median)": row.unindexed.toFixed(1),
			speed: `${(row.unindexed / row.indexed).toFixed(1)}×`
		})),
		"NeDB (the embedded store), one lookup at a time; unindexed = the same collection without its indexes, measured in the same run"
	);
}

if (require.main === module) runStandalone("store", () => run(), printTable);
