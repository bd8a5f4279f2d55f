/**
 * Starts the application in the test process: a broker with the chosen services (all by default)
 * and the gateway on a free port, configured through the same `loadConfig` as production.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker, ServiceSchema } from "moleculer";
import { AppConfig, loadConfig } from "../../config";
import { brokerOptions } from "../../moleculer.config";
import { SERVICE_FACTORIES, selectServices, ServiceFactory } from "../../services";
import createGatewayService, { GatewayOptions } from "../../services/gateway.service";
import { freePort } from "./ports";

export interface TestApp {
	broker: ServiceBroker;
	config: Readonly<AppConfig>;
	baseUrl: string;
	dataDir: string;
	stop(): Promise<void>;
}

export interface TestAppOptions {
	env?: Record<string, string>;
	gateway?: GatewayOptions;
	/** Extra service schemas to load beside the selected ones. */
	extraServices?: ServiceSchema[];
	/** Factories that replace the production ones by name (for service options tests need). */
	factories?: Record<string, ServiceFactory>;
	/** Keep the data directory after stop (for restart tests). */
	dataDir?: string;
}

export async function startApp(options: TestAppOptions = {}): Promise<TestApp> {
	const port = await freePort();
	const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "cbb-data-"));
	const config = loadConfig({
		PORT: String(port),
		HOST: "127.0.0.1",
		PUBLIC_URL: `http://127.0.0.1:${port}`,
		DATA_DIR: dataDir,
		LOG_LEVEL: "warn",
		// Tests run every process on this one machine, sharing embedded stores through the bus.
		SINGLE_MACHINE: "true",
		...options.env
	});
	const factories: Record<string, ServiceFactory> = {
		...SERVICE_FACTORIES,
		gateway: cfg => createGatewayService(cfg, options.gateway),
		...options.factories
	};
	const broker = new ServiceBroker({ ...brokerOptions(config), logger: { type: "Console", options: { level: "error" } } });
	for (const schema of selectServices(config, factories)) broker.createService(schema);
	for (const schema of options.extraServices ?? []) broker.createService(schema);
	await broker.start();
	return {
		broker,
		config,
		baseUrl: config.publicUrl,
		dataDir,
		async stop() {
			await broker.stop();
			if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
		}
	};
}
