/**
 * The gateway's response class on a real loopback server: `end()` waits for the end of the event
 * loop's turn, the responses of one turn leave together, a waiting response already counts as sent,
 * and a chunk Node refuses cuts that connection without taking the process down.
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { TurnBatchedResponse } from "../../services/gateway/turn-batched-response";

type Handler = (req: http.IncomingMessage, res: TurnBatchedResponse) => void;

let handler: Handler = (_req, res) => res.end("ok");
const server = http.createServer({ ServerResponse: TurnBatchedResponse }, (req, res) => handler(req, res));
let base = "";

beforeAll(async () => {
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>(resolve => server.close(() => resolve())));

test("end() returns at once, the bytes leave at the end of the turn, and the response then finishes", async () => {
	const seen: Array<Record<string, unknown>> = [];
	handler = (_req, res) => {
		const socket = res.socket as NonNullable<typeof res.socket>;
		const before = socket.bytesWritten;
		expect(res.end("hello", () => seen.push({ callback: true }))).toBe(res);
		seen.push({ headersSent: res.headersSent, writableEnded: res.writableEnded, writableFinished: res.writableFinished, written: socket.bytesWritten - before });
		setImmediate(() => seen.push({ written: socket.bytesWritten - before > 0 }));
	};
	const res = await fetch(base);
	expect(await res.text()).toBe("hello");
	expect(seen[0]).toEqual({ headersSent: true, writableEnded: true, writableFinished: false, written: 0 });
	expect(seen).toContainEqual({ callback: true });
	expect(seen).toContainEqual({ written: true });
});

test("responses ended in one turn are written together, after the last of them was ended", async () => {
	const endedAt: number[] = [];
	const writtenAt: number[] = [];
	let step = 0;
	const waiting: TurnBatchedResponse[] = [];
	handler = (_req, res) => {
		waiting.push(res);
		if (waiting.length < 4) return;
		// All four end in one synchronous run; none may be on the wire before the last end().
		for (const each of waiting) {
			const socket = each.socket as NonNullable<typeof each.socket>;
			const write = socket.write.bind(socket);
			socket.write = ((...args: Parameters<typeof socket.write>) => {
				writtenAt.push(step++);
				return write(...args);
			}) as typeof socket.write;
			each.end(`answer ${endedAt.length}`);
			endedAt.push(step++);
		}
	};
	const texts = await Promise.all(Array.from({ length: 4 }, () => fetch(base, { headers: { Connection: "close" } }).then(res => res.text())));
	expect(texts.sort()).toEqual(["answer 0", "answer 1", "answer 2", "answer 3"]);
	expect(endedAt).toHaveLength(4);
	expect(Math.min(...writtenAt)).toBeGreaterThan(Math.max(...endedAt));
});

test("a second end() while the first waits is ignored, and an error after end() is not rendered into it", async () => {
	handler = (_req, res) => {
		res.setHeader("Content-Type", "text/plain");
		res.end("first");
		if (!res.headersSent) {
			res.statusCode = 500;
			res.end("second");
		}
		res.end("third");
	};
	const res = await fetch(base);
	expect(res.status).toBe(200);
	expect(await res.text()).toBe("first");
});

test("a chunk Node refuses cuts that connection only; the server goes on answering", async () => {
	handler = (_req, res) => res.end(12345 as unknown as string);
	await expect(fetch(base)).rejects.toThrow();
	handler = (_req, res) => res.end("still here");
	expect(await (await fetch(base)).text()).toBe("still here");
});
