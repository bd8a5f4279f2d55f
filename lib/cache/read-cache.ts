/**
 * Replies that show one chatbot's state, remembered until that chatbot changes: what the gateway
 * answers `get_chatbot` and `getDemoSession` from when the same reply is asked for again (an agent
 * polling a chatbot, a demo page refreshing its session). Each entry is tagged with its chatbot;
 * `invalidate` drops a chatbot's entries when the chatbots service reports a change
 * (lib/chatbots/changes.ts).
 *
 * Three bounds keep a remembered reply from outliving the truth:
 *   - a reply read while its chatbot changed is not kept: the reader takes a `mark()` before asking
 *     and `set` refuses it when the chatbot (or every chatbot) was invalidated since;
 *   - an entry never outlives its own `until` (a sandbox's expiry);
 *   - nor `ttlMs`, in case a change event was lost on the way (a bus reconnect).
 *
 * The number of entries is capped; the least recently used go first.
 */
import type { CounterSeries } from "../ops/metrics";
import { RecentMap } from "./recent-map";

export interface ReadCacheOptions {
	/** Most entries kept. */
	capacity: number;
	/** Longest an entry is kept, whatever happens. */
	ttlMs: number;
	now?: () => number;
	/** Counts lookups that found a live entry, and those that did not. */
	counts?: { hit: CounterSeries; miss: CounterSeries };
}

const NOT_COUNTED: CounterSeries = { inc() {} };

interface Entry<V> {
	chatbotId: string;
	value: V;
	until: number;
}

export class ReadCache<V> {
	private readonly entries: RecentMap<string, Entry<V>>;
	/** The keys of each chatbot's entries. */
	private readonly keysByChatbot = new Map<string, Set<string>>();
	/** Counts invalidations; a mark is its value when a read began. */
	private generation = 0;
	/** When each recently invalidated chatbot was last invalidated (at most `capacity` remembered). */
	private readonly invalidatedAt: RecentMap<string, number>;
	/** Invalidations older than those remembered, or of every chatbot, happened up to here. */
	private forgottenUpTo = 0;
	private readonly now: () => number;
	private readonly hits: CounterSeries;
	private readonly misses: CounterSeries;

	constructor(private readonly options: ReadCacheOptions) {
		this.entries = new RecentMap(options.capacity, (key, entry) => this.unindex(key, entry));
		this.invalidatedAt = new RecentMap(options.capacity, (_id, at) => (this.forgottenUpTo = Math.max(this.forgottenUpTo, at)));
		this.now = options.now ?? Date.now;
		this.hits = options.counts?.hit ?? NOT_COUNTED;
		this.misses = options.counts?.miss ?? NOT_COUNTED;
	}

	get size(): number {
		return this.entries.size;
	}

	/** Taken before reading what may be `set`: a change reported after it makes that read too old to keep. */
	mark(): number {
		return this.generation;
	}

	get(key: string): V | undefined {
		const entry = this.entries.get(key);
		if (entry !== undefined && entry.until <= this.now()) this.drop(key, entry);
		else if (entry !== undefined) {
			this.hits.inc();
			return entry.value;
		}
		this.misses.inc();
		return undefined;
	}

	/**
	 * Keeps `value`, read after `mark`, as the reply for `key` about `chatbotId` until that chatbot
	 * changes, `until` (epoch ms, null for none) or the TTL. Returns false when the read is too old.
	 */
	set(key: string, chatbotId: string, value: V, until: number | null, mark: number): boolean {
		if (mark < this.forgottenUpTo || mark < (this.invalidatedAt.get(chatbotId) ?? 0)) return false;
		const now = this.now();
		const end = Math.min(now + this.options.ttlMs, until ?? Infinity);
		if (end <= now) return false;
		const old = this.entries.get(key);
		if (old) this.drop(key, old);
		let keys = this.keysByChatbot.get(chatbotId);
		if (!keys) this.keysByChatbot.set(chatbotId, (keys = new Set()));
		keys.add(key);
		this.entries.set(key, { chatbotId, value, until: end });
		return true;
	}

	/** Forgets the replies about `ids`, or about every chatbot when `ids` is null. */
	invalidate(ids: readonly string[] | null): void {
		if (ids?.length === 0) return;
		const generation = ++this.generation;
		if (ids === null) {
			this.entries.clear();
			this.keysByChatbot.clear();
			this.invalidatedAt.clear();
			this.forgottenUpTo = generation;
			return;
		}
		for (const id of ids) {
			for (const key of this.keysByChatbot.get(id) ?? []) this.entries.delete(key);
			this.keysByChatbot.delete(id);
			this.invalidatedAt.set(id, generation);
		}
	}

	private drop(key: string, entry: Entry<V>): void {
		this.entries.delete(key);
		this.unindex(key, entry);
	}

	private unindex(key: string, entry: Entry<V>): void {
		const keys = this.keysByChatbot.get(entry.chatbotId);
		keys?.delete(key);
		if (keys?.size === 0) this.keysByChatbot.delete(entry.chatbotId);
	}
}
