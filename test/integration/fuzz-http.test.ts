/**
 * A bounded, seeded fuzz of the whole HTTP surface (issue 11): a few thousand requests over every
 * route of the route table and unknown paths — malformed JSON, wrong types, odd encodings and
 * media types, huge and deep bodies, odd headers, JSON-RPC batches, raw bytes Node's parser refuses —
 * sent one at a time to the real app on loopback (test/helpers/fuzz-requests.ts makes them).
 *
 * It asserts: no 5xx; every error of the machine surface in the SPEC §7 shape (JSON, ok:false,
 * code, status equal to the HTTP status, message, hint), HTML or Markdown only from the site's own
 * pages; no stack trace anywhere; no JSON-RPC internal error; nothing written by a refused request
 * (the targeted demo session's sources and counters, the sandbox's, and the number of chatbots
 * are compared before and after); nothing logged as an unexpected error; health fine after.
 *
 * FUZZ_SEED and FUZZ_REQUESTS change the run (for example to replay a failure with more requests).
 */
import * as http from "node:http";
import * as net from "node:net";
import { startApp, TestApp } from "../helpers/app";
import { createFuzzer, FuzzRequest, FuzzTargets } from "../helpers/fuzz-requests";

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
/** Where even a 404 is JSON whatever the Accept header (SPEC §7.3); elsewhere a 404 follows Accept. */
const JSON_404_PREFIXES = ["/api", "/mcp", "/.well-known"];
const ALLOWED_RPC_ERRORS = new Set([-32700, -32600, -32601, -32602]);
const STACK_TRACE = /\n\s+at [^\n]+:\d+:\d+|node_modules\//;

interface Reply {
	status: number;
	contentType: string;
	body: string;
}

let app: TestApp;
let targets: FuzzTargets;

/** Demo-session state a refused request must leave alone (statuses move with background work; ids and counters do not). */
async function sessionState(sessionId: string): Promise<string> {
	const { demo } = (await app.broker.call("demo-session.get", { session_id: sessionId })) as {
		demo: { chars_used: number; sources: Record<string, Array<{ id: string }>> };
	};
	return JSON.stringify({ chars: demo.chars_used, sources: Object.fromEntries(Object.entries(demo.sources).map(([kind, list]) => [kind, list.map(s => s.id)])) });
}

async function sandboxState(): Promise<string> {
	const { chatbot, sources } = (await app.broker.call("chatbots.get", { id: targets.sandboxId })) as {
		chatbot: { counts: Record<string, number>; sources_version: number };
		sources: Array<{ _id: string }>;
	};
	return JSON.stringify({ counts: { ...chatbot.counts, messages: 0 }, version: chatbot.sources_version, sources: sources.map(s => s._id) });
}

/** Chatbots with an expiry: every demo and sandbox the fuzz could create. */
async function chatbotCount(): Promise<number> {
	return ((await app.broker.call("chatbots.listExpired", { now: Date.now() + 365 * 86_400_000, limit: 1_000_000 })) as unknown[]).length;
}

function sendRaw(bytes: Buffer): Promise<Reply> {
	const port = Number(new URL(app.baseUrl).port);
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const socket = net.connect(port, "127.0.0.1", () => socket.end(bytes));
		socket.on("data", chunk => chunks.push(chunk));
		socket.on("error", err => ((err as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(err)));
		socket.on("close", () => {
			const text = Buffer.concat(chunks).toString("utf8");
			const [head, ...rest] = text.split("\r\n\r\n");
			const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
			const contentType = /\r\ncontent-type: ([^\r\n]+)/i.exec(head)?.[1] ?? "";
			resolve({ status, contentType, body: rest.join("\r\n\r\n") });
		});
		socket.setTimeout(20_000, () => socket.destroy(new Error("raw request timed out")));
	});
}

function send(request: FuzzRequest): Promise<Reply> {
	if (request.raw) return sendRaw(request.raw);
	const base = new URL(app.baseUrl);
	return new Promise((resolve, reject) => {
		const req = http.request(
			{ host: base.hostname, port: base.port, method: request.method, path: request.path, headers: request.headers, agent: false, timeout: 30_000 },
			res => {
				const chunks: Buffer[] = [];
				res.on("data", chunk => chunks.push(chunk));
				res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks).toString("utf8") }));
				res.on("error", reject);
			}
		);
		req.on("timeout", () => req.destroy(new Error(`no answer in 30 s to ${request.label}`)));
		req.on("error", err => {
			// The server may answer (413, 415, ...) and close before reading a large body.
			if ((err as NodeJS.ErrnoException).code === "EPIPE" || (err as NodeJS.ErrnoException).code === "ECONNRESET") return;
			reject(err);
		});
		req.end(request.body);
	});
}

/**
 * When an error may be something other than the Error body: the designed 404 (a page for browsers,
 * Markdown otherwise) outside the JSON prefixes, and the site's own HTML pages (the account forms
 * answer a refused form as the page again).
 */
function mayAnswerWithoutJson(request: FuzzRequest, reply: Reply): boolean {
	if (request.raw) return false;
	const path = request.path.split("?")[0];
	if (reply.status === 404 && !JSON_404_PREFIXES.some(prefix => path === prefix || path.startsWith(`${prefix}/`))) return /^text\/(html|markdown)/.test(reply.contentType);
	if (!reply.contentType.startsWith("text/html")) return false;
	// HTML pages, and form posts from a browser (not asking for JSON only), answer as pages.
	const accept = request.headers.Accept ?? "";
	const wantsJsonOnly = accept.includes("application/json") && !accept.includes("text/html");
	return request.route?.documented === false || (request.route?.body?.kind === "form" && !wantsJsonOnly);
}

/** What is wrong with a reply, if anything. */
function problemsOf(request: FuzzRequest, reply: Reply): string[] {
	const problems: string[] = [];
	if (reply.status >= 500 || reply.status === 0) problems.push(`status ${reply.status}`);
	if (STACK_TRACE.test(reply.body)) problems.push("a stack trace in the body");
	const isJson = reply.contentType.startsWith("application/json");
	if (reply.status >= 400 && request.method !== "HEAD") {
		if (isJson) {
			let body: Record<string, unknown> = {};
			try {
				body = JSON.parse(reply.body);
			} catch {
				problems.push("an error body that is not JSON");
			}
			for (const [field, type] of [["code", "string"], ["message", "string"], ["hint", "string"]] as const) if (typeof body[field] !== type) problems.push(`error body without ${field}`);
			if (body.ok !== false) problems.push("error body without ok:false");
			if (body.status !== reply.status) problems.push(`error body status ${String(body.status)} for HTTP ${reply.status}`);
		} else if (!mayAnswerWithoutJson(request, reply)) {
			problems.push(`an error answered as "${reply.contentType}"`);
		}
	}
	if (reply.status === 200 && request.route?.path === "/mcp" && isJson) {
		const parsed = JSON.parse(reply.body) as unknown;
		for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
			const error = (message as { error?: { code?: number } }).error;
			if ((message as { jsonrpc?: unknown }).jsonrpc !== "2.0") problems.push("a JSON-RPC answer without jsonrpc 2.0");
			if (error && !ALLOWED_RPC_ERRORS.has(error.code as number)) problems.push(`JSON-RPC error ${String(error.code)}`);
		}
	}
	return problems;
}

/** True when an MCP answer holds no success: every element is a JSON-RPC error or an isError result. */
function mcpRefusedAll(reply: Reply): boolean {
	if (reply.status !== 200) return reply.status >= 400;
	if (!reply.contentType.startsWith("application/json")) return false;
	const parsed = JSON.parse(reply.body) as unknown;
	return (Array.isArray(parsed) ? parsed : [parsed]).every(m => {
		const message = m as { error?: unknown; result?: { isError?: boolean } };
		return message.error !== undefined || message.result?.isError === true;
	});
}

beforeAll(async () => {
	app = await startApp({ env: { TRUST_PROXY: "1", CRAWL_USE_BROWSER: "false", LOG_LEVEL: "warn" } });
	const sessionIds: string[] = [];
	const slugs: string[] = [];
	for (let i = 0; i < 3; i++) {
		const res = await fetch(`${app.baseUrl}/api/tools/sessions`, { method: "POST", headers: { "X-Forwarded-For": `100.80.0.${i + 1}` } });
		const { demo } = await res.json();
		sessionIds.push(demo.session_id);
		slugs.push(demo.slug);
	}
	await fetch(`${app.baseUrl}/api/tools/sessions/${sessionIds[0]}/texts`, {
		method: "POST",
		headers: { "Content-Type": "application/json", "X-Forwarded-For": "100.80.0.9" },
		body: JSON.stringify({ text: "The museum opens at nine and closes at five." })
	});
	const sandbox = (await app.broker.call("chatbots.create", { kind: "sandbox", locale: "en", name: "fuzz.example", limits: { max_urls: 5, max_files: 0, max_chars: 50_000, max_messages: 10, max_pages: 5 }, ttl_ms: 8 * 86_400_000 })) as { _id: string; slug: string };
	slugs.push(sandbox.slug);
	targets = { sessionIds, slugs, sandboxId: sandbox._id };
});
afterAll(() => app?.stop());

it(`${REQUESTS} seeded requests: no 5xx, every error in the SPEC shape, nothing written on refusal, health fine after`, async () => {
	const next = createFuzzer(SEED, targets);
	const failures: string[] = [];
	const counts = { sent: 0, refused: 0, writeChecks: 0, byStatus: new Map<number, number>() };
	const errorLog = jest.spyOn(console, "error");
	const started = Date.now();
	try {
		for (let i = 0; i < REQUESTS; i++) {
			const request = next();
			const createsChatbots = request.method === "POST" && (request.path.startsWith("/mcp") || request.path.split("?")[0] === "/api/tools/sessions");
			const touchesSandbox = request.method === "POST" && request.path.startsWith("/mcp");
			const before = {
				session: request.session !== undefined ? await sessionState(targets.sessionIds[request.session]) : undefined,
				sandbox: touchesSandbox ? await sandboxState() : undefined,
				chatbots: createsChatbots ? await chatbotCount() : undefined
			};
			let reply: Reply;
			try {
				reply = await send(request);
			} catch (err) {
				failures.push(`#${i} ${request.label} ${request.method} ${request.path.slice(0, 80)}: ${(err as Error).message}`);
				continue;
			}
			counts.sent++;
			counts.byStatus.set(reply.status, (counts.byStatus.get(reply.status) ?? 0) + 1);
			const problems = problemsOf(request, reply);
			const refused = touchesSandbox ? mcpRefusedAll(reply) : reply.status >= 400;
			if (refused) {
				counts.refused++;
				if (before.session !== undefined) {
					counts.writeChecks++;
					if ((await sessionState(targets.sessionIds[request.session as number])) !== before.session) problems.push("the refused request changed the demo session");
				}
				if (before.sandbox !== undefined) {
					counts.writeChecks++;
					if ((await sandboxState()) !== before.sandbox) problems.push("the refused request changed the sandbox chatbot");
				}
				if (before.chatbots !== undefined) {
					counts.writeChecks++;
					{ const after = await chatbotCount(); if (after !== before.chatbots) problems.push(`the refused request changed the number of chatbots (${before.chatbots} → ${after})`); }
				}
			}
			if (problems.length) failures.push(`#${i} ${request.label} ${request.method} ${request.path.slice(0, 80)} → ${reply.status} ${reply.body.slice(0, 160)}: ${problems.join("; ")}`);
		}
	} finally {
		errorLog.mockRestore();
	}
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	console.info(
		`fuzz seed ${SEED}: ${counts.sent} requests in ${seconds} s, ${counts.refused} refused, ${counts.writeChecks} write checks; statuses ${JSON.stringify(Object.fromEntries([...counts.byStatus].sort((a, b) => a[0] - b[0])))}`
	);
	expect(failures.slice(0, 20)).toEqual([]);
	expect(errorLog.mock.calls.map(args => args.map(String).join(" ").slice(0, 300)).slice(0, 5)).toEqual([]);
	expect(counts.sent).toBe(REQUESTS);
	expect(counts.writeChecks).toBeGreaterThan(REQUESTS / 10);

	// Health after: plain and JSON, and a normal demo call still works.
	const health = await fetch(`${app.baseUrl}/v2/health`);
	expect([health.status, await health.text()]).toEqual([200, "ok"]);
	const json = await fetch(`${app.baseUrl}/v2/health`, { headers: { Accept: "application/json" } });
	expect(await json.json()).toMatchObject({ status: "ok", database: "ok" });
	const text = await fetch(`${app.baseUrl}/api/tools/sessions/${targets.sessionIds[1]}/texts`, {
		method: "POST",
		headers: { "Content-Type": "application/json", "X-Forwarded-For": "100.80.1.1" },
		body: JSON.stringify({ text: "After the storm the ferry runs every hour." })
	});
	expect(text.status).toBe(200);
}, 110_000);
