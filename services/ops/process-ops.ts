/**
 * What the runner adds to each process: the operations server (probes and metrics on OPS_PORT)
 * and the drain on SIGTERM/SIGINT with its deadline.
 */
import type { ServiceBroker } from "moleculer";
import type { AppConfig } from "../../config";
import { processMetrics } from "../../lib/ops/metrics";
import { OpsServer, startOpsServer } from "../../lib/ops/ops-server";
import { drainBroker } from "./drain";
import { checkReadiness } from "./readiness";

export interface ProcessOps {
	/** True from the first stop signal on. */
	draining(): boolean;
	/** Drains and stops the broker; exits the process with 0, or 1 when the deadline passed first. */
	drainAndExit(signal: string): void;
	opsServer: OpsServer | undefined;
}

function registerProcessMetrics(broker: ServiceBroker, lag: () => number, isDraining: () => boolean): void {
	processMetrics.gauge("process_resident_memory_bytes", "Resident memory of this process.", () => process.memoryUsage().rss);
	processMetrics.gauge("nodejs_heap_used_bytes", "V8 heap in use.", () => process.memoryUsage().heapUsed);
	processMetrics.gauge("process_uptime_seconds", "Seconds since the process started.", () => process.uptime());
	processMetrics.gauge("nodejs_eventloop_lag_p99_seconds", "99th percentile event loop delay since the last scrape.", lag);
	processMetrics.gauge("process_draining", "1 while the process drains after a stop signal.", () => (isDraining() ? 1 : 0));
	processMetrics.gauge("moleculer_nodes_available", "Nodes this process sees on the bus, itself included.", () =>
		(broker.registry.getNodeList({ onlyAvailable: true, withServices: false }) as unknown[]).length
	);
}

export async function startProcessOps(broker: ServiceBroker, config: Readonly<AppConfig>): Promise<ProcessOps> {
	let draining = false;
	let opsServer: OpsServer | undefined;
	if (config.ops.port !== undefined) {
		opsServer = await startOpsServer({
			port: config.ops.port,
			host: config.host,
			readiness: () => checkReadiness(broker, draining),
			metrics: () => processMetrics.render()
		});
		registerProcessMetrics(broker, opsServer.eventLoopLagSeconds, () => draining);
		broker.logger.info(`Probes and metrics on port ${opsServer.port} (/livez, /readyz, /metrics)`);
	}
	return {
		opsServer,
		draining: () => draining,
		drainAndExit(signal: string) {
			if (draining) return;
			draining = true;
			broker.logger.info(`${signal}: draining (in-flight work finishes, then services stop in order)`);
			const deadline = setTimeout(() => {
				broker.logger.error(`Drain did not finish within ${config.ops.drainTimeoutSeconds} s; exiting anyway`);
				process.exit(1);
			}, config.ops.drainTimeoutSeconds * 1000);
			deadline.unref();
			drainBroker(broker, config.ops.drainDelaySeconds * 1000)
				.then(() => opsServer?.close())
				.then(
					() => process.exit(0),
					err => {
						broker.logger.error("Drain failed:", (err as Error).message);
						process.exit(1);
					}
				);
		}
	};
}
