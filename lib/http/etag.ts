/**
 * Entity tags for the discovery documents and Markdown sources (SPEC §4.3, RFC 9110 §8.8.3).
 *
 * The tag is derived from the body itself, so every replica of the gateway computes the same tag for
 * the same bytes without sharing state, and a document that changes gets a new tag by construction.
 */
import { createHash } from "node:crypto";

/** A strong ETag, `"<base64url of sha256(body)>"`. Strings are hashed as their UTF-8 bytes. */
export function strongEtag(body: string | Uint8Array): string {
	const digest = createHash("sha256").update(body).digest("base64url");
	return `"${digest}"`;
}

/** What the gzip-coded variant's tag adds inside the quotes: another coding is another representation (RFC 9110 §8.8.3). */
const GZIP_SUFFIX = '-gzip"';

/** The tag of the gzip-coded variant of the representation tagged `etag`. */
export function gzipEtag(etag: string): string {
	return `${etag.slice(0, -1)}${GZIP_SUFFIX}`;
}

/**
 * The opaque part of an entity tag (quotes included), with any weak prefix removed, and the gzip
 * variant's suffix: a client holding either coding of a representation holds a current copy.
 */
function opaqueTag(tag: string): string {
	const strong = withoutWeakPrefix(tag);
	return strong.endsWith(GZIP_SUFFIX) ? `${strong.slice(0, -GZIP_SUFFIX.length)}"` : strong;
}

function withoutWeakPrefix(tag: string): string {
	return tag.startsWith("W/") ? tag.slice(2) : tag;
}

/**
 * The entity tags of an `If-None-Match` value, or `"*"` alone. Opaque tags may contain commas
 * (RFC 9110 `etagc` allows them), so the value is scanned quote by quote rather than split on commas.
 * Unquoted junk between tags is skipped, as a lenient recipient should.
 */
export function parseEntityTagList(headerValue: string): string[] {
	const value = headerValue.trim();
	if (value === "*") return ["*"];
	const tags: string[] = [];
	let i = 0;
	while (i < value.length) {
		const weak = value.startsWith("W/", i);
		const quoteAt = weak ? i + 2 : i;
		if (value[quoteAt] === '"') {
			const close = value.indexOf('"', quoteAt + 1);
			if (close === -1) break;
			tags.push(value.slice(i, close + 1));
			i = close + 1;
		} else {
			i += 1;
		}
	}
	return tags;
}

/** Whether `If-None-Match` names exactly `tag` (weak or strong, its coding suffix included). */
export function ifNoneMatchNames(headerValue: string | undefined, tag: string): boolean {
	if (headerValue === undefined) return false;
	return parseEntityTagList(headerValue).some(listed => withoutWeakPrefix(listed) === tag);
}

/**
 * Whether `If-None-Match` matches our current `etag`, so a GET or HEAD should answer 304.
 * If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/"x"` matches `"x"` and vice versa.
 * `*` matches whenever a current representation exists, which is always the case when we have a tag.
 */
export function ifNoneMatchMatches(headerValue: string | undefined, etag: string): boolean {
	if (headerValue === undefined) return false;
	const ours = opaqueTag(etag.trim());
	for (const tag of parseEntityTagList(headerValue)) {
		if (tag === "*" || opaqueTag(tag) === ours) return true;
	}
	return false;
}
