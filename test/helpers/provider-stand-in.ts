/**
 * The machinery shared by the loopback stand-ins of messaging providers (telegram-stand-in.ts,
 * crisp-stand-in.ts): a JSON HTTP server on 127.0.0.1 that records every call, answers through the
 * provider's handler, and can be told to misbehave on chosen calls, in order:
 *
 * - `{status, body, headers}`: answer that instead (a 429 with its wait, a 500…), nothing processed;
 * - `"hang"`: never answer and process nothing (the request dies with the client's timeout);
 * - `"hang-after-accept"`: process the call (the message is delivered) but never answer, as when a
 *   provider's answer is lost on the way back.
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type Fault = { status: number; body?: unknown; headers?: Record<string, string> } | "hang" | "hang-after-accept";

export interface RecordedCall {
	method: string;
	path: string;
	headers: http.IncomingHttpHeaders;
	body: unknown;
	at: number;
	/** `handled`: the provider processed it (whatever it answered); `fault`: an injected answer; `hung`: no answer. */
	outcome: "handled" | "fault" | "hung";
	/** The status answered (undefined while hung). */
	status?: number;
}

export interface ProviderAnswer {
	status: number;
	body: unknown;
}

export interface JsonServer {
	base: string;
	calls: RecordedCall[];
	/** Makes the next calls that `match` misbehave, one fault per call, in order. */
	failNext(match: (call: RecordedCall) => boolean, faults: Fault[]): void;
	stop(): Promise<void>;
}

export async function startJsonServer(handle: (call: RecordedCall) => ProviderAnswer | Promise<ProviderAnswer>): Promise<JsonServer> {
	const calls: RecordedCall[] = [];
	const queues: Array<{ match: (call: RecordedCall) => boolean; faults: Fault[] }> = [];
	const sockets = new Set<Socket>();
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (c: Buffer) => chunks.push(c));
		req.on("end", async () => {
			const text = Buffer.concat(chunks).toString("utf8");
			let body: unknown;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				body = text;
			}
			const call: RecordedCall = { method: req.method ?? "", path: (req.url ?? "").split("?")[0], headers: req.headers, body, at: Date.now(), outcome: "handled" };
			calls.push(call);
			const queue = queues.find(q => q.faults.length > 0 && q.match(call));
			const fault = queue?.faults.shift();
			if (fault === "hang") {
				call.outcome = "hung";
				return;
			}
			const answer = fault === undefined || fault === "hang-after-accept" ? await handle(call) : { status: fault.status, body: fault.body ?? {} };
			if (fault === "hang-after-accept") {
				call.outcome = "hung";
				return;
			}
			if (fault !== undefined) call.outcome = "fault";
			call.status = answer.status;
			res.writeHead(answer.status, { "content-type": "application/json", ...(typeof fault === "object" ? fault.headers : {}) });
			res.end(JSON.stringify(answer.body));
		});
	});
	server.on("connection", socket => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	return {
		base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		calls,
		failNext(match, faults) {
			queues.push({ match, faults: [...faults] });
		},
		async stop() {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>(resolve => server.close(() => resolve()));
		}
	};
}
