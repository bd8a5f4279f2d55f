/**
 * The Billing page and its forms, and Stripe's webhook. All served, none listed in /api or the
 * OpenAPI document: the page and its forms are for people (a browser goes on to Stripe's pages),
 * and the webhook is not a callable endpoint (SPEC §6). The forms also answer programs posting JSON.
 */
import type { ParamDef, RouteDef } from "./types";
import { error, html, needsLogin, refused, seeOther } from "./responses";

const csrfToken = { type: "string", maxLength: 200, description: "HTML forms only: the CSRF token of the page." };
const stripeDown = error("`unavailable`: Stripe did not answer (browsers see the Billing page saying so).");

const checkoutParam: ParamDef = {
	name: "checkout",
	in: "query",
	required: false,
	description: "Where Stripe's Checkout sends the person back: `done` or `canceled`.",
	schema: { type: "string", maxLength: 20 }
};

const base = { tags: ["Billing"], documented: false };

export const billingRoutes: RouteDef[] = [
	{
		...base,
		operationId: "receiveStripeWebhook",
		method: "POST",
		path: "/webhooks/stripe",
		summary: "Stripe webhook",
		description:
			"Subscription lifecycle and checkout completion from Stripe, verified with the `Stripe-Signature` header over the raw body (300 s tolerance). " +
			"An event id seen before changes nothing; an older event never overwrites a newer subscription state; events for unknown customers and other event types are answered 200 and ignored.",
		handler: "stripeWebhook",
		body: { kind: "raw", contentTypes: ["application/json"], description: "The event exactly as Stripe sent it." },
		responses: {
			"200": { description: "Received: `{ok, event_id, outcome}`.", content: { "application/json": { type: "object" } } },
			"400": error("`invalid_signature`: a missing, wrong or stale signature; `invalid_json`. Nothing was written."),
			"404": error("`not_found`: billing is not configured on this service."),
			"409": error("`conflict`: another delivery of the same event is being processed; Stripe retries."),
			"413": error("`payload_too_large`: the body is over 256 KB.")
		}
	},
	{
		...base,
		operationId: "showBillingPage",
		method: "GET",
		path: "/account/billing",
		summary: "Billing page",
		action: "billing.page",
		params: [checkoutParam],
		responses: { "200": html("Plans, usage, the current period, Upgrade and Manage billing."), "303": seeOther("the log-in page when not logged in") }
	},
	{
		...base,
		operationId: "startCheckout",
		method: "POST",
		path: "/account/billing/checkout",
		summary: "Upgrade: open a Stripe Checkout Session",
		action: "billing.checkout",
		body: {
			kind: "form",
			schema: { type: "object", required: ["plan"], additionalProperties: false, properties: { plan: { type: "string", enum: ["pro", "business"] }, csrf_token: csrfToken } }
		},
		responses: {
			"200": { description: "JSON: `{ok, id, url}`: the Checkout page to send the person to.", content: { "application/json": { type: "object" } } },
			"303": seeOther("Stripe's Checkout page"),
			"400": error("`validation_failed`: no price is configured for the plan."),
			"401": needsLogin,
			"403": refused,
			"404": error("`not_found`: billing is not configured."),
			"409": error("`conflict`: a subscription already stands; change plans with Manage billing."),
			"503": stripeDown
		}
	},
	{
		...base,
		operationId: "openBillingPortal",
		method: "POST",
		path: "/account/billing/portal",
		summary: "Manage billing: open Stripe's customer portal",
		action: "billing.portal",
		body: { kind: "form", schema: { type: "object", additionalProperties: false, properties: { csrf_token: csrfToken } } },
		responses: {
			"200": { description: "JSON: `{ok, id, url}`.", content: { "application/json": { type: "object" } } },
			"303": seeOther("Stripe's customer portal"),
			"401": needsLogin,
			"403": refused,
			"404": error("`not_found`: billing is not configured."),
			"409": error("`conflict`: the account has not subscribed yet."),
			"503": stripeDown
		}
	},
	{
		...base,
		operationId: "chooseAnsweringChatbots",
		method: "POST",
		path: "/account/billing/chatbots",
		summary: "Choose which chatbots answer",
		description: "When the account holds more chatbots than its plan allows: the chosen ones answer, the others are paused (nothing is deleted).",
		action: "billing.chooseChatbots",
		body: {
			kind: "form",
			schema: {
				type: "object",
				additionalProperties: false,
				properties: {
					chatbot_ids: { anyOf: [{ type: "array", maxItems: 200, items: { type: "string", maxLength: 100 } }, { type: "string", maxLength: 100 }], description: "The chatbots to keep answering." },
					csrf_token: csrfToken
				}
			}
		},
		responses: {
			"200": { description: "JSON: the account's chatbots with `paused`.", content: { "application/json": { type: "object" } } },
			"303": seeOther("the Billing page"),
			"400": error("`validation_failed`: more chatbots chosen than the plan allows."),
			"401": needsLogin,
			"403": refused,
			"404": error("`not_found`: a chosen chatbot is not the account's.")
		}
	}
];
