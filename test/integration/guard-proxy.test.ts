/**
 * The guard proxy Chromium is routed through, spoken to directly over TCP: forwarded HTTP and CONNECT
 * tunnels reach allowed addresses only.
 */
import * as http from "node:http";
import * as net from "node:net";
import { CrawlOptions } from "../../lib/crawl/fetch-page";
import { GuardProxy, startGuardProxy } from "../../lib/crawl/guard-proxy";
import { LoopbackSite, startSite, typed } from "../helpers/loopback-site";

let target: LoopbackSite;

const strict: CrawlOptions = { allowPrivate: false, timeoutMs: 5000, maxBytes: 100_000, maxRedirects: 3, userAgent: "TestBot/1.0" };
const open: CrawlOptions = { ...strict, allowPrivate: true };

beforeAll(async () => {
	target = await startSite({ "/": typed("text/plain", "hello through the proxy"), "/big": typed("text/plain", Buffer.alloc(500_000, 0x61)) });
});

afterAll(async () => {
	await target.stop();
});

async function withProxy(opts: CrawlOptions, run: (proxy: GuardProxy) => Promise<void>): Promise<void> {
	const proxy = await startGuardProxy(opts);
	try {
		await run(proxy);
	} finally {
		await proxy.close();
	}
}

/** GET through the proxy in absolute form, as a browser configured with an HTTP proxy sends it. */
function proxiedGet(proxy: GuardProxy, url: string): Promise<{ status: number; body: string }> {
	const { hostname, port } = new URL(proxy.url);
	return new Promise((resolve, reject) => {
		const req = http.request({ host: hostname, port, path: url, method: "GET", headers: { host: new URL(url).host }, agent: false }, res => {
			const chunks: Buffer[] = [];
			res.on("data", (c: Buffer) => chunks.push(c));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
			res.on("error", reject);
		});
		req.on("error", reject);
		req.end();
	});
}

/** Opens a CONNECT tunnel; answers the proxy's status line and, if open, the socket. */
function connect(proxy: GuardProxy, authority: string): Promise<{ status: string; socket: net.Socket }> {
	const { hostname, port } = new URL(proxy.url);
	return new Promise((resolve, reject) => {
		const socket = net.connect(Number(port), hostname, () => socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`));
		let head = "";
		const onData = (chunk: Buffer) => {
			head += chunk.toString("latin1");
			if (!head.includes("\r\n\r\n")) return;
			socket.off("data", onData);
			resolve({ status: head.split("\r\n")[0], socket });
		};
		socket.on("data", onData);
		socket.on("error", reject);
	});
}

it("forwards plain HTTP to an allowed address", async () => {
	await withProxy(open, async proxy => {
		expect(await proxiedGet(proxy, `${target.origin}/`)).toEqual({ status: 200, body: "hello through the proxy" });
	});
});

it("refuses plain HTTP to a private address without contacting it", async () => {
	await withProxy(strict, async proxy => {
		const before = target.hits.length;
		const res = await proxiedGet(proxy, `${target.origin}/`);
		expect(res.status).toBe(403);
		expect(target.hits.length).toBe(before);
		expect(proxy.refused).toEqual([{ url: `${target.origin}/`, reason: "blocked_address" }]);
	});
});

it("cuts a forwarded response off at maxBytes", async () => {
	await withProxy(open, async proxy => {
		// The 500 kB response is announced in full, so cutting it short aborts it for the client.
		await expect(proxiedGet(proxy, `${target.origin}/big`)).rejects.toThrow(/aborted/);
	});
});

it("tunnels CONNECT to an allowed address and refuses it to a private one", async () => {
	await withProxy(open, async proxy => {
		const { status, socket } = await connect(proxy, `127.0.0.1:${target.port}`);
		expect(status).toBe("HTTP/1.1 200 Connection Established");
		// The tunnel is raw TCP: speak HTTP through it to prove it reaches the target.
		const reply = await new Promise<string>(resolve => {
			let data = "";
			socket.on("data", (c: Buffer) => (data += c.toString()));
			socket.on("end", () => resolve(data));
			socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${target.port}\r\nConnection: close\r\n\r\n`);
		});
		expect(reply).toContain("hello through the proxy");
		socket.destroy();
	});

	await withProxy(strict, async proxy => {
		const before = target.hits.length;
		const { status, socket } = await connect(proxy, `127.0.0.1:${target.port}`);
		expect(status).toBe("HTTP/1.1 403 Forbidden");
		socket.destroy();
		expect(target.hits.length).toBe(before);
		expect(proxy.refused[0]?.reason).toBe("blocked_address");
	});
});
