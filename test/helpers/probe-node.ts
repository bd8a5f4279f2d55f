/** Entry point of a separate process that runs only the probe service over the configured bus. */
import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../config";
import { brokerOptions } from "../../moleculer.config";
import { probeService } from "./probe-service";

const broker = new ServiceBroker(brokerOptions(loadConfig()));
broker.createService(probeService);
broker.start().catch(err => {
	process.stderr.write(String(err));
	process.exit(1);
});
process.once("SIGTERM", () => broker.stop().finally(() => process.exit(0)));
