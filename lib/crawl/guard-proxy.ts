/**
 * A forward proxy on loopback that applies the SSRF guard to every connection Chromium makes.
 *
 * Request interception in the page can refuse a URL, but Chromium then resolves the host itself, so a
 * name whose DNS answer changes between our check and its connect (DNS rebinding) would slip through,
 * and requests from service workers are not intercepted at all. Routing the browser through this
 * proxy closes both gaps: the proxy resolves the host, checks every address, and connects only to an
 * address it checked. Plain HTTP is forwarded; HTTPS (and WebSocket) arrives as CONNECT and is
 * tunnelled to the checked address without being decrypted.
 */
import * as http from "node:http";
import * as net from "node:net";
import type { Duplex } from "node:stream";
import { FetchFailure, fetchFailureReason } from "../failures";
import type { CrawlOptions } from "./fetch-page";
import { assertFetchableUrl, bareHostname, resolveAndCheck } from "./ssrf";

export interface RefusedRequest {
	url: string;
	reason: FetchFailure;
}

export interface GuardProxy {
	/** `http://127.0.0.1:port`, for Chromium's proxy setting. */
	url: string;
	/** Requests the proxy refused, in order. */
	refused: RefusedRequest[];
	close(): Promise<void>;
}

/** Headers that describe one hop of a connection and must not be forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
	"connection", "keep-alive", "proxy-connection", "proxy-authorization", "proxy-authenticate", "te", "trailer",
	"transfer-encoding", "upgrade"
]);

function forwardedHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
	const out: http.OutgoingHttpHeaders = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
	}
	return out;
}

/** Checks a URL and resolves it to a checked address, or records the refusal and returns undefined. */
async function checkedAddress(url: string, opts: CrawlOptions, refused: RefusedRequest[]): Promise<{ url: URL; address: string } | undefined> {
	try {
		const parsed = assertFetchableUrl(url, opts);
		const [first] = await resolveAndCheck(bareHostname(parsed), opts);
		return { url: parsed, address: first.address };
	} catch (err) {
		refused.push({ url, reason: fetchFailureReason(err) ?? "network" });
		return undefined;
	}
}

function refuse(res: http.ServerResponse, status: number): void {
	res.writeHead(status, { "content-type": "text/plain", connection: "close" });
	res.end(status === 403 ? "Refused by the crawler's address guard.\n" : "Upstream unreachable.\n");
}

async function forwardHttp(req: http.IncomingMessage, res: http.ServerResponse, opts: CrawlOptions, refused: RefusedRequest[]): Promise<void> {
	const target = await checkedAddress(req.url ?? "", opts, refused);
	if (!target || target.url.protocol !== "http:") return refuse(res, 403);
	const upstream = http.request({
		host: target.address,
		port: target.url.port || 80,
		method: req.method,
		path: `${target.url.pathname}${target.url.search}`,
		headers: { ...forwardedHeaders(req.headers), host: target.url.host },
		agent: false
	});
	upstream.once("response", upstreamRes => {
		let bytes = 0;
		upstreamRes.on("data", (chunk: Buffer) => {
			bytes += chunk.length;
			// Each response is held to the page cap; the render's overall timeout bounds the rest.
			if (bytes > opts.maxBytes) {
				upstreamRes.destroy();
				res.destroy();
			}
		});
		res.writeHead(upstreamRes.statusCode ?? 502, forwardedHeaders(upstreamRes.headers));
		upstreamRes.pipe(res);
	});
	upstream.once("error", () => (res.headersSent ? res.destroy() : refuse(res, 502)));
	req.pipe(upstream);
}

async function tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer, opts: CrawlOptions, refused: RefusedRequest[]): Promise<void> {
	// CONNECT carries host:port only; judge it as the https URL it will carry.
	const target = await checkedAddress(`https://${req.url ?? ""}/`, opts, refused);
	if (!target) {
		client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
		return;
	}
	const upstream = net.connect({ host: target.address, port: Number(target.url.port || 443) });
	upstream.once("connect", () => {
		client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
		if (head.length) upstream.write(head);
		upstream.pipe(client);
		client.pipe(upstream);
	});
	upstream.once("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"));
	client.once("error", () => upstream.destroy());
	client.once("close", () => upstream.destroy());
}

/** Starts a guard proxy for one render, on a free loopback port. */
export async function startGuardProxy(opts: CrawlOptions): Promise<GuardProxy> {
	const refused: RefusedRequest[] = [];
	const sockets = new Set<net.Socket>();
	const server = http.createServer((req, res) => void forwardHttp(req, res, opts, refused));
	server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => void tunnel(req, client, head, opts, refused));
	server.on("connection", socket => {
		sockets.add(socket);
		socket.once("close", () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => resolve());
	});
	const { port } = server.address() as net.AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		refused,
		close: () =>
			new Promise<void>(resolve => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			})
	};
}
