/**
 * A tiny real website on a loopback address for crawler tests: routes map a path to a handler,
 * every request is recorded, and `stop()` closes open connections so tests end promptly.
 *
 * `host` may be any loopback address (127.0.0.0/8 or ::1); tests bind 127.0.0.2 to play "the public
 * internet" beside a 127.0.0.1 that plays an internal service.
 */
import * as http from "node:http";
import type * as net from "node:net";

export type RouteHandler = (req: http.IncomingMessage, res: http.ServerResponse, site: LoopbackSite) => void;

export interface LoopbackSite {
	/** `http://host:port` (IPv6 hosts in brackets). */
	origin: string;
	host: string;
	port: number;
	/** Paths requested, in order (with query string). */
	hits: string[];
	/** User-Agent of each request, in order. */
	userAgents: string[];
	stop(): Promise<void>;
}

/** Answers with an HTML document. */
export function html(body: string, status = 200): RouteHandler {
	return (_req, res) => {
		res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
		res.end(body);
	};
}

/** Answers with a body of the given type. */
export function typed(contentType: string, body: string | Buffer, status = 200): RouteHandler {
	return (_req, res) => {
		res.writeHead(status, { "content-type": contentType });
		res.end(body);
	};
}

/** Redirects to `location` (absolute, or resolved against the site's origin when it starts with "/"). */
export function redirect(location: string | ((site: LoopbackSite) => string), status = 302): RouteHandler {
	return (_req, res, site) => {
		res.writeHead(status, { location: typeof location === "function" ? location(site) : location });
		res.end();
	};
}

export async function startSite(routes: Record<string, RouteHandler>, host = "127.0.0.1"): Promise<LoopbackSite> {
	const sockets = new Set<net.Socket>();
	const hits: string[] = [];
	const userAgents: string[] = [];
	// Filled in once the server listens; handlers only run after that.
	const site = { hits, userAgents, host } as LoopbackSite;
	const server = http.createServer((req, res) => {
		const url = req.url ?? "/";
		hits.push(url);
		userAgents.push(String(req.headers["user-agent"] ?? ""));
		const handler = routes[url] ?? routes[url.split("?")[0]];
		if (handler) return handler(req, res, site);
		res.writeHead(404, { "content-type": "text/plain" });
		res.end("not found");
	});
	server.on("connection", socket => {
		sockets.add(socket);
		socket.once("close", () => sockets.delete(socket));
	});
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(0, host, () => resolve());
	});
	const { port } = server.address() as net.AddressInfo;
	site.port = port;
	site.origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
	site.stop = () =>
		new Promise<void>(resolve => {
			for (const socket of sockets) socket.destroy();
			server.close(() => resolve());
		});
	return site;
}
