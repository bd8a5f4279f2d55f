/**
 * A small closed-loop HTTP/1.1 load client on raw keep-alive sockets: each connection sends its
 * next request when the previous answer is complete, so the figures are what the server sustains
 * at that concurrency. Requests are prebuilt bytes and answers are framed by Content-Length or
 * chunked encoding only, so the client costs far less than the servers it measures (node:http's
 * own client costs about as much per request as a bare node:http server).
 */
import * as net from "node:net";

export interface LoadTarget {
	/** e.g. http://127.0.0.1:3000/v2/health */
	url: string;
	method?: "GET" | "POST";
	headers?: Record<string, string>;
	body?: string;
	/** Status every answer must have (default 200); anything else stops the run with an error. */
	expectStatus?: number;
}

export interface LoadOptions {
	connections: number;
	warmupMs: number;
	durationMs: number;
}

export interface LoadResult {
	requests: number;
	requestsPerSecond: number;
	p50Ms: number;
	p99Ms: number;
	/** Share of one core the load client itself used over the run: near 1, the client, not the server, bounds the figure. */
	clientCpu?: number;
}

export function requestBytes(target: LoadTarget): Buffer {
	const url = new URL(target.url);
	const body = target.body === undefined ? undefined : Buffer.from(target.body, "utf8");
	const lines = [`${target.method ?? "GET"} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, "Connection: keep-alive"];
	for (const [name, value] of Object.entries(target.headers ?? {})) lines.push(`${name}: ${value}`);
	if (body) lines.push(`Content-Length: ${body.length}`);
	const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
	return body ? Buffer.concat([head, body]) : head;
}

/**
 * Reads one response at a time off a byte stream. `feed` returns the statuses of the responses
 * completed by this chunk (a closed-loop connection has at most one in flight).
 */
export class ResponseFramer {
	private buffer: Buffer = Buffer.alloc(0);

	feed(chunk: Buffer): number[] {
		this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
		const done: number[] = [];
		for (;;) {
			const consumed = this.next();
			if (consumed === undefined) return done;
			done.push(consumed.status);
			this.buffer = this.buffer.subarray(consumed.length);
		}
	}

	private next(): { status: number; length: number } | undefined {
		const headEnd = this.buffer.indexOf("\r\n\r\n");
		if (headEnd < 0) return undefined;
		const head = this.buffer.toString("latin1", 0, headEnd);
		const status = Number(head.slice(9, 12));
		const bodyStart = headEnd + 4;
		const lengthMatch = /\r\ncontent-length:\s*(\d+)/i.exec(head);
		if (lengthMatch) {
			const end = bodyStart + Number(lengthMatch[1]);
			return this.buffer.length >= end ? { status, length: end } : undefined;
		}
		if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
			let at = bodyStart;
			for (;;) {
				const lineEnd = this.buffer.indexOf("\r\n", at);
				if (lineEnd < 0) return undefined;
				const size = parseInt(this.buffer.toString("latin1", at, lineEnd), 16);
				at = lineEnd + 2 + size + 2;
				if (this.buffer.length < at) return undefined;
				if (size === 0) return { status, length: at };
			}
		}
		// 204/304 or a bodiless answer.
		return { status, length: bodyStart };
	}
}

function percentile(sorted: Float64Array, p: number): number {
	if (sorted.length === 0) return NaN;
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Runs the load: `connections` sockets, a warm-up (not recorded), then the measured window. */
export async function runLoad(target: LoadTarget, options: LoadOptions): Promise<LoadResult> {
	const url = new URL(target.url);
	const request = requestBytes(target);
	const expected = target.expectStatus ?? 200;
	const latencies: number[] = [];
	const warmupEnd = performance.now() + options.warmupMs;
	const end = warmupEnd + options.durationMs;
	let measuredStart = 0;
	let failure: Error | undefined;

	const connection = () =>
		new Promise<void>((resolve, reject) => {
			const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
			const framer = new ResponseFramer();
			let sentAt = 0;
			const send = () => {
				sentAt = performance.now();
				socket.write(request);
			};
			socket.on("connect", send);
			socket.on("data", chunk => {
				for (const status of framer.feed(chunk)) {
					const now = performance.now();
					if (status !== expected) failure ??= new Error(`${target.method ?? "GET"} ${url.pathname}: status ${status}, expected ${expected}`);
					if (now >= warmupEnd && sentAt >= warmupEnd) latencies.push(now - sentAt);
					if (now >= end || failure) {
						socket.end();
						return resolve();
					}
					send();
				}
			});
			socket.on("error", reject);
			socket.on("close", () => resolve());
		});

	measuredStart = warmupEnd;
	const cpuBefore = process.cpuUsage();
	const startedAt = performance.now();
	await Promise.all(Array.from({ length: options.connections }, connection));
	if (failure) throw failure;
	const seconds = (Math.min(performance.now(), end) - measuredStart) / 1000;
	const cpu = process.cpuUsage(cpuBefore);
	const clientCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - startedAt);
	const sorted = Float64Array.from(latencies).sort();
	return { requests: sorted.length, requestsPerSecond: sorted.length / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), clientCpu };
}
