import { healthRoutes } from "./health";
import type { RouteDef } from "./types";

/** Every HTTP operation the gateway serves, in matching order. */
export const ROUTES: readonly RouteDef[] = [...healthRoutes];

export type { RouteDef } from "./types";
