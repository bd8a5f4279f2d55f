/**
 * The pool of live demo sessions as reservations: one counter document for the whole service
 * (`DEMO_GLOBAL_CAP`) and one per client network (`DEMO_NETWORK_CAP`), each taken with a
 * conditional `$inc` that only matches while the counter is under its cap — the same query
 * documents on NeDB and MongoDB, like the chatbot caps in lib/chatbots/gates.ts. A burst of
 * simultaneous creations can never pass a cap: 20 at once against a cap of 5 give exactly 5.
 *
 * A reservation is held from creation until the janitor purges the expired session, and given
 * back at once when the creation fails. Each counter also counts the operations half-way through
 * (`busy`) and changes `version` on every write, so it can heal itself: when nothing is half-way
 * (or what was has been stuck for STALE_MS, its process gone), the counter is reset to the number
 * of session records, conditionally on the version it read — a drift left by a crash is repaired,
 * and a reset can never overwrite a reservation made meanwhile.
 */

export interface PoolCounter {
	/** `global`, or `net:<client network>`. */
	_id: string;
	/** Sessions holding a reservation: records not yet purged, plus creations under way. */
	live: number;
	/** Creations and purges under way on this counter. */
	busy: number;
	version: number;
	touched_at: number;
}

/** The operations of the db mixin's DocumentCollection that the pool uses. */
export interface PoolCollection {
	findOne(query: object): Promise<PoolCounter | null>;
	find(query: object, opts?: { sort?: string[]; limit?: number }): Promise<PoolCounter[]>;
	insert(doc: PoolCounter): Promise<unknown>;
	update(query: object, update: object): Promise<number>;
	remove(query: object): Promise<number>;
}

/** A creation or purge that has not finished in this long died with its process. */
export const STALE_MS = 10 * 60_000;

export const GLOBAL_COUNTER = "global";

export function networkCounter(network: string): string {
	return `net:${network}`;
}

export function reserveGate(id: string, cap: number, now: number): { query: object; update: object } {
	return { query: { _id: id, live: { $lt: cap } }, update: { $inc: { live: 1, busy: 1, version: 1 }, $set: { touched_at: now } } };
}

/** Changes a counter by `live` and ends (-1) or starts (+1) one operation. */
export function stepUpdate(live: number, busy: number, now: number): object {
	return { $inc: { live, busy, version: 1 }, $set: { touched_at: now } };
}

/** True when nothing is half-way on the counter, or what was is stuck. */
export function canHeal(counter: PoolCounter, now: number): boolean {
	return counter.busy <= 0 || counter.touched_at <= now - STALE_MS;
}

export interface PoolOptions {
	globalCap: number;
	networkCap: number;
	/** How many session records hold a reservation on a counter: all of them, or one network's. */
	countSessions(network: string | undefined): Promise<number>;
	now?: () => number;
}

export type Reservation = { ok: true; counters: string[] } | { ok: false; refusedBy: "global" | "network" };

export class DemoPool {
	private readonly now: () => number;

	constructor(
		private readonly counters: PoolCollection,
		private readonly opts: PoolOptions
	) {
		this.now = opts.now ?? Date.now;
	}

	/** Creates a counter at the number of records it covers (first use, or after a cleanup). */
	private async ensure(id: string, network: string | undefined): Promise<void> {
		if (await this.counters.findOne({ _id: id })) return;
		const live = await this.opts.countSessions(network);
		try {
			await this.counters.insert({ _id: id, live, busy: 0, version: 0, touched_at: this.now() });
		} catch (err) {
			if (!(await this.counters.findOne({ _id: id }))) throw err;
		}
	}

	private async take(id: string, cap: number, network: string | undefined): Promise<boolean> {
		for (let attempt = 0; attempt < 2; attempt++) {
			await this.ensure(id, network);
			const gate = reserveGate(id, cap, this.now());
			if ((await this.counters.update(gate.query, gate.update)) === 1) return true;
			// Full, unless a heal dropped the (empty) counter between the two steps: then once more.
			if (await this.counters.findOne({ _id: id })) return false;
		}
		return false;
	}

	private step(ids: readonly string[], live: number, busy: number): Promise<unknown> {
		return Promise.all(ids.map(id => this.counters.update({ _id: id }, stepUpdate(live, busy, this.now()))));
	}

	/** Takes a place in the network's share (when the caller's network is known) and in the pool. */
	async reserve(network: string | undefined): Promise<Reservation> {
		const taken: string[] = [];
		if (network !== undefined) {
			const id = networkCounter(network);
			if (!(await this.take(id, this.opts.networkCap, network))) return { ok: false, refusedBy: "network" };
			taken.push(id);
		}
		if (!(await this.take(GLOBAL_COUNTER, this.opts.globalCap, undefined))) {
			await this.step(taken, -1, -1);
			return { ok: false, refusedBy: "global" };
		}
		return { ok: true, counters: [...taken, GLOBAL_COUNTER] };
	}

	/** The session record is written: the reservation stays, the creation is over. */
	confirm(reservation: { counters: string[] }): Promise<unknown> {
		return this.step(reservation.counters, 0, -1);
	}

	/** The creation failed: its places go back. */
	cancel(reservation: { counters: string[] }): Promise<unknown> {
		return this.step(reservation.counters, -1, -1);
	}

	/**
	 * Removes sessions through `removeOne` (true when it removed that record) and gives their
	 * places back; the counters are marked busy meanwhile so no heal runs half-way.
	 */
	async release(sessions: ReadonlyArray<{ id: string; network?: string | null }>, removeOne: (id: string) => Promise<boolean>): Promise<number> {
		if (sessions.length === 0) return 0;
		const freed = new Map<string, number>([[GLOBAL_COUNTER, 0]]);
		for (const s of sessions) if (s.network) freed.set(networkCounter(s.network), 0);
		const ids = [...freed.keys()];
		await this.step(ids, 0, 1);
		let removed = 0;
		try {
			for (const s of sessions) {
				if (!(await removeOne(s.id))) continue;
				removed++;
				freed.set(GLOBAL_COUNTER, (freed.get(GLOBAL_COUNTER) ?? 0) + 1);
				if (s.network) freed.set(networkCounter(s.network), (freed.get(networkCounter(s.network)) ?? 0) + 1);
			}
		} finally {
			await Promise.all(ids.map(id => this.counters.update({ _id: id }, stepUpdate(-(freed.get(id) ?? 0), -1, this.now()))));
		}
		return removed;
	}

	/**
	 * Resets drifted counters to the records they cover: the global one, and up to `batch` network
	 * ones (least recently used first). Network counters left at zero are dropped. Returns how many
	 * counters were corrected.
	 */
	async heal(batch = 100): Promise<number> {
		let corrected = 0;
		const global = await this.counters.findOne({ _id: GLOBAL_COUNTER });
		if (global && (await this.healOne(global, undefined))) corrected++;
		const networks = await this.counters.find({ _id: { $ne: GLOBAL_COUNTER } }, { sort: ["touched_at"], limit: batch });
		for (const counter of networks) {
			if (await this.healOne(counter, counter._id.slice("net:".length))) corrected++;
		}
		return corrected;
	}

	private async healOne(counter: PoolCounter, network: string | undefined): Promise<boolean> {
		const now = this.now();
		if (!canHeal(counter, now)) return false;
		const actual = await this.opts.countSessions(network);
		const read = { _id: counter._id, version: counter.version };
		if (network !== undefined && actual === 0) {
			await this.counters.remove(read);
			return counter.live !== 0;
		}
		if (actual === counter.live && counter.busy === 0) return false;
		return (await this.counters.update(read, { $set: { live: actual, busy: 0, touched_at: now }, $inc: { version: 1 } })) === 1;
	}
}
