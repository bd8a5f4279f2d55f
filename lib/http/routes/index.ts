import { accountRoutes } from "./accounts";
import { chatRoutes } from "./chat";
import { demoRoutes } from "./demo";
import { discoveryRoutes } from "./discovery";
import { healthRoutes } from "./health";
import { mcpRoutes } from "./mcp";
import { siteRoutes } from "./site";
import { uploadRoutes } from "./uploads";
import type { RouteDef } from "./types";

/** Every HTTP operation the gateway serves, in matching order. */
export const ROUTES: readonly RouteDef[] = [...healthRoutes, ...demoRoutes, ...uploadRoutes, ...mcpRoutes, ...accountRoutes, ...chatRoutes, ...discoveryRoutes, ...siteRoutes];

export type { RouteDef } from "./types";
