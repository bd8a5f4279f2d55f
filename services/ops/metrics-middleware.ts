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
			// The series every call of this action records into, found once rather than per call.
			const succeeded = calls.labelled({ action: action.name, outcome: "ok" });
			const timed = durations.labelled({ action: action.name });
			return async (ctx: Context) => {
				const started = performance.now();
				try {
					const value = await next(ctx);
					succeeded.inc();
					return value;
				} catch (err) {
					calls.inc({ action: action.name, outcome: outcome(err) });
					throw err;
				} finally {
					timed.observe((performance.now() - started) / 1000);
				}
			};
		}
	} as Middleware;
}
