/**
 * Broker options. Everything configurable comes from config/ (the one reader of process.env).
 */
import { Middleware as ChannelsMiddleware } from "@moleculer/channels";
import type { BrokerOptions } from "moleculer";
import type { AppConfig } from "./config";

/**
 * Durable channels (@moleculer/channels) for background jobs: NATS JetStream when the bus is NATS,
 * so an unacknowledged job is redelivered to another worker after a crash; in one process, the
 * in-memory adapter (jobs are also stored in the database and re-queued by the janitor).
 */
function channelsMiddleware(config: Readonly<AppConfig>) {
	const adapter = config.transporter ? { type: "NATS", options: { nats: { url: config.transporter } } } : "Fake";
	// The package's generated typings mark every option as required; the rest have defaults.
	return ChannelsMiddleware({ adapter } as unknown as Parameters<typeof ChannelsMiddleware>[0]);
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
		registry: { strategy: "RoundRobin", preferLocal: true },
		tracking: { enabled: true, shutdownTimeout: 10_000 },
		validator: true,
		middlewares: [channelsMiddleware(config)],
		metrics: false,
		tracing: false
	};
}

export default brokerOptions;
