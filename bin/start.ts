/**
 * The runner: `npm start` (all services, or those named in SERVICES) and `npm run repl`.
 * Bad configuration stops here with a message naming the variable.
 */
import { ServiceBroker } from "moleculer";
import { ConfigError, loadConfig } from "../config";
import { brokerOptions } from "../moleculer.config";
import { selectServices } from "../services";
import { startProcessOps } from "../services/ops/process-ops";

async function main(): Promise<void> {
	let config;
	try {
		config = loadConfig();
	} catch (err) {
		if (err instanceof ConfigError) {
			process.stderr.write(`${err.message}\n`);
			process.exit(78); // EX_CONFIG
		}
		throw err;
	}
	const repl = process.argv.includes("--repl");
	const broker = new ServiceBroker(brokerOptions(config));
	// A REPL that joins a cluster (TRANSPORTER set) is an operator's console: it runs no services
	// of its own unless SERVICES names some. Without a transporter it runs them all, to be useful.
	const joinOnly = repl && config.transporter !== undefined && config.services.length === 0;
	if (!joinOnly) for (const schema of selectServices(config)) broker.createService(schema);
	// Probes answer from the start (not ready until the broker has started); a stop signal drains.
	const ops = await startProcessOps(broker, config);
	process.once("SIGINT", () => ops.drainAndExit("SIGINT"));
	process.once("SIGTERM", () => ops.drainAndExit("SIGTERM"));
	await broker.start();
	if (repl) await broker.repl();
}

main().catch(err => {
	process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});
