/**
 * GET /v2/health (SPEC §4.3): plain `ok` / `db unreachable` by default, the Health body when the
 * client asks for JSON; 503 when the document store does not answer within two seconds.
 */
import { API_VERSION } from "../../lib/http/versioning";
import { negotiate } from "../../lib/http/negotiate";
import { GatewayHandler, send, sendJson } from "./context";

const DB_CHECK_TIMEOUT_MS = 2000;

export const healthHandler: GatewayHandler = async (deps, req, res) => {
	let databaseUp = false;
	try {
		await deps.call("chatbots.health", {}, { timeout: DB_CHECK_TIMEOUT_MS });
		databaseUp = true;
	} catch (err) {
		deps.logger.warn("Health check: database did not answer:", (err as Error).message);
	}
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
};
