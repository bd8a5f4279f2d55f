/**
 * CORS for the routes marked `cors` (the chat API and the widget beacon): the widget calls them
 * from whatever site embeds it. Public and credential-free, so any origin may call them; the
 * rate-limit headers are exposed so a page script can read them. moleculer-web applies this to
 * every response of those routes (errors and 429s included) and answers their OPTIONS preflights.
 */
import { RATE_LIMIT_HEADERS } from "../../lib/http/rate-policies";

export const PUBLIC_CORS = {
	origin: "*",
	methods: ["GET", "POST", "OPTIONS"],
	allowedHeaders: ["Content-Type", "Accept"],
	exposedHeaders: ["API-Version", ...RATE_LIMIT_HEADERS],
	credentials: false,
	// Browsers cap this (Chromium at 2 hours); it saves a preflight per message.
	maxAge: 7200
} as const;

/** How the gateway answers an OPTIONS request for a path. */
export type OptionsAnswer =
	/** A preflight for a `cors` route: moleculer-web answers it with the CORS headers above. */
	| { kind: "preflight" }
	/** Anything else on a served path: 204 with `Allow`, no CORS headers, nothing run. */
	| { kind: "allow"; allow: string }
	/** Nothing lives at the path. */
	| { kind: "not_found" };

/**
 * Decides OPTIONS requests before moleculer-web sees them: it resolves an OPTIONS request as the
 * method the preflight announces and, on a route without CORS settings, would run that route's
 * action. Only `cors` routes may answer a cross-origin preflight; every other OPTIONS runs nothing.
 */
export function optionsAnswerer(routes: ReadonlyArray<{ method: string; path: string; cors?: boolean }>): (path: string, preflight: boolean) => OptionsAnswer {
	const compiled = routes.map(route => ({
		pattern: new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}/?$`),
		method: route.method,
		cors: route.cors === true
	}));
	return (path, preflight) => {
		const matching = compiled.filter(route => route.pattern.test(path));
		if (matching.length === 0) return { kind: "not_found" };
		if (preflight && matching.some(route => route.cors)) return { kind: "preflight" };
		const methods = new Set(matching.map(route => route.method));
		if (methods.has("GET")) methods.add("HEAD");
		return { kind: "allow", allow: [...methods, "OPTIONS"].join(", ") };
	};
}
