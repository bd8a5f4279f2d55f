/**
 * Issue 11, items 4 and 5, over real sockets: every malformed request answers a JSON 4xx in the
 * SPEC §7 shape (bodies whose Content-Encoding lies, bodies nested thousands deep, requests Node's
 * own parser refuses, MCP arguments nested 5,000 deep), and budgets count what they protect (each
 * tool call of an MCP batch; IPv6 clients by their /64).
 */
import * as net from "node:net";
import * as zlib from "node:zlib";
import { startApp, TestApp } from "../helpers/app";
import { mcpPost } from "../helpers/mcp-http";

let app: TestApp;
let ipCounter = 0;
const nextIp = () => `192.0.2.${(++ipCounter % 250) + 1}`;

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,demo-session,storage,accounts,mcp,chat" } });
});
afterAll(() => app?.stop());

async function expectErrorBody(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
	const text = await res.text();
	expect({ status: res.status, type: res.headers.get("content-type") }).toEqual({ status, type: "application/json; charset=utf-8" });
	const body = JSON.parse(text);
	expect(body).toMatchObject({ ok: false, code, status });
	expect(typeof body.message).toBe("string");
	expect(typeof body.hint).toBe("string");
	return body;
}

function post(path: string, body: RequestInit["body"], headers: Record<string, string>, ip = nextIp()): Promise<Response> {
	return fetch(app.baseUrl + path, { method: "POST", headers: { "X-Forwarded-For": ip, ...headers }, body });
}

/** Sends raw bytes and returns everything the server answers before it closes the connection. */
function rawExchange(payload: Buffer | string): Promise<string> {
	const port = Number(new URL(app.baseUrl).port);
	return new Promise((resolve, reject) => {
		const socket = net.connect(port, "127.0.0.1", () => socket.write(payload));
		let received = "";
		socket.on("data", chunk => (received += chunk.toString("utf8")));
		socket.on("end", () => resolve(received));
		socket.on("error", reject);
		socket.setTimeout(5000, () => {
			socket.destroy();
			reject(new Error(`no answer; got ${received.slice(0, 200)}`));
		});
	});
}

describe("a body whose Content-Encoding does not match its bytes", () => {
	const routes: Array<[string, string, string]> = [
		["createDemoSession (JSON)", "/api/tools/sessions", "application/json"],
		["addDemoSessionText (JSON)", "/api/tools/sessions/not-a-session/texts", "application/json"],
		["chat message (JSON, CORS route)", "/api/chat/no-such-bot/messages", "application/json"],
		["sign-up form (urlencoded)", "/account/signup", "application/x-www-form-urlencoded"]
	];
	it.each(routes)("%s: gzip, deflate and br that are not → 400 invalid_json naming the encoding", async (_name, path, type) => {
		for (const encoding of ["gzip", "deflate", "br"]) {
			const body = await expectErrorBody(await post(path, "this is not compressed", { "Content-Type": type, "Content-Encoding": encoding }), 400, "invalid_json");
			expect(body.message).toContain(encoding);
		}
	});
	it.each(routes)("%s: an unknown encoding → 415", async (_name, path, type) => {
		await expectErrorBody(await post(path, "x", { "Content-Type": type, "Content-Encoding": "snappy" }), 415, "unsupported_media_type");
	});
	it("real gzip is still decoded", async () => {
		const res = await post("/api/tools/sessions", new Uint8Array(zlib.gzipSync(JSON.stringify({ locale: "es" }))), { "Content-Type": "application/json", "Content-Encoding": "gzip" });
		expect(res.status).toBe(200);
		expect((await res.json()).demo.locale).toBe("es");
	});
	it("a gzip bomb is refused by the decoded size, not read to the end", async () => {
		const bomb = zlib.gzipSync(Buffer.alloc(50_000_000, 0x20));
		await expectErrorBody(await post("/api/tools/sessions", new Uint8Array(bomb), { "Content-Type": "application/json", "Content-Encoding": "gzip" }), 413, "payload_too_large");
	});
	it("the upload URL refuses any Content-Encoding with 415", async () => {
		const created = await (await post("/api/tools/sessions", "", { "Content-Type": "application/json" })).json();
		const target = await (await post(`/api/tools/sessions/${created.demo.session_id}/uploads`, JSON.stringify({ filename: "a.txt", content_type: "text/plain" }), { "Content-Type": "application/json" })).json();
		const res = await fetch(target.upload_url, { method: "PUT", headers: { "Content-Type": "text/plain", "Content-Encoding": "gzip" }, body: new Uint8Array(zlib.gzipSync("hello")) });
		await expectErrorBody(res, 415, "unsupported_media_type");
	});
});

describe("bodies nested deeper than any request needs", () => {
	it("a JSON body nested 5,000 deep → 400 validation_failed, on JSON and CORS routes", async () => {
		const deep = `{"locale":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}}`;
		const body = await expectErrorBody(await post("/api/tools/sessions", deep, { "Content-Type": "application/json" }), 400, "validation_failed");
		expect(body.message).toMatch(/32 levels/);
		await expectErrorBody(await post("/api/chat/x/messages", `[${"[".repeat(100_000)}${"]".repeat(100_000)}]`, { "Content-Type": "application/json" }), 400, "validation_failed");
	});
});

describe("requests Node's HTTP parser refuses", () => {
	const parse = (raw: string) => {
		const [head, ...rest] = raw.split("\r\n\r\n");
		return { statusLine: head.split("\r\n")[0], head, body: JSON.parse(rest.join("\r\n\r\n")) };
	};
	it("a malformed header line → 400 malformed_request with the Error body", async () => {
		const reply = parse(await rawExchange("GET /api HTTP/1.1\r\nHost: x\r\nThis is not a header\r\n\r\n"));
		expect(reply.statusLine).toBe("HTTP/1.1 400 Bad Request");
		expect(reply.head).toMatch(/Content-Type: application\/json/);
		expect(reply.body).toMatchObject({ ok: false, code: "malformed_request", status: 400 });
	});
	it("a garbage request line → 400 malformed_request", async () => {
		const reply = parse(await rawExchange("HELLO\r\n\r\n"));
		expect(reply.body).toMatchObject({ ok: false, code: "malformed_request", status: 400 });
	});
	it("headers over 16 KB → 431 headers_too_large with the Error body", async () => {
		const reply = parse(await rawExchange(`GET /api HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`));
		expect(reply.statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
		expect(reply.body).toMatchObject({ ok: false, code: "headers_too_large", status: 431 });
	});
	it("a request whose chunked body breaks off is refused, and its action does not run (found by the fuzz test)", async () => {
		const count = async () => ((await app.broker.call("chatbots.listExpired", { now: Date.now() + 365 * 86_400_000, limit: 100_000 })) as unknown[]).length;
		const before = await count();
		for (const type of ["", "Content-Type: application/json\r\n"]) {
			const raw = await rawExchange(`POST /api/tools/sessions HTTP/1.1\r\nHost: x\r\n${type}Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nZZ\r\n\r\n`);
			// The first answer: 415 when no parser takes the body (it is refused before it is read), else 400 from the broken chunk.
			const [head, rest] = [raw.slice(0, raw.indexOf("\r\n\r\n")), raw.slice(raw.indexOf("\r\n\r\n") + 4)];
			const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
			const body = JSON.parse(rest.slice(0, length));
			expect(body).toMatchObject({ ok: false, code: type ? "malformed_request" : "unsupported_media_type" });
			expect(head.split("\r\n")[0]).toBe(type ? "HTTP/1.1 400 Bad Request" : "HTTP/1.1 415 Unsupported Media Type");
		}
		// A body no parser takes is refused, not ignored (an ignored body is never read, so its breakage came too late).
		await expectErrorBody(await post("/api/tools/sessions", "locale=es", { "Content-Type": "text/plain" }), 415, "unsupported_media_type");
		// Settle: anything the refused requests had started would have written by now.
		await app.broker.call("chatbots.listExpired", { now: 0, limit: 1 });
		expect(await count()).toBe(before);
	});
	it("a request target in absolute form is served like its path", async () => {
		const reply = await rawExchange("GET http://127.0.0.1/v2/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
		expect(reply.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
		expect(reply.endsWith("ok")).toBe(true);
	});
	it("the server keeps serving afterwards", async () => {
		expect((await fetch(`${app.baseUrl}/v2/health`)).status).toBe(200);
	});
});

describe("MCP", () => {
	it("arguments nested 5,000 deep → -32602 with a clear message, and nothing is logged as an error", async () => {
		const logged = jest.spyOn(console, "error");
		try {
			const args = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
			const reply = await mcpPost(app.baseUrl, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add_knowledge_text","arguments":${args}}}`);
			expect(reply.status).toBe(200);
			expect(reply.body).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32602 } });
			expect((reply.body as { error: { message: string } }).error.message).toMatch(/nest more than 32 levels/);
			expect(logged).not.toHaveBeenCalled();
		} finally {
			logged.mockRestore();
		}
	});

	it("a batch is charged one point of `mcp` per tools/call: a batch of 50 leaves 10, the next one is refused", async () => {
		const ip = "198.18.50.50";
		const batch = Array.from({ length: 50 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "get_chatbot", arguments: { chatbot_id: `missing-${i}` } } }));
		const first = await mcpPost(app.baseUrl, batch, { ip });
		expect(first.status).toBe(200);
		expect(first.body).toHaveLength(50);
		expect(first.headers.get("ratelimit-policy")).toBe('"mcp"; q=60; w=60');
		expect(first.headers.get("ratelimit-remaining")).toBe("10");
		const second = await mcpPost(app.baseUrl, batch, { ip });
		expect(second.status).toBe(429);
		expect(second.body).toMatchObject({ ok: false, code: "rate_limited", status: 429 });
		// A body with no tool call still costs one.
		const other = await mcpPost(app.baseUrl, { jsonrpc: "2.0", id: 1, method: "ping" }, { ip: "198.18.50.51" });
		expect(other.headers.get("ratelimit-remaining")).toBe("59");
	});
});

describe("rate limits key IPv6 clients by their /64", () => {
	const get = (ip: string) => fetch(`${app.baseUrl}/api/tools/sessions/no-such-session`, { headers: { "X-Forwarded-For": ip } });

	it("30 requests from 30 addresses of one /64 spend its demo-api budget; the next /64 has its own", async () => {
		const statuses: number[] = [];
		for (let i = 1; i <= 30; i++) statuses.push((await get(`2001:db8:77:1::${i.toString(16)}`)).status);
		expect(statuses.every(s => s === 404)).toBe(true);
		await expectErrorBody(await get("2001:db8:77:1:ffff:ffff:ffff:ffff"), 429, "rate_limited");
		expect((await get("2001:db8:77:2::1")).status).toBe(404);
	});

	it("an IPv4-mapped IPv6 address shares the budget of its IPv4 address", async () => {
		for (let i = 0; i < 30; i++) await get(i % 2 ? "198.51.100.99" : "::ffff:198.51.100.99");
		await expectErrorBody(await get("198.51.100.99"), 429, "rate_limited");
		expect((await get("198.51.100.98")).status).toBe(404);
	});
});
