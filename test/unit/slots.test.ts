/** The counting semaphore that bounds concurrent renders (lib/workers/slots.ts). */
import { Slots } from "../../lib/workers/slots";

const tick = () => new Promise(resolve => setImmediate(resolve));

it("grants up to its size at once; the next waiter gets a slot when one is released, in order", async () => {
	const slots = new Slots(2);
	const order: number[] = [];
	const first = await slots.acquire(1000, () => new Error("timeout"));
	const second = await slots.acquire(1000, () => new Error("timeout"));
	const third = slots.acquire(1000, () => new Error("timeout")).then(release => (order.push(3), release));
	const fourth = slots.acquire(1000, () => new Error("timeout")).then(release => (order.push(4), release));
	await tick();
	expect(slots.load()).toEqual({ held: 2, waiting: 2 });
	first();
	first(); // releasing twice frees one slot only
	await tick();
	expect(order).toEqual([3]);
	expect(slots.load()).toEqual({ held: 2, waiting: 1 });
	second();
	(await third)();
	(await fourth)();
	expect(order).toEqual([3, 4]);
	expect(slots.load()).toEqual({ held: 0, waiting: 0 });
});

it("a waiter that gets no slot within its time limit rejects with its own error and leaves the queue", async () => {
	const slots = new Slots(1);
	const held = await slots.acquire(1000, () => new Error("timeout"));
	await expect(slots.acquire(20, () => new Error("busy for 20 ms"))).rejects.toThrow("busy for 20 ms");
	expect(slots.load()).toEqual({ held: 1, waiting: 0 });
	held();
	expect(slots.load()).toEqual({ held: 0, waiting: 0 });
});
