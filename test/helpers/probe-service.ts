/**
 * A small service for gateway tests: it answers, fails with a chosen code, or crashes, so the
 * gateway's rendering of each can be checked through real HTTP (and over a real bus).
 */
import type { ServiceSchema } from "moleculer";
import { appError, ErrorCode } from "../../lib/errors";
import type { RouteDef } from "../../lib/http/routes/types";

export const probeService: ServiceSchema = {
	name: "probe",
	actions: {
		echo: { handler: ctx => ({ ok: true, params: ctx.params }) },
		fail: {
			params: { code: "string" },
			handler: ctx => {
				throw appError((ctx.params as { code: ErrorCode }).code, "The probe failed as asked.");
			}
		},
		crash: {
			handler: () => {
				throw new Error("secret internals at /srv/app/db.ts:42 password=hunter2");
			}
		}
	}
};

/** Test-only routes onto the probe. */
export const probeRoutes: RouteDef[] = [
	{
		operationId: "probeEcho",
		method: "POST",
		path: "/api/probe/echo/{item_id}",
		summary: "echo",
		tags: ["Test"],
		action: "probe.echo",
		params: [{ name: "item_id", in: "path", required: true, description: "id", schema: { type: "string", pattern: "^[a-z0-9]{3,12}$" } }],
		body: {
			kind: "json",
			required: true,
			schema: {
				type: "object",
				additionalProperties: false,
				required: ["url"],
				properties: { url: { type: "string", format: "uri" }, count: { type: "integer", minimum: 1 } }
			}
		},
		responses: { "200": { description: "echo" } },
		documented: false
	},
	{
		operationId: "probeLimited",
		method: "GET",
		path: "/api/probe/limited",
		summary: "limited",
		tags: ["Test"],
		action: "probe.echo",
		rateLimit: "demo-api",
		responses: { "200": { description: "echo" } },
		documented: false
	},
	{
		operationId: "probeFail",
		method: "GET",
		path: "/api/probe/fail/{code}",
		summary: "fail",
		tags: ["Test"],
		action: "probe.fail",
		responses: {},
		documented: false
	},
	{
		operationId: "probeCrash",
		method: "GET",
		path: "/api/probe/crash",
		summary: "crash",
		tags: ["Test"],
		action: "probe.crash",
		responses: {},
		documented: false
	}
];
