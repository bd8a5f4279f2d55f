/**
 * GET /v2/health (SPEC §4.3): plain `ok` / `db unreachable` by default, the Health body when the
 * client asks for JSON; 503 when the document store does not answer within two seconds.
 */
import { API_VERSION } from "../../lib/http/versioning";
import { negotiate } from "../../lib/http/negotiate";
import type { ServerResponse } from "node:http";
import { GatewayDeps, GatewayHandler, GatewayRequest, send, sendJson } from "./context";

const DB_CHECK_TIMEOUT_MS = 2000;
/**
 * How long a database answer stands for later probes. Probes come every few seconds from each load
 * balancer, but a client may poll in a loop: without this, every burst of requests cost a bus call
 * and a store read, which halved the route's throughput. A failure is never reused, so an outage
 * shows at once and recovery at the next check.
 */
export const DB_ANSWER_REUSE_MS = 1000;

/**
 * Requests that arrive while a database check is under way share it, and a check that succeeded
 * stands for DB_ANSWER_REUSE_MS: under load a probe costs at most one bus call a second. The clock
 * is monotonic, so a wall-clock jump back never stretches the reuse.
 */
export function createHealthHandler(now: () => number = () => performance.now()): GatewayHandler {
	let inFlight: Promise<boolean> | undefined;
	let answeredAt = -Infinity;
	const databaseAnswers = (deps: GatewayDeps): Promise<boolean> =>
		(inFlight ??= deps
			.call("chatbots.health", {}, { timeout: DB_CHECK_TIMEOUT_MS })
			.then(
				() => {
					answeredAt = now();
					return true;
				},
				(err: unknown) => {
					deps.logger.warn("Health check: database did not answer:", (err as Error).message);
					return false;
				}
			)
			.finally(() => {
				inFlight = undefined;
			}));
	return async (deps, req, res) => answer(deps, req, res, now() - answeredAt < DB_ANSWER_REUSE_MS || (await databaseAnswers(deps)));
}

function answer(deps: GatewayDeps, req: GatewayRequest, res: ServerResponse, databaseUp: boolean): void {
	const status = databaseUp ? 200 : 503;
	const headers = { "Cache-Control": "no-store" };
	const wanted = negotiate(req.headers.accept, ["text/plain", "application/json"]);
	if (wanted === "application/json") {
		sendJson(
			res,
			status,
			{
				status: databaseUp ? "ok" : "unavailable",
				database: databaseUp ? "ok" : "unreachable",
				service: "chatbot-builder",
				version: API_VERSION,
				time: new Date().toISOString(),
				documentation_url: `${deps.config.publicUrl}/docs/api/health`
			},
			headers
		);
	} else {
		send(res, status, databaseUp ? "ok" : "db unreachable", "text/plain; charset=utf-8", headers);
	}
}
