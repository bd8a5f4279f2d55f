import type { Context } from "moleculer";

/** `ctx.call` with the result type named once (Moleculer's overloads want the params type too). */
export function call<T>(ctx: Context<unknown, Record<string, unknown>>, action: string, params: object = {}, opts?: { timeout?: number }): Promise<T> {
	return ctx.call(action, params, opts) as Promise<T>;
}
