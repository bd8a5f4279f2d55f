/**
 * One million distinct client addresses, one request each, against the `demo-api` budget:
 * `node --expose-gc --import tsx limiter-flood.ts <project|flexible>` prints the heap held
 * afterwards (after a full GC) as JSON.
 *
 * - project: the gateway's in-memory limiter (lib/http/rate-limiter.ts → window-counters.ts);
 * - flexible: rate-limiter-flexible's RateLimiterMemory, which the gateway used before (one
 *   timer per key until its window ends).
 */
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { createRateLimiter } from "../../lib/http/rate-limiter";
import { RATE_POLICIES } from "../../lib/http/rate-policies";

const ADDRESSES = Number(process.env.FLOOD_ADDRESSES ?? 1_000_000);
const policy = RATE_POLICIES["demo-api"];

function address(i: number): string {
	return `${10 + (i >>> 24)}.${(i >>> 16) & 255}.${(i >>> 8) & 255}.${i & 255}`;
}

function heapMb(): number {
	(globalThis as { gc?: () => void }).gc?.();
	return process.memoryUsage().heapUsed / 1_048_576;
}

async function main(): Promise<void> {
	const kind = process.argv[2];
	let consume: (key: string) => Promise<unknown>;
	// Kept referenced to the end: otherwise the limiter could be collected before the heap is read.
	let held: unknown;
	if (kind === "project") {
		const limiter = createRateLimiter(RATE_POLICIES);
		held = limiter;
		consume = key => limiter.consume("demo-api", key);
	} else if (kind === "flexible") {
		const limiter = new RateLimiterMemory({ points: policy.limit, duration: policy.windowSeconds, keyPrefix: "rl:demo-api" });
		held = limiter;
		consume = key => limiter.consume(key).catch((rejection: unknown) => (rejection instanceof RateLimiterRes ? rejection : Promise.reject(rejection)));
	} else {
		throw new Error("usage: limiter-flood.ts project|flexible");
	}
	const before = heapMb();
	const started = performance.now();
	for (let i = 0; i < ADDRESSES; i++) await consume(address(i));
	const seconds = (performance.now() - started) / 1000;
	const after = heapMb();
	// A probe after the flood: the limiter still answers (and is still alive for the reading above).
	await consume(address(0));
	if (!held) throw new Error("limiter gone");
	process.stdout.write(`${JSON.stringify({ addresses: ADDRESSES, heapHeldMb: after - before, rssMb: process.memoryUsage().rss / 1_048_576, seconds })}\n`);
	// The flexible limiter's timers would keep the process alive for the whole window.
	process.exit(0);
}

main().catch(err => {
	process.stderr.write(`${String(err)}\n`);
	process.exit(1);
});
