/**
 * SSRF guard: which URLs and addresses the crawler may reach.
 *
 * The rule is an allow-list: an address is public only when ipaddr.js classifies it as ordinary
 * `unicast` (IPv4) or as global unicast inside 2000::/3 (IPv6). Everything else - private, loopback,
 * link-local, CGNAT, multicast, broadcast, unspecified, documentation and reserved blocks - is refused.
 * IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-translated, the NAT64 well-known prefix,
 * 6to4) are judged by the IPv4 address they carry, because that is where the packets end up.
 *
 * Cloud metadata endpoints are refused even when `allowPrivate` lifts the address rule: an intranet
 * crawl never needs them, and reaching them is how SSRF turns into stolen credentials.
 */
import * as dns from "node:dns";
import * as net from "node:net";
import ipaddr from "ipaddr.js";
import { fetchFailure } from "../failures";
import { MAX_URL_LENGTH } from "../chatbots/model";

export interface ResolvedAddress {
	address: string;
	family: 4 | 6;
}

/** Resolves a hostname to every address it has (injectable so tests control DNS). */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

export interface AddressGuardOptions {
	/** Lift the public-address rule (intranets, tests); metadata endpoints stay refused. */
	allowPrivate: boolean;
	/** DNS resolution; defaults to the system resolver. */
	lookup?: LookupFn;
	/**
	 * Which addresses count as public; defaults to `isPublicAddress`. Tests replace it to let one
	 * loopback address play "the internet" while every other address keeps the real rule.
	 */
	isAllowedAddress?: (ip: string) => boolean;
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

const METADATA_ADDRESSES = new Set([
	"169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean
	"169.254.170.2", // AWS ECS task metadata
	"169.254.170.23", // AWS EKS pod identity
	"100.100.100.200", // Alibaba Cloud
	"192.0.0.192", // Oracle Cloud (legacy)
	"fd00:ec2::254", // AWS IMDS over IPv6
	"fd00:ec2::23" // AWS EKS pod identity over IPv6
]);

const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

function parse(ip: string): Parsed | undefined {
	const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
	if (!ipaddr.isValid(bare)) return undefined;
	try {
		return ipaddr.parse(bare);
	} catch {
		return undefined;
	}
}

function ipv4FromWords(high: number, low: number): ipaddr.IPv4 {
	return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/**
 * The IPv4 address an IPv6 address stands for, `null` when it embeds none, or `"refuse"` for
 * tunnelling forms whose real destination cannot be judged (Teredo, local-use NAT64).
 */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null | "refuse" {
	const range = addr.range();
	const p = addr.parts;
	if (range === "ipv4Mapped") return addr.toIPv4Address();
	if (range === "rfc6145") return ipv4FromWords(p[6], p[7]);
	if (range === "rfc6052") return addr.match(NAT64_WELL_KNOWN) ? ipv4FromWords(p[6], p[7]) : "refuse";
	if (range === "6to4") return ipv4FromWords(p[1], p[2]);
	if (range === "teredo") return "refuse";
	return null;
}

function canonical(addr: Parsed): Parsed {
	if (addr.kind() === "ipv6") {
		const inner = embeddedIPv4(addr as ipaddr.IPv6);
		if (inner && inner !== "refuse") return inner;
	}
	return addr;
}

function isMetadata(addr: Parsed): boolean {
	return METADATA_ADDRESSES.has(canonical(addr).toNormalizedString()) || METADATA_ADDRESSES.has(canonical(addr).toString());
}

function isPublicParsed(addr: Parsed): boolean {
	if (isMetadata(addr)) return false;
	if (addr.kind() === "ipv4") return addr.range() === "unicast";
	const v6 = addr as ipaddr.IPv6;
	const inner = embeddedIPv4(v6);
	if (inner === "refuse") return false;
	if (inner) return isPublicParsed(inner);
	return v6.range() === "unicast" && v6.match(GLOBAL_UNICAST_V6);
}

/** True when `ip` (IPv4 or IPv6, brackets and zone id allowed) is an ordinary public unicast address. */
export function isPublicAddress(ip: string): boolean {
	const parsed = parse(ip);
	return parsed !== undefined && isPublicParsed(parsed);
}

/** True when `ip` is a known cloud metadata endpoint, in any IPv4 or IPv6 spelling. */
export function isMetadataAddress(ip: string): boolean {
	const parsed = parse(ip);
	return parsed !== undefined && isMetadata(parsed);
}

/** Applies the guard options to one address. */
export function isAddressAllowed(ip: string, opts: AddressGuardOptions): boolean {
	if (isMetadataAddress(ip)) return false;
	if (opts.allowPrivate) return parse(ip) !== undefined;
	return (opts.isAllowedAddress ?? isPublicAddress)(ip);
}

/**
 * Ports browsers refuse to fetch from (WHATWG Fetch "bad port" list): mail, shell, file-sharing and
 * other services that a crafted HTTP request could talk to. Web servers on other ports are fine.
 */
const BAD_PORTS = new Set([
	1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110,
	111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532,
	540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061,
	6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080
]);


/** The hostname of a URL without the brackets of an IPv6 literal. */
export function bareHostname(url: URL): string {
	const host = url.hostname;
	return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/**
 * Checks what can be checked without the network: http/https only, no credentials, a sane port, and
 * - for a literal IP host - the address rule. Returns the parsed URL.
 */
export function assertFetchableUrl(input: string | URL, opts: AddressGuardOptions): URL {
	const text = String(input);
	if (text.length > MAX_URL_LENGTH) {
		throw fetchFailure("invalid_url", `The URL is longer than ${MAX_URL_LENGTH} characters.`);
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw fetchFailure("invalid_url", "The URL is not a valid absolute URL.", { detail: "Send a full URL such as https://example.com/page." });
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw fetchFailure("invalid_url", "Only http and https URLs can be fetched.", { url: text });
	}
	if (url.username || url.password) {
		throw fetchFailure("invalid_url", "URLs with a user name or password cannot be fetched.", { url: url.origin });
	}
	if (url.port !== "" && BAD_PORTS.has(Number(url.port))) {
		throw fetchFailure("blocked_address", `Port ${url.port} is not a web port and cannot be fetched.`, { url: url.href });
	}
	const host = bareHostname(url);
	if (!host) throw fetchFailure("invalid_url", "The URL has no host name.", { url: text });
	if (net.isIP(host) && !isAddressAllowed(host, opts)) {
		throw fetchFailure("blocked_address", `The address of ${url.host} is not public and cannot be fetched.`, { url: url.href });
	}
	return url;
}

const systemLookup: LookupFn = async hostname => {
	const answers = await dns.promises.lookup(hostname, { all: true, order: "verbatim" });
	return answers.map(a => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * Resolves `hostname` and returns every address, refusing the lot when ANY of them is not allowed:
 * a name that also points inside the network must not be fetched even if the first answer is public,
 * since the connection could land on any of them. Literal IPs are checked without DNS.
 */
export async function resolveAndCheck(hostname: string, opts: AddressGuardOptions): Promise<ResolvedAddress[]> {
	const host = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
	const literal = net.isIP(host);
	let addresses: ResolvedAddress[];
	if (literal) {
		addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
	} else {
		try {
			addresses = await (opts.lookup ?? systemLookup)(host);
		} catch {
			throw fetchFailure("network", `The host name ${host} could not be resolved.`);
		}
		if (addresses.length === 0) throw fetchFailure("network", `The host name ${host} has no addresses.`);
	}
	if (addresses.some(a => !isAddressAllowed(a.address, opts))) {
		throw fetchFailure("blocked_address", `The address of ${host} is not public and cannot be fetched.`);
	}
	return addresses;
}
