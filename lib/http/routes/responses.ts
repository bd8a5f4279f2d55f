/**
 * Response descriptions shared by the route table's files: the error body, HTML pages, the
 * redirect a browser form gets, and the refusals every logged-in form can answer.
 */
import { ref, type ResponseDef } from "./types";

/** A JSON body of the named component schema. */
export const json = (name: string) => ({ "application/json": ref(name) });
/** An error response (SPEC §7 body) with what it means here. */
export const error = (description: string, headers?: string[]): ResponseDef => ({ description, content: json("Error"), ...(headers ? { headers } : {}) });
/** An HTML page. */
export const html = (description: string): ResponseDef => ({ description, content: { "text/html": { type: "string" } } });
/** What a browser form gets on success. */
export const seeOther = (where: string): ResponseDef => ({ description: `HTML forms: 303 See Other to ${where}.`, headers: ["Location"] });
/** A form from another origin or without its CSRF token. */
export const refused = error("`forbidden`: an Origin other than this service's, or a form without a valid CSRF token.");
/** A logged-in page or form called without a session. */
export const needsLogin = error("`unauthorized`: no session cookie; log in with POST /account/login first (browsers are sent to the log-in page).");
