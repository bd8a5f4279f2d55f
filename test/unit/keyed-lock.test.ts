/** KeyedLock: tasks of one key take turns; `joinWaiting` never queues more than one pass behind a running one. */
import { KeyedLock } from "../../lib/concurrency/keyed-lock";

/** A task that records its start and finishes when released. */
function gatedTask(log: string[], name: string): { task: () => Promise<string>; release: () => void } {
	let release: () => void = () => undefined;
	const gate = new Promise<void>(resolve => (release = resolve));
	return {
		task: async () => {
			log.push(`start ${name}`);
			await gate;
			log.push(`end ${name}`);
			return name;
		},
		release
	};
}

describe("KeyedLock", () => {
	test("tasks of one key run one after another in order; other keys run beside them", async () => {
		const lock = new KeyedLock();
		const log: string[] = [];
		const a = gatedTask(log, "a");
		const b = gatedTask(log, "b");
		const other = gatedTask(log, "other");
		const runs = [lock.run("k", a.task), lock.run("k", b.task), lock.run("x", other.task)];
		await new Promise(resolve => setImmediate(resolve));
		expect(log).toEqual(["start a", "start other"]);
		expect(lock.held("k")).toBe(true);
		a.release();
		b.release();
		other.release();
		expect(await Promise.all(runs)).toEqual(["a", "b", "other"]);
		expect(log.indexOf("start b")).toBeGreaterThan(log.indexOf("end a"));
		await lock.idle();
		expect(lock.held("k")).toBe(false);
	});

	test("joinWaiting: asks made while a pass waits behind a running one join it; none pile up", async () => {
		const lock = new KeyedLock();
		const log: string[] = [];
		const running = gatedTask(log, "running");
		const first = lock.joinWaiting("sweep", running.task);
		await new Promise(resolve => setImmediate(resolve));
		let starts = 0;
		const pass = () => {
			starts++;
			return Promise.resolve(`pass ${starts}`);
		};
		// Five asks while the first pass runs: one pass waits, the other four join it.
		const joined = Array.from({ length: 5 }, () => lock.joinWaiting("sweep", pass));
		expect(new Set(joined).size).toBe(1);
		running.release();
		expect(await first).toBe("running");
		expect(await Promise.all(joined)).toEqual(Array(5).fill("pass 1"));
		expect(starts).toBe(1);
		// Once that pass has started, a new ask queues a new pass.
		expect(await lock.joinWaiting("sweep", pass)).toBe("pass 2");
	});

	test("joinWaiting does not join a task queued with run (which may carry its own inputs)", async () => {
		const lock = new KeyedLock();
		const log: string[] = [];
		const running = gatedTask(log, "running");
		void lock.run("sweep", running.task);
		const viaRun = lock.run("sweep", async () => "run");
		const viaJoin = lock.joinWaiting("sweep", async () => "join");
		running.release();
		expect(await viaRun).toBe("run");
		expect(await viaJoin).toBe("join");
	});
});
