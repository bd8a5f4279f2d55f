/**
 * How long reading one page may take, derived once from the crawler's per-request limit: the
 * static fetch and the browser render each get `timeoutMs`, so a page gets both. Whoever waits for
 * a page over the bus waits a margin longer per hop between it and the crawler, so the crawler's
 * own, clearer timeout always answers first.
 */
const BUS_MARGIN_MS = 5_000;

export function pageDeadlineMs(timeoutMs: number): number {
	return 2 * timeoutMs;
}

/** The call timeout for a caller `hops` bus calls away from the crawler (1: calls the crawler itself). */
export function pageCallTimeoutMs(timeoutMs: number, hops = 1): number {
	return pageDeadlineMs(timeoutMs) + hops * BUS_MARGIN_MS;
}
