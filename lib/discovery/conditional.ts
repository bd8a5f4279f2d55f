/**
 * A representation of a discovery document or page, and the conditional GET rule every one of them
 * follows (SPEC §4.3): a strong ETag of the exact body, and 304 with no body when `If-None-Match`
 * names it.
 *
 * Cache policy: `public, max-age=300`. The documents change only when the service is redeployed,
 * so caches may reuse them for five minutes and then revalidate with the ETag, which costs a 304.
 */
import { ifNoneMatchMatches, strongEtag } from "../http/etag";

export const DOCUMENT_CACHE_CONTROL = "public, max-age=300";

export interface Representation {
	body: string;
	/** Full Content-Type, charset included where the type has one. */
	contentType: string;
	/** Extra headers of both the 200 and the 304 (for example `Vary`). */
	headers?: Record<string, string>;
}

export interface Reply {
	status: 200 | 304 | 404;
	/** Absent on a 304. */
	body?: string;
	contentType?: string;
	headers: Record<string, string>;
}

/** The 200, or the 304 when the client already holds this exact representation. */
export function conditionalReply(rep: Representation, ifNoneMatch: string | undefined): Reply {
	const etag = strongEtag(rep.body);
	// A 304 repeats the validators and caching headers of the 200 it stands for (RFC 9110 §15.4.5).
	const headers = { ETag: etag, "Cache-Control": DOCUMENT_CACHE_CONTROL, ...(rep.headers ?? {}) };
	if (ifNoneMatchMatches(ifNoneMatch, etag)) return { status: 304, headers };
	return { status: 200, body: rep.body, contentType: rep.contentType, headers };
}

/** JSON documents are served pretty-printed: people read them with curl as often as programs do. */
export function jsonRepresentation(value: unknown): Representation {
	return { body: `${JSON.stringify(value, null, 2)}\n`, contentType: "application/json; charset=utf-8" };
}
