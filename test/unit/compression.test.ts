import { crc32, gunzipSync, inflateRawSync } from "node:zlib";
import { acceptsGzip, compressibleType } from "../../lib/http/compression";
import { GzipPrefix } from "../../lib/http/gzip-prefix";

describe("GzipPrefix: a constant prefix deflated once, a tail stored per body", () => {
	const prefix = Buffer.from(`{"result":${JSON.stringify({ tools: Array.from({ length: 40 }, (_, i) => ({ name: `tool_${i}`, description: "Adds a page as knowledge. ".repeat(8) })) })}`);
	const gzip = new GzipPrefix(prefix);

	it("makes one well-formed gzip member holding prefix + tail, far smaller than the text", () => {
		const tail = ',"jsonrpc":"2.0","id":"ñ-42"}';
		const body = Buffer.concat(gzip.body(tail) as Buffer[]);
		const whole = Buffer.concat([prefix, Buffer.from(tail)]);
		expect(gunzipSync(body).equals(whole)).toBe(true);
		expect(JSON.parse(gunzipSync(body).toString("utf8")).id).toBe("ñ-42");
		// One member: the header, one deflate stream that ends at its final block, and the trailer of the whole.
		expect([...body.subarray(0, 3)]).toEqual([0x1f, 0x8b, 0x08]);
		expect(inflateRawSync(body.subarray(10, body.length - 8)).equals(whole)).toBe(true);
		expect(body.readUInt32LE(body.length - 8)).toBe(crc32(whole));
		expect(body.readUInt32LE(body.length - 4)).toBe(whole.length);
		expect(body.length).toBeLessThan(whole.length / 4);
	});

	it("serves any number of tails from the same prefix, an empty one included", () => {
		for (const tail of ["", "}", ',"id":1}', ',"id":2}']) {
			expect(gunzipSync(Buffer.concat(gzip.body(tail) as Buffer[])).toString("utf8")).toBe(prefix.toString("utf8") + tail);
		}
	});

	it("declines a tail too long for one stored block", () => {
		expect(gzip.body("x".repeat(65_535))).toBeDefined();
		expect(gzip.body("x".repeat(65_536))).toBeUndefined();
	});
});

describe("acceptsGzip", () => {
	it.each([
		["gzip, deflate", true],
		["br, gzip, deflate", true],
		["GZIP", true],
		["x-gzip", true],
		["deflate, gzip;q=0.5", true],
		["*", true],
		["identity", false],
		["deflate, br", false],
		["gzip;q=0", false],
		["gzip; q=0.000", false],
		["*;q=0", false],
		["gzip;q=0, *", false],
		["*, gzip;q=0", false],
		["gzip;q=abc", false],
		["", false]
	])("%j → %s", (header, expected) => {
		expect(acceptsGzip(header)).toBe(expected);
	});

	it("is false without the header", () => {
		expect(acceptsGzip(undefined)).toBe(false);
	});
});

describe("compressibleType", () => {
	it.each([
		["text/javascript; charset=utf-8", true],
		["application/json", true],
		["application/problem+json", true],
		["application/yaml", true],
		["image/svg+xml", true],
		["text/html; charset=utf-8", true],
		["image/png", false],
		["application/pdf", false],
		["application/zip", false],
		[undefined, false]
	])("%s → %s", (type, expected) => {
		expect(compressibleType(type)).toBe(expected);
	});
});
