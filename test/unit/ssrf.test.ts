import { fetchFailureReason } from "../../lib/failures";
import {
	assertFetchableUrl,
	isAddressAllowed,
	isMetadataAddress,
	isPublicAddress,
	LookupFn,
	resolveAndCheck
} from "../../lib/crawl/ssrf";

const PUBLIC = [
	"8.8.8.8",
	"1.1.1.1",
	"93.184.216.34",
	"2606:4700:4700::1111",
	"2001:4860:4860::8888",
	"[2001:4860:4860::8888]",
	"::ffff:8.8.8.8", // IPv4-mapped public
	"64:ff9b::808:808", // NAT64 well-known prefix carrying 8.8.8.8
	"2002:808:808::1" // 6to4 carrying 8.8.8.8
];

const NOT_PUBLIC: Array<[string, string]> = [
	["10.0.0.1", "private 10/8"],
	["172.16.0.1", "private 172.16/12"],
	["172.31.255.255", "private 172.16/12 top"],
	["192.168.1.1", "private 192.168/16"],
	["100.64.0.1", "CGNAT"],
	["127.0.0.1", "loopback"],
	["127.255.255.254", "loopback top"],
	["169.254.1.1", "link-local"],
	["169.254.169.254", "metadata"],
	["100.100.100.200", "Alibaba metadata"],
	["224.0.0.1", "multicast"],
	["239.255.255.250", "multicast SSDP"],
	["255.255.255.255", "broadcast"],
	["0.0.0.0", "unspecified"],
	["0.1.2.3", "this network"],
	["192.0.2.1", "TEST-NET-1"],
	["198.51.100.7", "TEST-NET-2"],
	["203.0.113.9", "TEST-NET-3"],
	["198.18.0.1", "benchmarking"],
	["240.0.0.1", "reserved class E"],
	["::1", "IPv6 loopback"],
	["[::1]", "IPv6 loopback in brackets"],
	["::", "IPv6 unspecified"],
	["fe80::1", "IPv6 link-local"],
	["fe80::1%eth0", "IPv6 link-local with zone"],
	["fc00::1", "unique local fc00::/7"],
	["fd12:3456::1", "unique local fd"],
	["fd00:ec2::254", "AWS metadata over IPv6"],
	["ff02::1", "IPv6 multicast"],
	["::ffff:127.0.0.1", "IPv4-mapped loopback"],
	["::ffff:7f00:1", "IPv4-mapped loopback, hex spelling"],
	["::ffff:10.0.0.1", "IPv4-mapped private"],
	["::ffff:169.254.169.254", "IPv4-mapped metadata"],
	["::ffff:0:127.0.0.1", "IPv4-translated loopback"],
	["64:ff9b::7f00:1", "NAT64 carrying loopback"],
	["64:ff9b::a00:1", "NAT64 carrying 10.0.0.1"],
	["64:ff9b:1::808:808", "local-use NAT64 prefix"],
	["2002:7f00:1::1", "6to4 carrying loopback"],
	["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
	["2001:db8::1", "documentation"],
	["100::1", "discard prefix"],
	["::127.0.0.1", "deprecated IPv4-compatible"],
	["4000::1", "outside global unicast 2000::/3"],
	["not-an-ip", "not an address"],
	["", "empty"]
];

describe("isPublicAddress", () => {
	it.each(PUBLIC)("%s is public", ip => {
		expect(isPublicAddress(ip)).toBe(true);
	});

	it.each(NOT_PUBLIC)("%s is not public (%s)", ip => {
		expect(isPublicAddress(ip)).toBe(false);
	});
});

describe("isMetadataAddress", () => {
	it.each(["169.254.169.254", "::ffff:169.254.169.254", "::ffff:a9fe:a9fe", "fd00:ec2::254", "fd00:ec2:0:0:0:0:0:254", "100.100.100.200"])(
		"%s is a metadata endpoint",
		ip => expect(isMetadataAddress(ip)).toBe(true)
	);

	it("ordinary link-local and private addresses are not metadata endpoints", () => {
		expect(isMetadataAddress("169.254.1.1")).toBe(false);
		expect(isMetadataAddress("10.0.0.1")).toBe(false);
	});
});

describe("isAddressAllowed", () => {
	it("allowPrivate lifts the public rule for loopback and private addresses", () => {
		expect(isAddressAllowed("127.0.0.1", { allowPrivate: false })).toBe(false);
		expect(isAddressAllowed("127.0.0.1", { allowPrivate: true })).toBe(true);
		expect(isAddressAllowed("::1", { allowPrivate: true })).toBe(true);
		expect(isAddressAllowed("10.1.2.3", { allowPrivate: true })).toBe(true);
	});

	it("metadata endpoints stay refused even with allowPrivate", () => {
		expect(isAddressAllowed("169.254.169.254", { allowPrivate: true })).toBe(false);
		expect(isAddressAllowed("::ffff:169.254.169.254", { allowPrivate: true })).toBe(false);
		expect(isAddressAllowed("fd00:ec2::254", { allowPrivate: true })).toBe(false);
	});

	it("an injected policy replaces the public rule but not the metadata rule", () => {
		const policy = { allowPrivate: false, isAllowedAddress: (ip: string) => ip === "127.0.0.2" || ip === "169.254.169.254" };
		expect(isAddressAllowed("127.0.0.2", policy)).toBe(true);
		expect(isAddressAllowed("127.0.0.1", policy)).toBe(false);
		expect(isAddressAllowed("169.254.169.254", policy)).toBe(false);
	});
});

function reasonOf(fn: () => unknown): { reason: string | undefined; type: string | undefined } {
	try {
		fn();
	} catch (err) {
		return { reason: fetchFailureReason(err), type: (err as { type?: string }).type };
	}
	throw new Error("expected a failure");
}

describe("assertFetchableUrl", () => {
	const strict = { allowPrivate: false };

	it("returns the parsed URL of an ordinary http(s) URL", () => {
		expect(assertFetchableUrl("https://example.com/a?b=1", strict).href).toBe("https://example.com/a?b=1");
		expect(assertFetchableUrl("http://example.com:8080/", strict).port).toBe("8080");
	});

	it.each([
		["not a url", "invalid_url", "validation_failed"],
		["ftp://example.com/file", "invalid_url", "validation_failed"],
		["file:///etc/passwd", "invalid_url", "validation_failed"],
		["javascript:alert(1)", "invalid_url", "validation_failed"],
		["http://user:secret@example.com/", "invalid_url", "validation_failed"],
		[`https://example.com/${"a".repeat(3000)}`, "invalid_url", "validation_failed"],
		["http://example.com:22/", "blocked_address", "forbidden"],
		["http://example.com:25/", "blocked_address", "forbidden"],
		["http://127.0.0.1/", "blocked_address", "forbidden"],
		["http://[::1]:8080/", "blocked_address", "forbidden"],
		["http://[::ffff:127.0.0.1]/", "blocked_address", "forbidden"],
		["http://169.254.169.254/latest/meta-data/", "blocked_address", "forbidden"],
		// The URL parser turns these spellings into 127.0.0.1 before the check sees them.
		["http://2130706433/", "blocked_address", "forbidden"],
		["http://0x7f.1/", "blocked_address", "forbidden"],
		["http://0177.0.0.1/", "blocked_address", "forbidden"]
	])("refuses %s (%s)", (url, reason, type) => {
		expect(reasonOf(() => assertFetchableUrl(url, strict))).toEqual({ reason, type });
	});

	it("allows literal private addresses when allowPrivate is set, but never metadata", () => {
		expect(assertFetchableUrl("http://127.0.0.1:3000/", { allowPrivate: true }).hostname).toBe("127.0.0.1");
		expect(reasonOf(() => assertFetchableUrl("http://169.254.169.254/", { allowPrivate: true })).reason).toBe("blocked_address");
	});
});

describe("resolveAndCheck", () => {
	const answers: Record<string, Array<{ address: string; family: 4 | 6 }>> = {
		"public.example": [{ address: "93.184.216.34", family: 4 }],
		"loopback.example": [{ address: "127.0.0.1", family: 4 }],
		"mixed.example": [
			{ address: "93.184.216.34", family: 4 },
			{ address: "10.0.0.7", family: 4 }
		],
		"v6only.example": [{ address: "::1", family: 6 }]
	};
	const lookup: LookupFn = async hostname => {
		const found = answers[hostname];
		if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
		return found;
	};

	it("returns every address of a public name", async () => {
		await expect(resolveAndCheck("public.example", { allowPrivate: false, lookup })).resolves.toEqual(answers["public.example"]);
	});

	it("refuses a name that resolves to 127.0.0.1", async () => {
		const err = await resolveAndCheck("loopback.example", { allowPrivate: false, lookup }).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
		expect(err.type).toBe("forbidden");
		// The client-facing message does not disclose the internal address.
		expect(err.message).not.toContain("127.0.0.1");
	});

	it("allowPrivate lifts the refusal", async () => {
		await expect(resolveAndCheck("loopback.example", { allowPrivate: true, lookup })).resolves.toEqual([{ address: "127.0.0.1", family: 4 }]);
	});

	it("refuses when any one of several addresses is not public", async () => {
		const err = await resolveAndCheck("mixed.example", { allowPrivate: false, lookup }).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
	});

	it("refuses IPv6 loopback answers", async () => {
		const err = await resolveAndCheck("v6only.example", { allowPrivate: false, lookup }).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
	});

	it("reports an unresolvable name as a network failure", async () => {
		const err = await resolveAndCheck("nowhere.example", { allowPrivate: false, lookup }).catch(e => e);
		expect(fetchFailureReason(err)).toBe("network");
	});

	it("checks literal addresses without asking DNS", async () => {
		const spy = jest.fn(lookup);
		await expect(resolveAndCheck("[::1]", { allowPrivate: false, lookup: spy })).rejects.toMatchObject({ data: { reason: "blocked_address" } });
		await expect(resolveAndCheck("8.8.8.8", { allowPrivate: false, lookup: spy })).resolves.toEqual([{ address: "8.8.8.8", family: 4 }]);
		expect(spy).not.toHaveBeenCalled();
	});
});
