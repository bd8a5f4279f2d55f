/**
 * Readiness of one process: it is not draining, it has joined the bus (when there is one), and
 * each of its services that owns a back end reaches it (`readinessCheck`, a method the db mixin
 * and the vectors service define). A service that only calls others (the gateway) has no check:
 * an outage elsewhere must not take every gateway out of the load balancer; those calls answer
 * 503 JSON instead.
 */
import type { Service, ServiceBroker } from "moleculer";
import type { ReadinessReport } from "../../lib/ops/ops-server";

const CHECK_TIMEOUT_MS = 2_000;

type CheckedService = Service & { readinessCheck?: () => Promise<void> };

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_resolve, reject) => {
		timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
	});
	return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function checkReadiness(broker: ServiceBroker, draining: boolean): Promise<ReadinessReport> {
	const problems: string[] = [];
	if (draining) problems.push("draining: the process is shutting down");
	if (!broker.started) problems.push("starting: the services have not all started");
	const transit = broker.transit as { connected?: boolean } | undefined;
	if (transit && !transit.connected) problems.push("bus: not connected to the transporter");
	const checks = (broker.services as CheckedService[])
		.filter(service => typeof service.readinessCheck === "function")
		.map(async service => {
			try {
				await withTimeout((service.readinessCheck as () => Promise<void>).call(service), CHECK_TIMEOUT_MS, service.name);
			} catch (err) {
				problems.push(`${service.name}: its back end does not answer (${(err as Error).message})`);
			}
		});
	await Promise.all(checks);
	return { ready: problems.length === 0, problems };
}
