/** The gateway-local handlers, by the names the route table uses. */
import type { GatewayHandlerName } from "../../lib/http/routes/types";
import type { GatewayHandler } from "./context";
import { healthHandler } from "./health";

export const GATEWAY_HANDLERS: Partial<Record<GatewayHandlerName, GatewayHandler>> = {
	health: healthHandler
};
