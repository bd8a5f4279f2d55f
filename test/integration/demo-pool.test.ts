/**
 * The demo pool as reservations (issue 10) and the per-network bound (issue 11, item 5).
 *
 * First the counters themselves (lib/demo/pool.ts) on each document engine — NeDB always, MongoDB
 * when MONGO_TEST_URI points at a server — then the whole thing over HTTP: simultaneous creations
 * against a small DEMO_GLOBAL_CAP, the bound per client network (IPv4 address, IPv6 /64), and
 * places given back when the janitor purges expired sessions.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../config";
import { DemoPool, GLOBAL_COUNTER, networkCounter, PoolCounter, STALE_MS } from "../../lib/demo/pool";
import { DocumentCollection, openCollection } from "../../mixins/db.mixin";
import { startApp, TestApp } from "../helpers/app";

interface Engine {
	name: string;
	env(): Record<string, string>;
}
const ENGINES: Engine[] = [{ name: "NeDB", env: () => ({}) }];
if (process.env.MONGO_TEST_URI) {
	const uri = new URL(process.env.MONGO_TEST_URI);
	uri.pathname = `/cbb_demo_pool_${process.pid}_${Date.now()}`;
	ENGINES.push({ name: "MongoDB", env: () => ({ MONGO_URI: uri.toString() }) });
}

interface SessionRecord {
	_id: string;
	network: string | null;
}

for (const engine of ENGINES) {
	describe(`pool counters on ${engine.name}`, () => {
		let dataDir: string;
		let broker: ServiceBroker;
		let counters: DocumentCollection<PoolCounter>;
		let sessions: DocumentCollection<SessionRecord>;
		const closers: Array<() => Promise<void>> = [];
		let clock = 1_000_000;
		let suffix = 0;

		beforeAll(async () => {
			dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-demo-pool-"));
			const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", ...engine.env() });
			broker = new ServiceBroker({ logger: false });
			await broker.start();
			const c = await openCollection<PoolCounter>(config, `pool_counters_${process.pid}`, { broker });
			const s = await openCollection<SessionRecord>(config, `pool_sessions_${process.pid}`, { broker });
			counters = c.collection;
			sessions = s.collection;
			closers.push(c.close, s.close);
		});
		afterAll(async () => {
			for (const close of closers) await close();
			await broker?.stop();
			fs.rmSync(dataDir, { recursive: true, force: true });
		});
		beforeEach(async () => {
			await counters.remove({});
			await sessions.remove({});
		});

		const pool = (globalCap: number, networkCap: number) =>
			new DemoPool(counters, {
				globalCap,
				networkCap,
				countSessions: network => sessions.count(network === undefined ? {} : { network }),
				now: () => clock
			});

		/** What demo-session.create does around its writes: reserve, write the record, confirm. */
		async function create(p: DemoPool, network: string | undefined): Promise<"ok" | "global" | "network"> {
			const reservation = await p.reserve(network);
			if (!reservation.ok) return reservation.refusedBy;
			await sessions.insert({ _id: `s${++suffix}`, network: network ?? null });
			await p.confirm(reservation);
			return "ok";
		}

		const live = async (id: string) => (await counters.findOne({ _id: id }))?.live;

		it("20 simultaneous reservations against a cap of 5: exactly 5", async () => {
			const p = pool(5, 100);
			const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => create(p, `198.51.100.${i}`)));
			expect(outcomes.filter(o => o === "ok")).toHaveLength(5);
			expect(outcomes.filter(o => o === "global")).toHaveLength(15);
			expect(await sessions.count({})).toBe(5);
			expect(await live(GLOBAL_COUNTER)).toBe(5);
			// A network refused by the global cap holds nothing.
			const networkTotals = await Promise.all(Array.from({ length: 20 }, (_, i) => live(networkCounter(`198.51.100.${i}`))));
			expect(networkTotals.reduce<number>((sum, n) => sum + (n ?? 0), 0)).toBe(5);
		});

		it("bounds one network, also under concurrency, and leaves other networks alone", async () => {
			const p = pool(100, 3);
			const outcomes = await Promise.all(Array.from({ length: 8 }, () => create(p, "2001:db8:1:2::/64")));
			expect(outcomes.filter(o => o === "ok")).toHaveLength(3);
			expect(outcomes.filter(o => o === "network")).toHaveLength(5);
			expect(await create(p, "2001:db8:1:3::/64")).toBe("ok");
			expect(await create(p, undefined)).toBe("ok");
			expect(await live(GLOBAL_COUNTER)).toBe(5);
		});

		it("a failed creation gives its places back", async () => {
			const p = pool(1, 1);
			const reservation = await p.reserve("203.0.113.9");
			expect(reservation.ok).toBe(true);
			if (reservation.ok) await p.cancel(reservation);
			expect(await live(GLOBAL_COUNTER)).toBe(0);
			expect(await create(p, "203.0.113.9")).toBe("ok");
		});

		it("a purge gives back exactly the places of the records it removed", async () => {
			const p = pool(3, 2);
			for (const network of ["a", "a", "b"]) expect(await create(p, network)).toBe("ok");
			expect(await create(p, "c")).toBe("global");
			const records = await sessions.find({ network: "a" });
			const removed = await p.release(
				records.map(r => ({ id: r._id, network: r.network })),
				async id => (await sessions.remove({ _id: id })) === 1
			);
			expect(removed).toBe(2);
			expect(await live(GLOBAL_COUNTER)).toBe(1);
			expect(await live(networkCounter("a"))).toBe(0);
			// Releasing the same records again frees nothing: they are gone.
			expect(await p.release(records.map(r => ({ id: r._id, network: r.network })), async id => (await sessions.remove({ _id: id })) === 1)).toBe(0);
			expect(await live(GLOBAL_COUNTER)).toBe(1);
		});

		it("heals a counter a crash left too high or too low, and never one with work under way", async () => {
			const p = pool(10, 10);
			for (const network of ["x", "x", "y"]) await create(p, network);
			// A creation that died between its reservation and its record, and a purge that died after removing one.
			await counters.update({ _id: GLOBAL_COUNTER }, { $inc: { live: 1, busy: 1, version: 1 }, $set: { touched_at: clock } });
			await counters.update({ _id: networkCounter("x") }, { $inc: { live: -1, version: 1 } });
			expect(await p.heal()).toBe(1); // x healed; the global counter is busy (a creation may be under way)
			expect(await live(networkCounter("x"))).toBe(2);
			expect(await live(GLOBAL_COUNTER)).toBe(4);
			clock += STALE_MS + 1; // ... until that creation has been silent long enough to be dead
			expect(await p.heal()).toBe(1);
			expect(await counters.findOne({ _id: GLOBAL_COUNTER })).toMatchObject({ live: 3, busy: 0 });
		});

		it("a heal cannot overwrite a reservation made after it read the counter", async () => {
			const p = pool(10, 10);
			await create(p, "z");
			await counters.update({ _id: GLOBAL_COUNTER }, { $inc: { live: 5, version: 1 } }); // drifted
			// Interleave: the heal reads the counter, then a creation lands before the heal writes.
			const original = counters.findOne.bind(counters);
			let interleaved = false;
			counters.findOne = async (query: object) => {
				const found = await original(query);
				if (!interleaved && (query as { _id?: string })._id === GLOBAL_COUNTER && found?.live === 6) {
					interleaved = true;
					await create(p, "w");
				}
				return found;
			};
			try {
				await p.heal();
			} finally {
				counters.findOne = original;
			}
			expect(interleaved).toBe(true);
			// The stale reset was refused (version changed); the next heal counts both records.
			expect(await live(GLOBAL_COUNTER)).toBe(7);
			await p.heal();
			expect(await live(GLOBAL_COUNTER)).toBe(2);
		});

		it("drops network counters left empty", async () => {
			const p = pool(10, 10);
			await create(p, "gone");
			const [record] = await sessions.find({ network: "gone" });
			await p.release([{ id: record._id, network: "gone" }], async id => (await sessions.remove({ _id: id })) === 1);
			await p.heal();
			expect(await counters.findOne({ _id: networkCounter("gone") })).toBeNull();
			expect(await create(p, "gone")).toBe("ok");
		});
	});
}

describe("over HTTP", () => {
	let app: TestApp;
	beforeAll(async () => {
		app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,janitor", DEMO_GLOBAL_CAP: "8", DEMO_NETWORK_CAP: "2" } });
	});
	afterAll(() => app?.stop());

	const create = (ip: string) => fetch(`${app.baseUrl}/api/tools/sessions`, { method: "POST", headers: { "X-Forwarded-For": ip } });
	const demoChatbots = async () => ((await app.broker.call("chatbots.listExpired", { now: Date.now() + 100 * 3_600_000, limit: 500 })) as unknown[]).length;
	const purgeAll = () => app.broker.call("janitor.sweep", { now: Date.now() + 73 * 3_600_000 });

	it("20 simultaneous creations against DEMO_GLOBAL_CAP=8: exactly 8 succeed, 12 get 503 global_cap, 8 chatbots exist", async () => {
		const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => create(`192.0.2.${i + 1}`)));
		const bodies = await Promise.all(responses.map(r => r.json()));
		expect(responses.filter(r => r.status === 200)).toHaveLength(8);
		const refused = responses.map((r, i) => ({ status: r.status, body: bodies[i], retry: r.headers.get("retry-after") })).filter(r => r.status !== 200);
		expect(refused).toHaveLength(12);
		for (const r of refused) {
			expect(r).toMatchObject({ status: 503, body: { ok: false, code: "global_cap", status: 503 } });
			expect(Number(r.retry)).toBeGreaterThan(0);
		}
		expect(await demoChatbots()).toBe(8);

		// The janitor purges them (73 hours on): their places come back.
		await purgeAll();
		expect(await demoChatbots()).toBe(0);
		expect((await create("192.0.2.200")).status).toBe(200);
		await purgeAll();
	});

	it("one client network holds at most DEMO_NETWORK_CAP live demos: an IPv4 address, or an IPv6 /64", async () => {
		expect((await create("198.51.100.7")).status).toBe(200);
		// The same address written as IPv4-mapped IPv6 is the same client.
		expect((await create("::ffff:198.51.100.7")).status).toBe(200);
		const third = await create("198.51.100.7");
		expect(third.status).toBe(429);
		const body = await third.json();
		expect(body).toMatchObject({ ok: false, code: "network_cap", status: 429 });
		expect(typeof body.message).toBe("string");
		expect(typeof body.hint).toBe("string");
		// Retry-After: until the oldest of the two expires, 72 hours from now.
		expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(71 * 3600);
		// The neighbouring IPv4 address is another client.
		expect((await create("198.51.100.8")).status).toBe(200);

		// Rotating addresses inside one IPv6 /64 does not help.
		expect((await create("2001:db8:aa:bb::1")).status).toBe(200);
		expect((await create("2001:db8:aa:bb:ffff:1:2:3")).status).toBe(200);
		expect((await create("2001:0db8:00aa:00bb::9")).status).toBe(429);
		expect((await create("2001:db8:aa:bc::1")).status).toBe(200);
		await purgeAll();
		expect((await create("198.51.100.7")).status).toBe(200);
	});
});
