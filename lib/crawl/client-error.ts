/**
 * What a client of the demo API (and the tool server) is told when a page cannot be added.
 *
 * SPEC §4.1 lists 404, 422, 429 and 503 for addDemoSessionUrl, and §7.2 defines `empty` as "a URL
 * returned no body". So every reason a page gives nothing to train on is 422 `empty`, including an
 * address the SSRF guard refuses and a page robots.txt disallows (the library's own codes for
 * those are 403 `forbidden`); the message says which, and `errors.detail` carries the precise
 * cause. Only a URL that is not an http(s) URL at all is the caller's syntax mistake (400). The
 * typed reason stays on `data.reason` for callers that branch on it.
 */
import type { Errors } from "moleculer";
import { appError } from "../errors";
import { FetchFailure, FetchFailureData, fetchFailureReason } from "./fetch-failure";

const MESSAGES: Partial<Record<FetchFailure, string>> = {
	blocked_address: "The URL resolves to a non-public address (private, loopback, link-local or cloud metadata), so it is not fetched.",
	robots_disallowed: "The site's robots.txt does not allow this page to be fetched.",
	empty: "The page has no readable text."
};

/** The client error for a failed page fetch, or undefined when `err` is not a fetch failure. */
export function pageFetchClientError(err: unknown): Errors.MoleculerError | undefined {
	const reason = fetchFailureReason(err);
	if (reason === undefined) return undefined;
	const cause = (err as Error).message;
	if (reason === "invalid_url") {
		const invalid: FetchFailureData = { reason, detail: `'url': ${cause}`, fields: [{ field: "url", message: cause }] };
		return appError("validation_failed", "The URL cannot be fetched.", invalid);
	}
	const data: FetchFailureData = {
		reason,
		detail: cause,
		hint: reason === "blocked_address" ? "Send the URL of a page on the public internet." : "Add a different page, a file or a text instead."
	};
	return appError("empty", MESSAGES[reason] ?? `The page gave nothing to train on: ${lowerFirst(cause)}`, data);
}

function lowerFirst(text: string): string {
	return text.charAt(0).toLowerCase() + text.slice(1);
}
