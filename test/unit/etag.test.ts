/** Strong ETags and If-None-Match matching (RFC 9110 §8.8.3, §13.1.2). */
import { createHash } from "node:crypto";
import { gzipEtag, ifNoneMatchMatches, ifNoneMatchNames, parseEntityTagList, strongEtag } from "../../lib/http/etag";

describe("strongEtag", () => {
	test("is the quoted base64url SHA-256 of the body's bytes", () => {
		const body = "# Errors\n\nÉvery code — with UTF-8.\n";
		const tag = strongEtag(body);
		expect(tag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
		expect(tag).toBe(`"${createHash("sha256").update(Buffer.from(body, "utf8")).digest("base64url")}"`);
		expect(strongEtag(Buffer.from(body, "utf8"))).toBe(tag);
	});

	test("is stable for equal bodies and differs for different ones", () => {
		expect(strongEtag("a")).toBe(strongEtag("a"));
		expect(strongEtag("a")).not.toBe(strongEtag("b"));
		expect(strongEtag("")).toBe('"47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"');
	});
});

describe("ifNoneMatchMatches", () => {
	const etag = strongEtag("document");
	const opaque = etag.slice(1, -1);

	test("no header never matches", () => {
		expect(ifNoneMatchMatches(undefined, etag)).toBe(false);
		expect(ifNoneMatchMatches("", etag)).toBe(false);
	});

	test("the same tag matches, strong or weak on either side (weak comparison)", () => {
		expect(ifNoneMatchMatches(etag, etag)).toBe(true);
		expect(ifNoneMatchMatches(`W/${etag}`, etag)).toBe(true);
		expect(ifNoneMatchMatches(etag, `W/${etag}`)).toBe(true);
		expect(ifNoneMatchMatches(`  ${etag}  `, etag)).toBe(true);
	});

	test("a list matches when any member does", () => {
		expect(ifNoneMatchMatches(`"old", W/"older", ${etag}`, etag)).toBe(true);
		expect(ifNoneMatchMatches(`"old",${etag}`, etag)).toBe(true);
		expect(ifNoneMatchMatches(`"old", W/"older"`, etag)).toBe(false);
	});

	test("* matches any current representation", () => {
		expect(ifNoneMatchMatches("*", etag)).toBe(true);
		expect(ifNoneMatchMatches(" * ", etag)).toBe(true);
	});

	test("tags are compared exactly: unquoted, partial or case-changed values do not match", () => {
		expect(ifNoneMatchMatches(opaque, etag)).toBe(false);
		expect(ifNoneMatchMatches(`"${opaque.slice(1)}"`, etag)).toBe(false);
		expect(ifNoneMatchMatches(`"${opaque.toUpperCase()}"`, etag)).toBe(opaque === opaque.toUpperCase());
		expect(ifNoneMatchMatches(`"${opaque}`, etag)).toBe(false);
	});

	test("an opaque tag may contain commas; the list is split on quotes, not commas", () => {
		expect(parseEntityTagList('"a,b", W/"c", "d"')).toEqual(['"a,b"', 'W/"c"', '"d"']);
		expect(ifNoneMatchMatches('"x", "a,b"', '"a,b"')).toBe(true);
		expect(ifNoneMatchMatches('"a"', '"a,b"')).toBe(false);
	});
});

describe("the gzip variant's tag", () => {
	const etag = strongEtag("document");
	const gzipTag = gzipEtag(etag);

	it("is another strong tag, and revalidates the same document", () => {
		expect(gzipTag).toBe(`${etag.slice(0, -1)}-gzip"`);
		expect(ifNoneMatchMatches(gzipTag, etag)).toBe(true);
		expect(ifNoneMatchMatches(`W/${gzipTag}`, etag)).toBe(true);
		expect(ifNoneMatchMatches(gzipEtag(strongEtag("other")), etag)).toBe(false);
	});

	it("is told apart by ifNoneMatchNames, which compares whole tags", () => {
		expect(ifNoneMatchNames(`"x", ${gzipTag}`, gzipTag)).toBe(true);
		expect(ifNoneMatchNames(etag, gzipTag)).toBe(false);
		expect(ifNoneMatchNames(gzipTag, etag)).toBe(false);
		expect(ifNoneMatchNames(undefined, etag)).toBe(false);
	});
});
