/**
 * The client's IP address, and the client network that rate limits and demo bounds count.
 *
 * By default the socket's peer address: `X-Forwarded-For` is written by the client and cannot be
 * trusted unless we know how many proxies in front of us append to it. With `trustProxy = N`, the
 * N right-most entries were added by our own proxies, so the client is the entry just left of them.
 */
import ipaddr from "ipaddr.js";

export function clientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustProxy: number): string {
	const peer = normaliseIp(socketAddress ?? "unknown");
	if (trustProxy <= 0 || forwardedFor === undefined) return peer;
	const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor;
	const hops = header
		.split(",")
		.map(s => s.trim())
		.filter(Boolean);
	// The chain as seen from us: [peer, last XFF entry, ..., first XFF entry].
	const chain = [peer, ...hops.reverse().map(normaliseIp)];
	return chain[Math.min(trustProxy, chain.length - 1)];
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same client. */
function normaliseIp(ip: string): string {
	return ip.startsWith("::ffff:") && ip.includes(".") ? ip.slice(7) : ip;
}

/**
 * The network a client address stands for, the unit that rate limits and the per-network demo
 * bound count: an IPv4 address is itself (/32), an IPv6 address its /64 — one subscriber or host
 * typically holds a whole /64 and can pick any address in it, so counting addresses would let one
 * client multiply every budget. IPv4-mapped IPv6 addresses count as their IPv4 address. Anything
 * that is not an IP address (a socket with no address) is used as it is, cut short.
 */
export function clientNetwork(ip: string): string {
	// Socket addresses are almost always plain dotted quads, which stand for themselves: skip parsing.
	if (isCanonicalIpv4(ip)) return ip;
	const text = ip.trim();
	if (!ipaddr.isValid(text)) return text.slice(0, 64);
	const parsed = ipaddr.parse(text);
	if (parsed.kind() === "ipv4") return parsed.toString();
	const v6 = parsed as ipaddr.IPv6;
	if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
	const prefix = v6.parts.slice(0, 4).map(part => part.toString(16)).join(":");
	return `${prefix}::/64`;
}

/** Four decimal octets 0-255 without leading zeros (which ipaddr.js would read as octal): `10.0.0.1`. */
function isCanonicalIpv4(text: string): boolean {
	if (text.length < 7 || text.length > 15) return false;
	let octets = 0;
	let value = 0;
	let digits = 0;
	for (let i = 0; i <= text.length; i++) {
		const code = i < text.length ? text.charCodeAt(i) : 46; // a final "." closes the last octet
		if (code === 46) {
			if (digits === 0 || value > 255) return false;
			octets++;
			value = 0;
			digits = 0;
		} else if (code >= 48 && code <= 57) {
			if (digits > 0 && value === 0) return false; // leading zero
			value = value * 10 + (code - 48);
			digits++;
			if (digits > 3) return false;
		} else {
			return false;
		}
	}
	return octets === 4;
}
