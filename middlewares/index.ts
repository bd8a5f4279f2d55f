/**
 * The action-property middlewares (see http-context.ts for the properties), in the order Moleculer
 * needs them. Moleculer wraps a handler with each listed middleware in turn, so the last listed runs
 * first: `reply` outermost (it decides JSON or page and renders every refusal below it), then `auth`
 * (the viewer), then `csrf` (which checks the form against the viewer's session), then the handler.
 * Params are validated before all of them (Moleculer's own validator wraps outside user middlewares).
 * `owns` (the chatbot in `params.id` belongs to the viewer's account) runs last, just before the
 * handler: after `csrf`, so a forged form costs no lookup, and after `auth`, whose viewer it needs.
 */
import type { Middleware } from "moleculer";
import { resolveSigningSecret } from "../lib/storage/signing-secret";
import { csrfMiddleware } from "./csrf.middleware";
import { httpReplyMiddleware } from "./http-reply.middleware";
import { ownsMiddleware } from "./owns.middleware";
import { sessionMiddleware } from "./session.middleware";

export interface ActionPropertyOptions {
	publicUrl: string;
	/** SIGNING_SECRET, or undefined to use the one kept under `dataDir`. */
	signingSecret: string | undefined;
	dataDir: string;
}

export function actionPropertyMiddlewares(options: ActionPropertyOptions): Middleware[] {
	let secret: string | undefined;
	// Read on first use, so a node that never serves a form never touches DATA_DIR for it.
	const signingSecret = () => (secret ??= resolveSigningSecret(options.signingSecret, options.dataDir));
	return [ownsMiddleware(), csrfMiddleware(options.publicUrl, signingSecret), sessionMiddleware(signingSecret), httpReplyMiddleware(options.publicUrl)];
}
