/**
 * The service registry: each service is a factory of its schema from the configuration. The
 * runner loads all of them, or the ones named in SERVICES (one per Kubernetes Deployment).
 */
import type { ServiceSchema } from "moleculer";
import type { AppConfig } from "../config";
import createChatbotsService from "./chatbots.service";
import createGatewayService from "./gateway.service";

export type ServiceFactory = (config: Readonly<AppConfig>) => ServiceSchema;

export const SERVICE_FACTORIES: Record<string, ServiceFactory> = {
	gateway: createGatewayService,
	chatbots: createChatbotsService
};

/** The schemas to load for a configuration (all services unless SERVICES names some). */
export function selectServices(config: Readonly<AppConfig>, factories: Record<string, ServiceFactory> = SERVICE_FACTORIES): ServiceSchema[] {
	const names = config.services.length ? config.services : Object.keys(factories);
	return names.filter(name => factories[name]).map(name => factories[name](config));
}
