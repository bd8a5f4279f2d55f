/**
 * The client IP that rate limits key on.
 *
 * By default the socket's peer address: `X-Forwarded-For` is written by the client and cannot be
 * trusted unless we know how many proxies in front of us append to it. With `trustProxy = N`, the
 * N right-most entries were added by our own proxies, so the client is the entry just left of them.
 */
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
