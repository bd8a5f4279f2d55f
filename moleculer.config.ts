/**
 * Broker options. Everything configurable comes from config/ (the one reader of process.env).
 */
import type { BrokerOptions } from "moleculer";
import type { AppConfig } from "./config";

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
		metrics: false,
		tracing: false
	};
}

export default brokerOptions;
