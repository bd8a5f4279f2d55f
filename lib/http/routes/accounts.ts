/**
 * Account pages and their JSON forms, and the claim link of sandbox chatbots.
 *
 * Each POST serves both a browser form (`application/x-www-form-urlencoded` with a `csrf_token`,
 * answered with a redirect or a page) and a program (`application/json`, answered with JSON). The
 * GET pages are HTML only and not listed.
 */
import { API_KEY_PREFIX } from "../../accounts/api-keys";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../../accounts/password";
import type { ParamDef, RouteDef } from "./types";
import { error, html, json, needsLogin, refused, seeOther } from "./responses";


const next: ParamDef = {
	name: "next",
	in: "query",
	required: false,
	description: "Local path to continue to after logging in (default `/account`).",
	schema: { type: "string", maxLength: 300 }
};
const claimToken: ParamDef = {
	name: "token",
	in: "path",
	required: true,
	description: "The token of the claim link returned by create_chatbot (`claim_url`).",
	schema: { type: "string", minLength: 1, maxLength: 200 }
};
const keyId: ParamDef = { name: "id", in: "path", required: true, description: "The key's `id`.", schema: { type: "string", minLength: 1, maxLength: 100 } };

const csrfToken = { type: "string", maxLength: 200, description: "HTML forms only: the CSRF token of the page. Not needed with a JSON body." };

const credentials = (purpose: string) => ({
	kind: "form" as const,
	description: `${purpose} A JSON body answers JSON; a form answers with a redirect to \`next\`.`,
	schema: {
		type: "object",
		required: ["email", "password"],
		additionalProperties: false,
		properties: {
			email: { type: "string", maxLength: 1000, description: "Email address (case-insensitive).", examples: ["ann@example.com"] },
			password: { type: "string", maxLength: 1000, description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters.` },
			csrf_token: csrfToken,
			next: { type: "string", maxLength: 300, description: "HTML forms: local path to continue to." }
		}
	}
});

const onlyCsrf = { kind: "form" as const, schema: { type: "object", additionalProperties: false, properties: { csrf_token: csrfToken } } };


const base = { tags: ["Accounts"] };

export const accountRoutes: RouteDef[] = [
	{
		...base,
		operationId: "showSignupPage",
		method: "GET",
		path: "/account/signup",
		summary: "Sign-up page",
		action: "accounts.signupPage",
		params: [next],
		responses: { "200": html("The sign-up form.") },
		documented: false
	},
	{
		...base,
		operationId: "signUp",
		rateLimit: "accounts",
		method: "POST",
		path: "/account/signup",
		summary: "Create an account",
		description: "Creates an account on the Free plan and logs it in: the response sets the `cb_session` cookie (HttpOnly, SameSite=Lax, Secure over https).",
		action: "accounts.signup",
		body: credentials("Email and password."),
		responses: {
			"201": { description: "The account; the session cookie is set.", content: json("AccountResponse"), headers: ["Set-Cookie", "Location"] },
			"303": seeOther("`next`"),
			"400": error("`validation_failed`: the email address or the password does not pass the rules (`errors.fields`)."),
			"403": refused,
			"409": error("`conflict`: an account with this email address exists.")
		},
		documented: true
	},
	{
		...base,
		operationId: "showLoginPage",
		method: "GET",
		path: "/account/login",
		summary: "Log-in page",
		action: "accounts.loginPage",
		params: [next],
		responses: { "200": html("The log-in form.") },
		documented: false
	},
	{
		...base,
		operationId: "logIn",
		rateLimit: "accounts",
		method: "POST",
		path: "/account/login",
		summary: "Log in",
		description: "Checks the email and password and sets the `cb_session` cookie (valid 14 days).",
		action: "accounts.login",
		body: credentials("Email and password."),
		responses: {
			"200": { description: "The account; the session cookie is set.", content: json("AccountResponse"), headers: ["Set-Cookie"] },
			"303": seeOther("`next`"),
			"401": error("`unauthorized`: the email address or the password is wrong."),
			"403": refused
		},
		documented: true
	},
	{
		...base,
		operationId: "logOut",
		method: "POST",
		path: "/account/logout",
		summary: "Log out",
		description: "Ends the session and clears the cookie.",
		action: "accounts.logout",
		body: onlyCsrf,
		responses: { "200": { description: "Logged out.", content: json("OkResponse"), headers: ["Set-Cookie"] }, "303": seeOther("the home page"), "403": refused },
		documented: true
	},
	{
		...base,
		operationId: "showAccountPage",
		method: "GET",
		path: "/account",
		summary: "Account settings page",
		action: "accounts.settings",
		responses: { "200": html("Chatbots and API keys."), "303": seeOther("the log-in page when not logged in") },
		documented: false
	},
	{
		...base,
		operationId: "createApiKey",
		method: "POST",
		path: "/account/api-keys",
		summary: "Create an API key",
		description: `Creates a key for \`Authorization: Bearer\` on POST /mcp. The key starts with \`${API_KEY_PREFIX}\` and is shown only in this response: only its SHA-256 hash is stored. Needs the session cookie.`,
		action: "accounts.createApiKey",
		body: {
			kind: "form",
			schema: {
				type: "object",
				additionalProperties: false,
				properties: { name: { type: "string", maxLength: 60, description: "Optional label, e.g. the agent that uses it." }, csrf_token: csrfToken }
			}
		},
		responses: {
			"201": { description: "The key, shown once.", content: json("ApiKeyCreated"), headers: ["Location"] },
			"200": html("HTML forms: the settings page showing the new key once."),
			"401": needsLogin,
			"403": refused,
			"409": error("`conflict`: the account already has 20 active keys.")
		},
		documented: true
	},
	{
		...base,
		operationId: "revokeApiKey",
		method: "POST",
		path: "/account/api-keys/{id}/revoke",
		summary: "Revoke an API key",
		description: "The key stops working at once. Needs the session cookie.",
		action: "accounts.revokeApiKey",
		params: [keyId],
		body: onlyCsrf,
		responses: {
			"200": { description: "The revoked key.", content: json("ApiKeyRevoked") },
			"303": seeOther("the settings page"),
			"401": needsLogin,
			"403": refused,
			"404": error("`not_found`: the account has no active key with this id.")
		},
		documented: true
	},
	{
		...base,
		operationId: "showClaimPage",
		method: "GET",
		path: "/claim/{token}",
		summary: "Claim page of a sandbox chatbot",
		action: "accounts.claimPage",
		params: [claimToken],
		responses: { "200": html("The chatbot and a button to keep it."), "404": html("The link was used or the sandbox is gone.") },
		documented: false
	},
	{
		...base,
		operationId: "claimChatbot",
		rateLimit: "accounts",
		method: "POST",
		path: "/claim/{token}",
		summary: "Keep a sandbox chatbot",
		description:
			"Moves the sandbox chatbot of this claim link into the logged-in account: it is no longer deleted after 8 days, takes the plan's limits and shows in list_chatbots. Works once. Needs the session cookie.",
		action: "accounts.claim",
		params: [claimToken],
		body: onlyCsrf,
		responses: {
			"200": { description: "The chatbot now in the account (HTML forms get a page).", content: { ...json("ClaimResult"), "text/html": { type: "string" } } },
			"303": seeOther("the log-in page when not logged in"),
			"401": needsLogin,
			"403": error("`forbidden`: a foreign Origin, a missing CSRF token, or the plan's chatbot limit is reached."),
			"404": error("`not_found`: the link was already used, or the sandbox was deleted.")
		},
		documented: true
	}
];
