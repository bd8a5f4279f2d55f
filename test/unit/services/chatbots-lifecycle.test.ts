/**
 * The chatbots service as owner of the lifecycle, on a broker with small fake peers: a crawler, a
 * trainer and an extractor that record what they are asked and answer as the test says. The
 * chatbots service is the real one (its documents in a temporary directory); what is tested is its
 * decisions: which worker it asks for what, when, and what it does when a worker is missing.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Context, ServiceBroker, ServiceSchema } from "moleculer";
// NeDB's own update operator code, so the transition is applied exactly as the store applies it.
import { modify } from "@seald-io/nedb/lib/model";
import { loadConfig } from "../../../config";
import type { Chatbot, ChatbotLimits, Source } from "../../../lib/chatbots/model";
import { crawlEnded } from "../../../lib/chatbots/lifecycle";
import { chatbotState } from "../../../lib/chatbots/status";
import createChatbotsService from "../../../services/chatbots.service";
import type { SweepResult } from "../../../services/chatbots/types";

const LIMITS: ChatbotLimits = { max_urls: 5, max_files: 3, max_chars: 50_000, max_messages: 10, max_pages: 5 };

interface Recorded {
	action: string;
	params: Record<string, unknown>;
}

let dataDir: string;
let broker: ServiceBroker;
let calls: Recorded[] = [];
/** What the fake trainer's `job` answers for a job id (undefined: no such job). */
let trainerJobs: Record<string, { status: string; error?: string }> = {};

/** A fake peer whose actions record their params and return `answer(params, ctx)`. */
function fakePeer(name: string, answers: Record<string, (params: Record<string, unknown>, ctx: Context<Record<string, unknown>>) => unknown>): ServiceSchema {
	const actions: ServiceSchema["actions"] = {};
	for (const [action, answer] of Object.entries(answers)) {
		actions[action] = (ctx: Context<Record<string, unknown>>) => {
			calls.push({ action: `${name}.${action}`, params: ctx.params });
			return answer(ctx.params, ctx);
		};
	}
	return { name, actions };
}

let runs = 0;
const crawler = () => fakePeer("crawler", { startSiteCrawl: () => ({ queued: true }) });
/** Starts runs as the real trainer does: it reports each to the chatbots service, and they stay running. */
const trainer = () =>
	fakePeer("trainer", {
		async start(params, ctx) {
			const { chatbot } = await ctx.call<{ chatbot: Chatbot }, object>("chatbots.trainingInput", { id: params.chatbot_id });
			const job_id = `fake-run-${++runs}`;
			await ctx.call("chatbots.trainingStarted", { id: chatbot._id, job_id, generation: 100 + runs, sources_version: chatbot.sources_version, supersede: params.supersede });
			return { started: true, job_id };
		},
		job: params => trainerJobs[String(params.job_id)] ?? null
	});
const extractor = () => fakePeer("extractor", { enqueue: () => ({ queued: true }) });

/** The calls of `action`, about one chatbot when `chatbotId` is given. */
const callsTo = (action: string, chatbotId?: string) => calls.filter(c => c.action === action && (chatbotId === undefined || c.params.chatbot_id === chatbotId));
const call = <T>(action: string, params: object = {}) => broker.call(action, params) as Promise<T>;
const load = async (id: string) => (await call<{ chatbot: Chatbot; sources: Source[] }>("chatbots.get", { id })).chatbot;

/** Adds a peer and waits until it serves; `pollMs` is how often the wait looks (moleculer's default is a second). */
async function withPeer(schema: ServiceSchema, pollMs?: number): Promise<void> {
	broker.createService(schema);
	await broker.waitForServices([schema.name], 0, pollMs);
}

async function withoutPeer(name: string): Promise<void> {
	const service = broker.getLocalService(name);
	if (service) await broker.destroyService(service);
}

function sandboxFromSite(then_train = true) {
	return call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: LIMITS, ttl_ms: 3_600_000, crawl: { url: "https://example.com/", then_train } });
}

function addText(id: string, train = false) {
	return call<Source>("chatbots.addSource", { id, kind: "text", status: "ready", text: "The warranty lasts 37 months.", ...(train ? { train: true } : {}) });
}

beforeAll(async () => {
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-lifecycle-"));
	broker = new ServiceBroker({ logger: false, validator: true });
	broker.createService(createChatbotsService(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" })));
	await broker.start();
});

afterAll(async () => {
	await broker?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(async () => {
	for (const name of ["crawler", "trainer", "extractor"]) await withoutPeer(name);
	calls = [];
	trainerJobs = {};
});

describe("a chatbot built from a website", () => {
	it("is created with its crawl queued, handed to the crawler at once with its page budget", async () => {
		await withPeer(crawler());
		const created = await sandboxFromSite();
		expect(created.crawl).toMatchObject({ status: "queued", start_url: "https://example.com/", max_pages: 5, then_train: true });
		expect(callsTo("crawler.startSiteCrawl").map(c => c.params)).toEqual([{ chatbot_id: created._id, url: "https://example.com/", max_pages: 5 }]);
	});

	it("created while no crawler runs, keeps its crawl queued and hands it over when a crawler joins", async () => {
		const created = await sandboxFromSite();
		expect(chatbotState(await load(created._id)).phase).toBe("crawling");
		await withPeer(crawler());
		const sweep = await call<SweepResult>("chatbots.sweep");
		expect(sweep.crawls).toBeGreaterThanOrEqual(1);
		expect(callsTo("crawler.startSiteCrawl").some(c => c.params.chatbot_id === created._id)).toBe(true);
	});

	it("trains once the crawl is over, not before; knowledge added meanwhile waits for the crawl", async () => {
		await withPeer(crawler());
		await withPeer(trainer());
		const { _id } = await sandboxFromSite();
		await call("chatbots.crawlProgress", { id: _id, found: 3, crawled: 1, failed: 0 });
		await addText(_id, true); // a page, or an agent's add_knowledge_text, while the crawl runs
		expect(callsTo("trainer.start", _id)).toEqual([]);
		await call("chatbots.crawlFinished", { id: _id, found: 3, crawled: 2, failed: 1 });
		expect(callsTo("trainer.start", _id).map(c => c.params)).toEqual([{ chatbot_id: _id, supersede: false }]);
	});

	it("a crawl that asked for no training ends idle; one that read nothing ends failed, and neither trains", async () => {
		await withPeer(trainer());
		const quiet = await sandboxFromSite(false);
		await addText(quiet._id);
		await call("chatbots.crawlFinished", { id: quiet._id, found: 1, crawled: 1, failed: 0 });
		expect(chatbotState(await load(quiet._id)).phase).toBe("idle");

		const empty = await sandboxFromSite(true);
		await call("chatbots.crawlFinished", { id: empty._id, found: 2, crawled: 0, failed: 2 });
		expect(chatbotState(await load(empty._id))).toMatchObject({ phase: "failed", failure_reason: expect.stringMatching(/could not be crawled/) });
		expect([...callsTo("trainer.start", quiet._id), ...callsTo("trainer.start", empty._id)]).toEqual([]);
	});

	it("ends its crawl and asks for training in one write, so no reader sees it idle in between", async () => {
		const { _id } = await sandboxFromSite();
		await addText(_id);
		const crawling = await load(_id);
		const ended = crawlEnded(_id, { found: 1, crawled: 1, failed: 0 }, Date.now(), crawling.sources_version);
		const afterOneWrite = modify(crawling, ended.update);
		expect(afterOneWrite).toMatchObject({ crawl: { status: "done" }, train_pending: true, train_target: crawling.sources_version });
		expect(chatbotState(afterOneWrite).phase).toBe("training");
		// Without a training request the same write leaves it idle, which is what `then_train: false` means.
		expect(chatbotState(modify(crawling, crawlEnded(_id, { found: 1, crawled: 1, failed: 0 }, Date.now(), null).update)).phase).toBe("idle");
	});

	it("never shows a trained-for change with nothing under way: the crawl's end and a source added with train carry their request", async () => {
		// Every write to the chatbot's document is recorded with the state a reader would see right after it.
		const service = broker.getLocalService("chatbots") as unknown as { chatbots: { update(q: object, u: object): Promise<number> } };
		const store = service.chatbots;
		const original = store.update.bind(store);
		const phasesSeen: string[] = [];
		let watched = "";
		store.update = async (query, update) => {
			const n = await original(query, update);
			if ((query as { _id?: string })._id === watched) phasesSeen.push(chatbotState(await load(watched)).phase);
			return n;
		};
		try {
			// No trainer runs, so each request stays in the data.
			const crawled = await sandboxFromSite();
			watched = crawled._id;
			await call("chatbots.crawlProgress", { id: watched, found: 1, crawled: 0, failed: 0 });
			await call("chatbots.addSource", { id: watched, kind: "url", status: "ready", url: "https://example.com/", title: "Home", text: "The warranty lasts 37 months." });
			await call("chatbots.crawlFinished", { id: watched, found: 1, crawled: 1, failed: 0 });
			expect(phasesSeen.at(-1)).toBe("training");
			expect(phasesSeen.filter(phase => phase === "idle" || phase === "failed")).toEqual([]);

			const added = await call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: LIMITS, ttl_ms: 3_600_000 });
			watched = added._id;
			phasesSeen.length = 0;
			await addText(watched, true);
			expect(phasesSeen).toEqual(expect.arrayContaining(["training"]));
			expect(phasesSeen.filter(phase => phase === "idle" || phase === "failed")).toEqual([]);
		} finally {
			store.update = original;
		}
	});

	it("whose crawl ends while no trainer runs, is trained when a trainer joins (the sweep)", async () => {
		const { _id } = await sandboxFromSite();
		await addText(_id);
		await call("chatbots.crawlFinished", { id: _id, found: 1, crawled: 1, failed: 0 });
		const waiting = await load(_id);
		expect(waiting).toMatchObject({ train_pending: true, training: null });
		expect(chatbotState(waiting).phase).toBe("training");

		await withPeer(trainer());
		await call<SweepResult>("chatbots.sweep");
		expect(callsTo("trainer.start", _id).map(c => c.params)).toEqual([{ chatbot_id: _id, supersede: false }]);
		expect(await load(_id)).toMatchObject({ train_pending: false, training: { sources_version: 1 } });
	});

	it("hands waiting training out once when sweeps are asked for at the same time (a joining service's and the janitor's)", async () => {
		const { _id } = await sandboxFromSite();
		await addText(_id);
		await call("chatbots.crawlFinished", { id: _id, found: 1, crawled: 1, failed: 0 });
		// Looked for every 10 ms, the trainer is there before the sweep its joining scheduled (a second later) runs.
		await withPeer(trainer(), 10);
		await Promise.all([call<SweepResult>("chatbots.sweep"), call<SweepResult>("chatbots.sweep"), call<SweepResult>("chatbots.sweep")]);
		expect(callsTo("trainer.start", _id)).toHaveLength(1);
		expect(await load(_id)).toMatchObject({ train_pending: false, training: { sources_version: 1 } });
	});
});

describe("training runs", () => {
	it("knowledge added during a run starts another run when it finishes", async () => {
		await withPeer(trainer());
		const { _id } = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: "acct-runs" });
		await addText(_id);
		await call("chatbots.trainingStarted", { id: _id, job_id: "run-1", generation: 1, sources_version: 1, supersede: false });
		await addText(_id, true);
		expect(callsTo("trainer.start", _id)).toEqual([]); // one run at a time
		await call("chatbots.trainingFinished", { id: _id, job_id: "run-1", outcome: "done" });
		expect(callsTo("trainer.start", _id).map(c => c.params)).toEqual([{ chatbot_id: _id, supersede: false }]);
		expect(await load(_id)).toMatchObject({ generation: 1, trained_version: 1, train_pending: false, training: { sources_version: 2 } });
	});

	it("a run that failed for good is not retried by the sweep; new knowledge asks again", async () => {
		await withPeer(trainer());
		const { _id } = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: "acct-fail" });
		await addText(_id, true); // the fake trainer starts a run
		const { training } = await load(_id);
		await call("chatbots.trainingFinished", { id: _id, job_id: training?.job_id, outcome: "failed", error: "The run was given up." });
		await call("chatbots.sweep");
		expect(callsTo("trainer.start", _id)).toHaveLength(1);
		expect(chatbotState(await load(_id))).toMatchObject({ phase: "failed", failure_reason: expect.stringMatching(/The run was given up/) });
		await addText(_id, true);
		expect(callsTo("trainer.start", _id)).toHaveLength(2);
	});

	it("a run whose job the trainer no longer has is closed by the sweep, and a done one is taken as done", async () => {
		await withPeer(trainer());
		const lost = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: "acct-lost" });
		const finished = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: "acct-lost" });
		for (const [chatbot, job] of [[lost, "run-lost"], [finished, "run-done"]] as const) {
			await addText(chatbot._id);
			await call("chatbots.trainingStarted", { id: chatbot._id, job_id: job, generation: 9, sources_version: 1, supersede: false });
		}
		trainerJobs = { "run-done": { status: "done" } };
		const early = await call<SweepResult>("chatbots.sweep", { now: Date.now() });
		expect(early.lostRuns).toBe(0); // too young to suspect
		const late = await call<SweepResult>("chatbots.sweep", { now: Date.now() + 11 * 60_000 });
		expect(late.lostRuns).toBeGreaterThanOrEqual(2); // runs the fake trainer started in earlier tests count too
		expect(await load(lost._id)).toMatchObject({ training: null, generation: 0, training_error: "The training run was lost." });
		expect(await load(finished._id)).toMatchObject({ training: null, generation: 9, trained_version: 1 });
	});
});

describe("files", () => {
	it("a pending file is queued for extraction; training asked for waits until its text is in", async () => {
		await withPeer(extractor());
		await withPeer(trainer());
		const { _id } = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: "acct-files" });
		await addText(_id);
		const file = await call<Source>("chatbots.addSource", { id: _id, kind: "file", status: "pending", file_name: "a.txt", storage_key: `account/${_id}/k/a.txt`, content_type: "text/plain", train: true });
		expect(callsTo("extractor.enqueue", _id).map(c => c.params)).toEqual([{ chatbot_id: _id, source_id: file._id }]);
		expect(callsTo("trainer.start", _id)).toEqual([]);
		await call("chatbots.sourceExtracted", { id: _id, source_id: file._id, text: "Shipping is free inside Norway." });
		expect(callsTo("trainer.start", _id).map(c => c.params)).toEqual([{ chatbot_id: _id, supersede: false }]);
	});

	it("a file attached while no extractor runs is queued by the sweep once it is an orphan", async () => {
		const { _id } = await call<Chatbot>("chatbots.create", { kind: "demo", locale: "en", limits: LIMITS, ttl_ms: 3_600_000 });
		const file = await call<Source>("chatbots.addSource", { id: _id, kind: "file", status: "pending", file_name: "b.txt", storage_key: `demo/${_id}/k/b.txt`, content_type: "text/plain" });
		await withPeer(extractor());
		expect((await call<SweepResult>("chatbots.sweep", { now: Date.now() })).files).toBe(0);
		expect((await call<SweepResult>("chatbots.sweep", { now: Date.now() + 11 * 60_000 })).files).toBeGreaterThanOrEqual(1);
		expect(callsTo("extractor.enqueue").some(c => c.params.source_id === file._id)).toBe(true);
	});
});

describe("reaching a chatbot", () => {
	it("an owner reaches only its own chatbots; anonymous callers only unclaimed sandboxes", async () => {
		const owned = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: "acct-a" });
		const sandbox = await call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: LIMITS, ttl_ms: 3_600_000 });
		const typeOf = (p: Promise<unknown>) => p.then(() => "ok", (err: { type?: string }) => err.type);
		expect(await typeOf(call("chatbots.get", { id: owned._id, owner: { account_id: "acct-a" } }))).toBe("ok");
		expect(await typeOf(call("chatbots.get", { id: owned._id, owner: { account_id: "acct-b" } }))).toBe("not_found");
		expect(await typeOf(call("chatbots.get", { id: owned._id, owner: { account_id: null } }))).toBe("not_found");
		expect(await typeOf(call("chatbots.get", { id: sandbox._id, owner: { account_id: null } }))).toBe("ok");
		expect(await typeOf(call("chatbots.addSource", { id: owned._id, kind: "text", status: "ready", text: "x", owner: { account_id: "acct-b" } }))).toBe("not_found");
		expect((await load(owned._id)).counts.chars).toBe(0); // the refused add wrote nothing
	});
});
