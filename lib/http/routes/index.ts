import { accountRoutes } from "./accounts";
import { channelRoutes } from "./channels";
import { dashboardRoutes } from "./dashboard";
import { sandboxRoutes } from "./sandbox";
import { billingRoutes } from "./billing";
import { chatRoutes } from "./chat";
import { demoRoutes } from "./demo";
import { discoveryRoutes } from "./discovery";
import { healthRoutes } from "./health";
import { insightRoutes } from "./insights";
import { mcpRoutes } from "./mcp";
import { siteRoutes } from "./site";
import { uploadRoutes } from "./uploads";
import type { RouteDef } from "./types";

/** Every HTTP operation the gateway serves, in matching order. */
export const ROUTES: readonly RouteDef[] = [...healthRoutes, ...demoRoutes, ...uploadRoutes, ...mcpRoutes, ...accountRoutes, ...dashboardRoutes, ...sandboxRoutes, ...channelRoutes, ...insightRoutes, ...billingRoutes, ...chatRoutes, ...discoveryRoutes, ...siteRoutes];

export type { RouteDef } from "./types";
