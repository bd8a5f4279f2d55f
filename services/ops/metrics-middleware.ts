/**
 * Counts and times every action this process runs, by action and outcome (`ok`, or the error's
 * type: `unavailable`, `timeout`, a client error code...), into the process's metrics registry.
 */
import type { Context, Middleware } from "moleculer";
import { DURATION_BUCKETS, processMetrics } from "../../lib/ops/metrics";

const calls = processMetrics.counter("moleculer_action_calls_total", "Actions run by this process, by action and outcome.");
const durations = processMetrics.histogram("moleculer_action_duration_seconds", "Time to run an action in this process.", DURATION_BUCKETS);

function outcome(err: unknown): string {
	const typed = err as { type?: unknown; name?: unknown };
	if (typeof typed?.type === "string" && typed.type !== "") return typed.type.toLowerCase();
	return typeof typed?.name === "string" ? typed.name : "error";
}

export function actionMetricsMiddleware(): Middleware {
	return {
		name: "ActionMetrics",
		localAction(next: (ctx: Context) => Promise<unknown>, action: { name: string }) {
			return async (ctx: Context) => {
				const started = process.hrtime.bigint();
				const finish = (result: string) => {
					calls.inc({ action: action.name, outcome: result });
					durations.observe(Number(process.hrtime.bigint() - started) / 1e9, { action: action.name });
				};
				try {
					const value = await next(ctx);
					finish("ok");
					return value;
				} catch (err) {
					finish(outcome(err));
					throw err;
				}
			};
		}
	} as Middleware;
}
