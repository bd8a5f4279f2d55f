/**
 * SIGTERM for one process: readiness fails at once, then (after `delayMs`, while load balancers
 * catch up) the entry points stop taking work and the services stop in waves (lib/ops/stop-order.ts), each wave finishing its work
 * before the next one stops, and the broker leaves the bus last.
 */
import type { Service, ServiceBroker } from "moleculer";
import { stopWaves } from "../../lib/ops/stop-order";

/** A service that takes no new work from outside once told (the gateway closes its listener). */
type DrainableService = Service & { beginDrain?: () => Promise<void> };

export async function drainBroker(broker: ServiceBroker, delayMs: number): Promise<void> {
	if (delayMs > 0) await new Promise(resolve => setTimeout(resolve, delayMs));
	const services = broker.services as DrainableService[];
	// Entry points close first, before any service waits for its own calls in flight to finish.
	for (const service of services) void service.beginDrain?.();
	for (const wave of stopWaves(services.map(service => service.name))) {
		const stopping = services.filter(service => wave.includes(service.name));
		await Promise.all(stopping.map(service => broker.destroyService(service)));
	}
	await broker.stop();
}
