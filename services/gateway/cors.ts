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
