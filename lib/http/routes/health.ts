import type { RouteDef } from "./types";
import { ref } from "./types";

export const healthRoutes: RouteDef[] = [
	{
		operationId: "getHealth",
		method: "GET",
		path: "/v2/health",
		summary: "Health of the service and its database",
		description:
			"`text/plain` (default): `ok` or `db unreachable`. With `Accept: application/json`, a Health body. 503 means the application is up but its database does not answer.",
		tags: ["Operations"],
		handler: "health",
		responses: {
			"200": {
				description: "The service and its database answer.",
				content: { "text/plain": { type: "string", const: "ok" }, "application/json": ref("Health") }
			},
			"503": {
				description: "The database does not answer.",
				content: { "text/plain": { type: "string", const: "db unreachable" }, "application/json": ref("Health") }
			}
		},
		documented: true
	}
];
