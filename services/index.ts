/**
 * The service registry: each service is a factory of its schema from the configuration. The
 * runner loads all of them, or the ones named in SERVICES (one per Kubernetes Deployment).
 */
import type { ServiceSchema } from "moleculer";
import type { AppConfig } from "../config";
import createAccountsService from "./accounts.service";
import createChannelsService from "./channels.service";
import createBillingService from "./billing.service";
import createChatService from "./chat.service";
import createChatbotsService from "./chatbots.service";
import createCrawlerService from "./crawler.service";
import createDemoSessionService from "./demo-session.service";
import createDiscoveryService from "./discovery.service";
import createExtractorService from "./extractor.service";
import createGatewayService from "./gateway.service";
import createJanitorService from "./janitor.service";
import createMcpService from "./mcp.service";
import createStorageService from "./storage.service";
import createTrainerService from "./trainer.service";
import createVectorsService from "./vectors.service";

/**
 * Each schema is typed with its own methods and instance variables; the registry only needs to
 * hand them to `broker.createService`, so it erases those type parameters.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceSchema = ServiceSchema<any, any, any, any>;
export type ServiceFactory = (config: Readonly<AppConfig>) => AnyServiceSchema;

export const SERVICE_FACTORIES: Record<string, ServiceFactory> = {
	gateway: createGatewayService,
	chatbots: createChatbotsService,
	"demo-session": createDemoSessionService,
	storage: createStorageService,
	janitor: createJanitorService,
	accounts: createAccountsService,
	mcp: createMcpService,
	discovery: createDiscoveryService,
	crawler: createCrawlerService,
	extractor: createExtractorService,
	trainer: createTrainerService,
	vectors: createVectorsService,
	chat: createChatService,
	channels: createChannelsService,
	billing: createBillingService
};

/** The schemas to load for a configuration (all services unless SERVICES names some). */
export function selectServices(config: Readonly<AppConfig>, factories: Record<string, ServiceFactory> = SERVICE_FACTORIES): AnyServiceSchema[] {
	const names = (config.services.length ? config.services : Object.keys(factories)).filter(name => factories[name]);
	// The gateway opens its port only once the services of its own process have started, so a caller
	// that waited for the port or /v2/health never meets a 503 from a neighbour still opening its
	// files. Services in other processes are not waited for: there the gateway answers 503 until they join.
	const schemas = names.map(name => factories[name](config));
	const neighbours = schemas.map(schema => schema.name).filter(name => name !== "gateway");
	return schemas.map(schema =>
		schema.name === "gateway" && neighbours.length > 0
			? // Checked every 20 ms (Moleculer's default is 1 s, which would add up to a second to every start).
				{ ...schema, dependencies: neighbours, settings: { ...schema.settings, $dependencyInterval: 20 } }
			: schema
	);
}
