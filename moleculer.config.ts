/**
 * Broker options. Everything configurable comes from config/ (the one reader of process.env).
 */
import { Middleware as ChannelsMiddleware } from "@moleculer/channels";
import { BrokerOptions, Discoverers } from "moleculer";
import type { AppConfig } from "./config";
import { actionPropertyMiddlewares } from "./middlewares";
import { actionMetricsMiddleware } from "./services/ops/metrics-middleware";

/**
 * Durable channels (@moleculer/channels) for background jobs: NATS JetStream when the bus is NATS,
 * so an unacknowledged job is redelivered to another worker after a crash; in one process, the
 * in-memory adapter (jobs are also stored in the database and re-queued by the janitor).
 */
function channelsMiddleware(config: Readonly<AppConfig>) {
	const adapter = config.transporter ? { type: "NATS", options: { nats: { url: config.transporter, streamConfig: jobStreamConfig(config) } } } : "Fake";
	// The package's generated typings mark every option as required; the rest have defaults.
	return ChannelsMiddleware({ adapter } as unknown as Parameters<typeof ChannelsMiddleware>[0]);
}

/**
 * Every job stream (and the dead-letter stream) is bounded and replicated: limits retention keeps
 * messages for inspection after they are acknowledged, up to an age and a size, oldest dropped
 * first; replicas come from JETSTREAM_REPLICAS (3 on a three-server NATS cluster).
 */
function jobStreamConfig(config: Readonly<AppConfig>) {
	return {
		retention: "limits",
		storage: "file",
		discard: "old",
		num_replicas: config.jetstream.replicas,
		max_age: config.jetstream.maxAgeHours * 3600 * 1e9, // nanoseconds
		max_bytes: config.jetstream.maxMegabytes * 1024 * 1024
	};
}

/**
 * Moleculer checks for silent nodes only once per heartbeat timeout, so a dead node could go
 * unnoticed for twice that; checking every half second bounds it by the timeout itself. A node
 * found dead has the calls waiting on it rejected at once (503 at the gateway).
 *
 * A process that crashed and came back under the same NODE_ID (a container restart) before its
 * silence was noticed announces itself with a new instance id: the calls still waiting on the
 * old instance can never be answered, so they are rejected too instead of running into the
 * request timeout.
 */
class PromptDiscoverer extends Discoverers.Local {
	override processRemoteNodeInfo(nodeID: string, payload: Record<string, unknown>) {
		const known = this.registry.nodes.get(nodeID);
		if (known?.available && known.instanceID && payload.instanceID && known.instanceID !== payload.instanceID) {
			this.broker.transit?.removePendingRequestByNodeID(nodeID);
		}
		return super.processRemoteNodeInfo(nodeID, payload);
	}

	override startHeartbeatTimers(): void {
		super.startHeartbeatTimers();
		if (!this.checkNodesTimer) return;
		clearInterval(this.checkNodesTimer);
		this.checkNodesTimer = setInterval(() => this.checkRemoteNodes(), 500);
		this.checkNodesTimer.unref();
	}
}

export function brokerOptions(config: Readonly<AppConfig>): BrokerOptions {
	return {
		namespace: "chatbot-builder",
		nodeID: config.nodeId,
		// No TRANSPORTER: every service in one process on Moleculer's local bus.
		transporter: config.transporter ? { type: "NATS", options: { url: config.transporter } } : undefined,
		logger: { type: "Console", options: { level: config.logLevel, formatter: "short", colors: process.stdout.isTTY } },
		requestTimeout: 30_000,
		retryPolicy: { enabled: false },
		// Errors cross the bus as {name, message, code, type, data} and are rebuilt on the caller's side.
		errorRegenerator: undefined,
		registry: { strategy: "RoundRobin", preferLocal: true, discoverer: new PromptDiscoverer() },
		heartbeatInterval: config.ops.heartbeatIntervalSeconds,
		heartbeatTimeout: config.ops.heartbeatTimeoutSeconds,
		// A stopping service first finishes the calls it is running (bounded by the drain timeout).
		tracking: { enabled: true, shutdownTimeout: config.ops.drainTimeoutSeconds * 1000 },
		validator: true,
		// Action properties (`reply`, `auth`, `csrf`: middlewares/), then the durable channels.
		middlewares: [actionMetricsMiddleware(), ...actionPropertyMiddlewares(config), channelsMiddleware(config)],
		metrics: false,
		tracing: false
	};
}

export default brokerOptions;
