/**
 * The order in which a draining process stops its services. Stopping them all at once closed a
 * store under a request still running through the gateway; in waves, each wave stops only after
 * the one before it finished what it was doing:
 * 1. the gateway: no new HTTP requests, in-flight ones finish;
 * 2. the services callers reach through it, which call the rest;
 * 3. the job workers (a running job is handed back to another worker);
 * 4. the owners of stores, last, once nobody in this process can still call them.
 */
export const STOP_WAVES: readonly (readonly string[])[] = [
	["gateway"],
	["mcp", "discovery", "demo-session", "accounts", "chat", "channels", "billing", "janitor"],
	["crawler", "extractor", "trainer"],
	["chatbots", "vectors", "storage"]
];

/**
 * Groups the names of the running services into waves, in stop order, leaving out empty waves.
 * A service no wave names stops with the workers: after its callers, before the stores.
 */
export function stopWaves(running: readonly string[]): string[][] {
	const known = new Set(STOP_WAVES.flat());
	const waves = STOP_WAVES.map(wave => wave.filter(name => running.includes(name)));
	const others = running.filter(name => !known.has(name));
	waves[2] = [...waves[2], ...others];
	return waves.filter(wave => wave.length > 0);
}
