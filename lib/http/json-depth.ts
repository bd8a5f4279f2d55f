/**
 * How deeply a parsed JSON value nests, measured without recursion.
 *
 * JSON.parse builds a value nested thousands of levels deep without complaint, but most code that
 * touches it afterwards recurses (structuredClone, JSON.stringify when a message crosses the bus,
 * schema validators): at about 5,000 levels those throw RangeError, which would surface as a 500.
 * No request of this API needs more than a few levels, so bodies are refused past a fixed bound.
 */

/** Deepest nesting any request body or JSON-RPC `params` may have (the top-level value is level 1). */
export const MAX_JSON_DEPTH = 32;

/** True when `value` has containers nested more than `max` levels deep. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
	const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
	while (stack.length > 0) {
		const { value: current, depth } = stack.pop() as { value: unknown; depth: number };
		if (current === null || typeof current !== "object") continue;
		if (depth > max) return true;
		for (const child of Array.isArray(current) ? current : Object.values(current)) {
			if (child !== null && typeof child === "object") stack.push({ value: child, depth: depth + 1 });
		}
	}
	return false;
}
