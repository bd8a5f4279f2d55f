/**
 * The runner: `npm start` (all services, or those named in SERVICES) and `npm run repl`.
 * Bad configuration stops here with a message naming the variable.
 */
import { ServiceBroker } from "moleculer";
import { ConfigError, loadConfig } from "../config";
import { brokerOptions } from "../moleculer.config";
import { selectServices } from "../services";

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
	const broker = new ServiceBroker(brokerOptions(config));
	for (const schema of selectServices(config)) broker.createService(schema);
	const shutdown = () => {
		broker.stop().finally(() => process.exit(0));
	};
	process.once("SIGINT", shutdown);
	process.once("SIGTERM", shutdown);
	await broker.start();
	if (process.argv.includes("--repl")) await broker.repl();
}

main().catch(err => {
	process.stderr.write(`Start-up failed: ${err instanceof Error ? err.message : String(err)}\n`);
	process.exit(1);
});
