/**
 * The operations server of one process, on its own port (OPS_PORT) so probes and scrapes never
 * queue behind user traffic, rate limits or the gateway's drain:
 * - GET /livez: the event loop answers (a blocked loop cannot answer, and the probe times out);
 * - GET /readyz: 200 when `readiness()` finds nothing wrong, else 503 naming what is;
 * - GET /metrics: the Prometheus text of `metrics()`.
 * Anything else answers a JSON error.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface ReadinessReport {
	ready: boolean;
	/** What is wrong, one entry per failed check (empty when ready). */
	problems: string[];
}

export interface OpsServerOptions {
	port: number;
	host: string;
	readiness(): Promise<ReadinessReport>;
	metrics(): string;
}

export interface OpsServer {
	port: number;
	/** 99th percentile of the event loop delay since the last call, in seconds. */
	eventLoopLagSeconds(): number;
	close(): Promise<void>;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(text) });
	res.end(text);
}

function sendError(res: http.ServerResponse, status: number, code: string, message: string, extra: Record<string, string> = {}): void {
	for (const [name, value] of Object.entries(extra)) res.setHeader(name, value);
	sendJson(res, status, { ok: false, code, status, message, error: code });
}

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
	const delay = monitorEventLoopDelay({ resolution: 20 });
	delay.enable();
	let lastLag = 0;
	const eventLoopLagSeconds = () => {
		if (delay.count > 0) lastLag = delay.percentile(99) / 1e9;
		delay.reset();
		return lastLag;
	};

	const server = http.createServer((req, res) => {
		const path = (req.url ?? "/").split("?")[0];
		const known = path === "/livez" || path === "/readyz" || path === "/metrics";
		if (!known) return sendError(res, 404, "not_found", `Nothing at ${path}; try /livez, /readyz or /metrics.`);
		if (req.method !== "GET" && req.method !== "HEAD") return sendError(res, 405, "method_not_allowed", `${path} answers GET only.`, { Allow: "GET, HEAD" });
		if (path === "/livez") return sendJson(res, 200, { status: "ok" });
		if (path === "/metrics") {
			const text = options.metrics();
			res.writeHead(200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8", "Cache-Control": "no-store" });
			res.end(text);
			return;
		}
		options.readiness().then(
			report => sendJson(res, report.ready ? 200 : 503, { status: report.ready ? "ready" : "not_ready", problems: report.problems }),
			err => sendJson(res, 503, { status: "not_ready", problems: [`readiness check failed: ${(err as Error).message}`] })
		);
	});
	// Probes come often and from few clients; keep-alive just holds sockets open across a drain.
	server.keepAliveTimeout = 1000;
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port, options.host, () => resolve());
	});
	return {
		port: (server.address() as AddressInfo).port,
		eventLoopLagSeconds,
		close: () =>
			new Promise<void>(resolve => {
				delay.disable();
				server.close(() => resolve());
				server.closeAllConnections();
			})
	};
}
