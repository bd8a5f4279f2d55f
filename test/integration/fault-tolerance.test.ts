/**
 * Fault test: every service in its own process (the real runner) over a real nats-server and
 * redis-server, sharing one machine's embedded stores (SINGLE_MACHINE). While demo, MCP and chat
 * traffic runs, each service in turn is SIGKILLed and restarted at once (as a container restart
 * would, same NODE_ID). Printed per service: requests made and failed while it was down or
 * recovering, recovery time (kill → its probe ready and a canary touching every service passing),
 * jobs lost (trainings and site crawls accepted that never finished: must be 0) and duplicates
 * (sources or chat messages recorded twice: must be 0).
 * FAULT_ONLY=trainer,vectors limits the kills to those services and FAULT_DEBUG=1 prints each
 * recovery's steps, for investigating one service.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { KNOWN_SERVICES } from "../../config";
import { ask, DemoClient, request } from "../helpers/chat-client";
import { startSite, LoopbackSite, html } from "../helpers/loopback-site";
import { callTool, mcpPost } from "../helpers/mcp-http";
import { freePort, waitForPort } from "../helpers/ports";
import { crashNodeProcess, eventually, NodeProcess, startNodeProcess } from "../helpers/processes";
import { RunningServer, startNats, startRedis } from "../helpers/servers";

type ServiceName = (typeof KNOWN_SERVICES)[number];

interface Node {
	process: NodeProcess;
	opsPort: number;
}

interface Traced {
	at: number;
	ok: boolean;
}

/** A training or crawl the service accepted, to be found finished at the end. */
const isPending = (outcome: string | undefined) => outcome === undefined || outcome.startsWith("pending");

interface AcceptedJob {
	at: number;
	kind: "training" | "site crawl";
	/** "done", "pending" (with what was last seen, after a colon), or what was recorded twice. */
	check(): Promise<string>;
}

let nats: RunningServer;
let redis: RunningServer;
let site: LoopbackSite;
let baseUrl: string;
let port: number;
const nodes = new Map<ServiceName, Node>();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-fault-"));
const traced: Traced[] = [];
const accepted: AcceptedJob[] = [];
let running = true;

const PAGES: Record<string, string> = {
	"/": `<a href="/ferries">Ferries</a><a href="/fares">Fares</a><main><h1>Fjord lines</h1><p>${"The fjord line runs ferries between the islands all year. ".repeat(12)}</p></main>`,
	"/ferries": `<main><h1>Ferries</h1><p>${"The morning ferry leaves at seven from the north pier. ".repeat(12)}</p></main>`,
	"/fares": `<main><h1>Fares</h1><p>${"A single crossing costs nine euros and bicycles ride free. ".repeat(12)}</p></main>`
};

function env(service: ServiceName, opsPort: number): Record<string, string> {
	return {
		SERVICES: service,
		NODE_ID: service,
		TRANSPORTER: nats.url,
		REDIS_URL: redis.url,
		DATA_DIR: dataDir,
		PORT: String(port),
		HOST: "127.0.0.1",
		PUBLIC_URL: baseUrl,
		OPS_PORT: String(opsPort),
		TRUST_PROXY: "1",
		CRAWL_ALLOW_PRIVATE: "true",
		CRAWL_USE_BROWSER: "false",
		JANITOR_INTERVAL_MINUTES: "1",
		DRAIN_TIMEOUT_SECONDS: "5"
	};
}

function start(service: ServiceName, opsPort: number): void {
	nodes.set(service, { process: startNodeProcess("bin/start.ts", env(service, opsPort)), opsPort });
}

async function ready(service: ServiceName): Promise<void> {
	const { opsPort } = nodes.get(service) as Node;
	await eventually(async () => ((await fetch(`http://127.0.0.1:${opsPort}/readyz`)).status === 200 ? true : undefined), 90_000, `${service} to be ready`);
}

/** Runs `work` and records whether it succeeded; never throws. */
async function trace<T>(work: () => Promise<T>, ok: (value: T) => boolean): Promise<T | undefined> {
	const at = Date.now();
	try {
		const value = await work();
		traced.push({ at, ok: ok(value) });
		return value;
	} catch {
		traced.push({ at, ok: false });
		return undefined;
	}
}

const pause = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

/** Demo traffic: a session with one text, trained, asked once; every step is one traced request. */
async function demoFlow(n: number): Promise<void> {
	const token = `harbour${n}x${Date.now() % 100000}`;
	const created = await trace(() => request<{ demo: { session_id: string; slug: string } }>(`${baseUrl}/api/tools/sessions`, { method: "POST", body: {} }), r => r.status === 200);
	if (created?.status !== 200) return;
	const demo = new DemoClient(baseUrl, created.body.demo as never);
	const added = await trace(() => demo.addText(`Pier notes ${n}\n\nThe ${token} ferry ticket office opens at six every morning.`), r => r.status === 200);
	if (added?.status !== 200) return;
	const trained = await trace(() => demo.train(), r => r.status === 200);
	if (trained?.status !== 200) return;
	// Questions sent, and those answered: a message may count without its answer arriving (the
	// gateway died mid-reply), never twice, and never not at all once answered.
	let sent = 0;
	let answered = 0;
	accepted.push({
		at: Date.now(),
		kind: "training",
		async check() {
			const { status, body } = await demo.get();
			if (status !== 200 || !body.demo) return "pending";
			const view = body.demo as unknown as { status: string; sources: { texts: unknown[] }; messages_used: number };
			if (view.sources.texts.length !== 1) return `duplicate: ${view.sources.texts.length} texts in demo ${n}`;
			if (view.messages_used > sent) return `duplicate: ${view.messages_used} messages counted for ${sent} sent in demo ${n}`;
			if (view.messages_used < answered) return `duplicate (inverse): ${view.messages_used} messages counted for ${answered} answered in demo ${n}`;
			return view.status === "ready" ? "done" : `pending: demo ${n} ${view.status}`;
		}
	});
	for (let i = 0; i < 40 && running; i++) {
		const view = await trace(() => demo.get(), r => r.status === 200);
		if (view?.body.demo?.status === "ready") break;
		await pause(500);
	}
	sent++;
	const reply = await trace(() => ask(baseUrl, demo.slug, `When does the ${token} ticket office open?`), r => r.status === 200 && r.body.answer.includes("six"));
	if (reply?.status === 200) answered++;
}

/** MCP traffic: tools/list, and now and then a chatbot built from the loopback site (crawl + training jobs). */
async function mcpFlow(n: number): Promise<void> {
	await trace(() => mcpPost(baseUrl, { jsonrpc: "2.0", id: n, method: "tools/list" }), r => r.status === 200);
	if (n % 4 !== 0) return;
	const created = await trace(() => callTool(baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: "en" }), r => !r.isError);
	const id = created?.data?.chatbot_id as string | undefined;
	if (!id) return;
	accepted.push({
		at: Date.now(),
		kind: "site crawl",
		async check() {
			const got = await callTool(baseUrl, "get_chatbot", { chatbot_id: id });
			const chatbot = got.data as { ready?: boolean; status?: string; failure_reason?: string; pages?: { crawled: number } } | undefined;
			if (!chatbot) return "pending";
			if ((chatbot.pages?.crawled ?? 0) > Object.keys(PAGES).length) return `duplicate: ${chatbot.pages?.crawled} pages crawled of ${Object.keys(PAGES).length}`;
			// A chatbot that ended failed is reported as lost too, with its reason: the crawl should have survived.
			return chatbot.ready ? "done" : `pending: ${id} ${chatbot.status ?? "?"} ${chatbot.failure_reason ?? ""} (${chatbot.pages?.crawled ?? 0} pages crawled)`;
		}
	});
}

async function loop(flow: (n: number) => Promise<void>, gapMs: number): Promise<void> {
	for (let n = 1; running; n++) {
		// A flow's own failures are traced; anything else it throws is a defect of the test itself.
		await flow(n);
		await pause(gapMs);
	}
}

/** A request through the gateway to every service that answers synchronously; throws until all pass. */
async function canary(): Promise<true> {
	const expectStatus = async (what: string, res: Promise<Response | { status: number }>, wanted: number[]) => {
		const status = (await res).status;
		if (!wanted.includes(status)) throw new Error(`${what} answered ${status}`);
	};
	await expectStatus("health", fetch(`${baseUrl}/v2/health`), [200]);
	await expectStatus("openapi", fetch(`${baseUrl}/openapi.json`), [200]);
	await expectStatus("log-in page", fetch(`${baseUrl}/account/login`), [200]);
	await expectStatus("billing page", fetch(`${baseUrl}/account/billing`, { redirect: "manual" }), [303]);
	await expectStatus("telegram webhook", fetch(`${baseUrl}/webhooks/telegram/00000000-0000-4000-8000-000000000000`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }), [404]);
	await expectStatus("mcp", mcpPost(baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/list" }), [200]);
	const demo = await DemoClient.create(baseUrl);
	await expectStatus("add url", demo.addUrl(`${site.origin}/fares`), [200]);
	await expectStatus("add file", demo.addFile("notes.txt", "text/plain", Buffer.from("Lockers at the terminal cost two euros a day.")), [200]);
	await expectStatus("train", demo.train(), [200]);
	await demo.until(d => d.status === "ready" && !d.needs_retrain, "the canary demo to be ready", 20_000);
	const reply = await ask(baseUrl, demo.slug, "How much does a single crossing cost?");
	if (reply.status !== 200 || !reply.body.answer.includes("nine euros")) throw new Error(`chat answered ${reply.status}`);
	return true;
}

beforeAll(async () => {
	[nats, redis] = await Promise.all([startNats(), startRedis()]);
	site = await startSite(Object.fromEntries(Object.entries(PAGES).map(([p, body]) => [p, html(`<!doctype html><html><head><title>${p}</title></head><body>${body}</body></html>`)])));
	port = await freePort();
	baseUrl = `http://127.0.0.1:${port}`;
	for (const service of KNOWN_SERVICES) start(service, await freePort());
	await waitForPort(port, 120_000).catch((err: Error) => {
		// Say why: a gateway that exited (a port taken, a start-up error) tells it in its output.
		const gateway = (nodes.get("gateway") as Node).process;
		const state = gateway.child.exitCode === null && gateway.child.signalCode === null ? "still runs" : `exited (${gateway.child.exitCode ?? gateway.child.signalCode})`;
		throw new Error(`${err.message}; the gateway process ${state}; its output ends:\n${gateway.output().slice(-2000)}`);
	});
	for (const service of KNOWN_SERVICES) await ready(service);
	await eventually(canary, 120_000, "the cluster to answer");
}, 240_000);

afterAll(async () => {
	running = false;
	await Promise.all([...nodes.values()].map(node => node.process.stop("SIGKILL")));
	await site?.stop();
	await redis?.stop();
	await nats?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

it("survives each service being killed and restarted: no job lost, nothing done twice", async () => {
	const began = Date.now();
	const traffic = [loop(demoFlow, 100), loop(demoFlow, 300), loop(mcpFlow, 200)];
	await pause(2_000);

	const windows: Array<{ service: ServiceName; from: number; to: number; recoveryMs: number }> = [];
	const victims = process.env.FAULT_ONLY ? (process.env.FAULT_ONLY.split(",") as ServiceName[]) : KNOWN_SERVICES;
	for (const service of victims) {
		const node = nodes.get(service) as Node;
		const killedAt = Date.now();
		await crashNodeProcess(node.process);
		start(service, node.opsPort);
		await ready(service);
		const readyAt = Date.now();
		let lastProblem = "";
		await eventually(() => canary().catch(err => { lastProblem = (err as Error).message; throw err; }), 90_000, `the canary after restarting ${service}`);
		const recoveredAt = Date.now();
		if (process.env.FAULT_DEBUG) process.stdout.write(`${service}: ready ${readyAt - killedAt} ms, canary ${recoveredAt - readyAt} ms; last problem: ${lastProblem}\n`);
		await pause(1_000); // traffic after recovery belongs to this window too
		windows.push({ service, from: killedAt, to: Date.now(), recoveryMs: recoveredAt - killedAt });
	}
	running = false;
	await Promise.all(traffic);

	// Every job accepted must finish (a killed worker's job is redelivered or re-sent by the janitor).
	const outcomes = new Map<AcceptedJob, string>();
	await eventually(
		async () => {
			for (const job of accepted) if (outcomes.get(job) !== "done") outcomes.set(job, await job.check().catch(() => "pending"));
			return [...outcomes.values()].every(o => !isPending(o)) ? true : undefined;
		},
		150_000,
		"every accepted job to finish"
	).catch(() => undefined); // what is still pending is reported as lost below

	const rows = windows.map(w => {
		const inWindow = (at: number) => at >= w.from && at < w.to;
		const requests = traced.filter(t => inWindow(t.at));
		const jobs = accepted.filter(j => inWindow(j.at));
		return {
			service: w.service,
			requests: requests.length,
			failed: requests.filter(r => !r.ok).length,
			recovery_s: Number((w.recoveryMs / 1000).toFixed(1)),
			jobs: jobs.length,
			jobs_lost: jobs.filter(j => isPending(outcomes.get(j))).length,
			duplicates: jobs.filter(j => outcomes.get(j)?.startsWith("duplicate")).length
		};
	});
	const header = "service        requests  failed  recovery s  jobs  jobs lost  duplicates";
	const lines = rows.map(r => `${r.service.padEnd(14)} ${String(r.requests).padStart(8)} ${String(r.failed).padStart(7)} ${String(r.recovery_s).padStart(11)} ${String(r.jobs).padStart(5)} ${String(r.jobs_lost).padStart(10)} ${String(r.duplicates).padStart(11)}`);
	const lost = [...outcomes.values()].filter(isPending).length;
	const duplicated = [...outcomes.values()].filter(o => o.startsWith("duplicate"));
	const duplicates = duplicated.length;
	process.stdout.write(
		`\nfault test (${((Date.now() - began) / 1000).toFixed(0)} s, ${traced.length} requests, ${accepted.length} jobs accepted (${accepted.filter(j => j.kind === "training").length} trainings, ${accepted.filter(j => j.kind === "site crawl").length} site crawls), ${lost} lost, ${duplicates} duplicated)\n${header}\n${lines.join("\n")}\n`
	);

	expect(accepted.length).toBeGreaterThan(KNOWN_SERVICES.length);
	// The pending jobs with what was last seen of them (a crawl lost once in a clean-clone run).
	expect([...outcomes.values()].filter(isPending)).toEqual([]);
	expect(duplicated).toEqual([]);
	expect(traced.filter(t => t.ok).length).toBeGreaterThan(traced.length / 2);
}, 600_000);
