/**
 * The data layer, one suite run against every document engine: the chatbots service's actions on a
 * real broker (atomic cap gates under concurrency, character gating of extracted files, the message
 * cap, expiry and removal) and the durable-job queries the crawler and extractor rely on.
 *
 * NeDB (the embedded default) always runs. MongoDB runs when MONGO_TEST_URI points at a server (no
 * MongoDB can be installed here); each run uses a fresh database that is dropped afterwards.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Service, ServiceBroker } from "moleculer";
import { loadConfig } from "../../config";
import type { Chatbot, ChatbotLimits, Source } from "../../lib/chatbots/model";
import { claimJob, JobDoc, markSent, newJobFields, renewLease, staleJobsQuery, UNSENT_GRACE_MS } from "../../lib/jobs/durable-job";
import { COLLECTION_INDEXES } from "../../lib/storage/collection-indexes";
import { createDbMixin, DocumentCollection } from "../../mixins/db.mixin";
import createChatbotsService from "../../services/chatbots.service";

const LIMITS: ChatbotLimits = { max_urls: 3, max_files: 3, max_chars: 50_000, max_messages: 20, max_pages: 3 };

interface Engine {
	name: string;
	env(dataDir: string): Record<string, string>;
	/** Drops what the run stored (MongoDB); NeDB files go with the data directory. */
	drop?(): Promise<void>;
	/** The fields the engine holds an index on, read from a service's moleculer-db adapter. */
	indexedFields(adapter: unknown): Promise<string[]>;
}

/** NeDB's in-memory indexes, by field; each answers `getMatching` for an equality lookup. */
type NedbIndexes = Record<string, { getMatching(value: unknown): unknown[] }>;

function nedbIndexes(adapter: unknown): NedbIndexes {
	return (adapter as { db: { indexes: NedbIndexes } }).db.indexes;
}

const ENGINES: Engine[] = [{ name: "NeDB", env: () => ({}), indexedFields: async adapter => Object.keys(nedbIndexes(adapter)) }];
const mongoTestUri = process.env.MONGO_TEST_URI;
if (mongoTestUri) {
	const database = `cbb_data_layer_${process.pid}_${Date.now()}`;
	ENGINES.push({
		name: "MongoDB",
		env: () => {
			const uri = new URL(mongoTestUri);
			uri.pathname = `/${database}`;
			return { MONGO_URI: uri.toString() };
		},
		async drop() {
			const mongoose = (await import("mongoose")).default;
			await mongoose.connection.db?.dropDatabase();
		},
		async indexedFields(adapter) {
			const model = (adapter as { model: { collection: { indexes(): Promise<Array<{ key: Record<string, unknown> }>> } } }).model;
			return (await model.collection.indexes()).flatMap(index => Object.keys(index.key));
		}
	});
} else {
	console.info("Data-layer suite: the MongoDB run was skipped (set MONGO_TEST_URI=mongodb://... to run it).");
}

type TestJob = JobDoc & { payload: string };

/** Error `type` of a rejected call (the stable code callers branch on). */
async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
	return promise.then(
		() => undefined,
		(err: { type?: string }) => err.type
	);
}

function dataLayerSuite(engine: Engine): void {
	describe(`data layer on ${engine.name}`, () => {
		let dataDir: string;
		let broker: ServiceBroker;
		let jobs: DocumentCollection<TestJob>;
		/** The chatbots service's clock; tests move it to expire chatbots. */
		let clock = Date.now();
		const call = <T>(action: string, params: object) => broker.call(action, params) as Promise<T>;
		const newChatbot = (limits: ChatbotLimits = LIMITS, ttl_ms = 3_600_000) => call<Chatbot>("chatbots.create", { kind: "demo", locale: "en", limits, ttl_ms });
		const addText = (id: string, chars: number) => call<Source>("chatbots.addSource", { id, kind: "text", status: "ready", text: "x".repeat(chars) });
		const addPendingFile = (id: string, name: string) =>
			call<Source>("chatbots.addSource", { id, kind: "file", status: "pending", file_name: name, storage_key: `demo/${id}/u-${name}/${name}`, content_type: "text/plain" });
		const state = (id: string) => call<{ chatbot: Chatbot; sources: Source[] }>("chatbots.get", { id });

		beforeAll(async () => {
			dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-data-layer-"));
			const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error", ...engine.env(dataDir) });
			broker = new ServiceBroker({ logger: false, validator: true });
			broker.createService(createChatbotsService(config, { now: () => clock }));
			const jobStore = broker.createService({ name: "job-documents", mixins: [createDbMixin(config, "suite_jobs")] }) as Service & { documents: DocumentCollection<TestJob> };
			await broker.start();
			jobs = jobStore.documents;
		});

		afterAll(async () => {
			await engine.drop?.();
			await broker?.stop();
			fs.rmSync(dataDir, { recursive: true, force: true });
		});

		it("creates a chatbot with zero counters and reads it back", async () => {
			const created = await newChatbot();
			expect(created).toMatchObject({
				kind: "demo",
				generation: 0,
				training: null,
				train_pending: false,
				crawl: { status: "idle" },
				limits: LIMITS,
				counts: { urls: 0, files: 0, chars: 0, messages: 0 }
			});
			expect(created.expires_at).toBe(clock + 3_600_000);
			const { chatbot, sources } = await state(created._id);
			expect(chatbot).toEqual(created);
			expect(sources).toEqual([]);
			expect(await call<Chatbot | null>("chatbots.findBySlug", { slug: created.slug })).toEqual(created);
		});

		it("12 simultaneous 6,000-character texts: exactly 8 pass the gate, 4 are char_cap, 48,000 used", async () => {
			const { _id } = await newChatbot();
			const outcomes = await Promise.all(Array.from({ length: 12 }, () => refusal(addText(_id, 6000))));
			expect(outcomes.filter(o => o === undefined)).toHaveLength(8);
			expect(outcomes.filter(o => o === "char_cap")).toHaveLength(4);
			const { chatbot, sources } = await state(_id);
			expect(chatbot.counts.chars).toBe(48_000);
			expect(sources).toHaveLength(8);
			expect(chatbot.sources_version).toBe(8);
		});

		it("the URL and file caps refuse the fourth, under concurrency, writing nothing", async () => {
			const { _id } = await newChatbot();
			const urls = await Promise.all(
				["a", "b", "c", "d", "e"].map(p => refusal(call("chatbots.addSource", { id: _id, kind: "url", status: "ready", url: `https://example.com/${p}`, text: `Page ${p}` })))
			);
			expect(urls.filter(o => o === undefined)).toHaveLength(3);
			expect(urls.filter(o => o === "url_cap")).toHaveLength(2);
			const files = await Promise.all(["1", "2", "3", "4"].map(n => refusal(addPendingFile(_id, `f${n}.txt`))));
			expect(files.filter(o => o === undefined)).toHaveLength(3);
			expect(files.filter(o => o === "file_cap")).toHaveLength(1);
			const { chatbot, sources } = await state(_id);
			expect(chatbot.counts).toMatchObject({ urls: 3, files: 3 });
			expect(sources.filter(s => s.kind === "url")).toHaveLength(3);
			expect(sources.filter(s => s.kind === "file")).toHaveLength(3);
			expect(await refusal(call("chatbots.precheck", { id: _id, kind: "url", chars: 0 }))).toBe("url_cap");
		});

		it("sourceExtracted gates extracted characters: over budget fails char_cap; it is idempotent", async () => {
			const { _id } = await newChatbot({ ...LIMITS, max_files: 10 });
			await addText(_id, 45_000);
			const big = await addPendingFile(_id, "big.txt");
			expect(await call<{ updated: boolean }>("chatbots.sourceProcessing", { id: _id, source_id: big._id })).toEqual({ updated: true });
			const failed = await call<Source>("chatbots.sourceExtracted", { id: _id, source_id: big._id, text: "y".repeat(6000) });
			expect(failed).toMatchObject({ status: "failed", char_count: 0, failure: { code: "char_cap" } });
			// A finished source is left alone, whatever arrives later.
			expect(await call<Source>("chatbots.sourceExtracted", { id: _id, source_id: big._id, text: "small" })).toMatchObject({ status: "failed" });
			expect(await call<{ updated: boolean }>("chatbots.sourceProcessing", { id: _id, source_id: big._id })).toEqual({ updated: false });

			// Three files completing at once with 5,000 characters left: only one of 3,000 fits.
			const pending = await Promise.all(["p1.txt", "p2.txt", "p3.txt"].map(n => addPendingFile(_id, n)));
			const completed = await Promise.all(pending.map(s => call<Source>("chatbots.sourceExtracted", { id: _id, source_id: s._id, text: "z".repeat(3000) })));
			expect(completed.map(s => s.status).sort()).toEqual(["failed", "failed", "ready"]);
			expect(completed.filter(s => s.status === "failed").map(s => s.failure?.code)).toEqual(["char_cap", "char_cap"]);
			const { chatbot, sources } = await state(_id);
			expect(chatbot.counts.chars).toBe(48_000);
			expect(sources.filter(s => s.kind === "file" && s.status === "ready").map(s => s.char_count)).toEqual([3000]);

			const blank = await addPendingFile(_id, "blank.txt");
			expect(await call<Source>("chatbots.sourceExtracted", { id: _id, source_id: blank._id, text: "  \n " })).toMatchObject({ status: "failed", failure: { code: "empty" } });
			const failedOnPurpose = await call<Source>("chatbots.sourceFailed", { id: _id, source_id: blank._id, code: "unreadable", message: "too late" });
			expect(failedOnPurpose.failure?.code).toBe("empty"); // first outcome wins
		});

		it("an account's chatbot count is a reservation: 12 simultaneous creates against 3 give exactly 3", async () => {
			const account = `acct-${engine.name}-${Date.now()}`;
			const create = () => refusal(call("chatbots.create", { kind: "account", locale: "en", limits: LIMITS, account_id: account, max_chatbots: 3 }));
			const outcomes = await Promise.all(Array.from({ length: 12 }, create));
			expect(outcomes.filter(o => o === undefined)).toHaveLength(3);
			expect(outcomes.filter(o => o === "forbidden")).toHaveLength(9);
			const owned = await call<Chatbot[]>("chatbots.listByAccount", { account_id: account });
			expect(owned).toHaveLength(3);
			// Removing one gives its slot back; claiming a sandbox takes one, and a refused claim gives it back.
			await call("chatbots.remove", { id: owned[0]._id });
			const claimHash = "c".repeat(64);
			const sandbox = await call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: LIMITS, ttl_ms: 3_600_000, claim_hash: claimHash });
			const claims = await Promise.all(Array.from({ length: 3 }, () => refusal(call("chatbots.claim", { id: sandbox._id, claim_hash: claimHash, account_id: account, limits: LIMITS, max_chatbots: 3 }))));
			expect(claims.filter(o => o === undefined)).toHaveLength(1);
			expect(claims.filter(o => o === "not_found" || o === "forbidden")).toHaveLength(2);
			expect(await call<Chatbot[]>("chatbots.listByAccount", { account_id: account })).toHaveLength(3);
			expect(await create()).toBe("forbidden");
		});

		it("training runs: an automatic start waits for the running one, an explicit one replaces it, only the current run finishes", async () => {
			const { _id } = await newChatbot();
			await addText(_id, 100);
			const started = (job_id: string, generation: number, supersede: boolean) =>
				refusal(call("chatbots.trainingStarted", { id: _id, job_id, generation, sources_version: 1, supersede }));
			expect(await started("job-a", 10, false)).toBeUndefined();
			expect(await started("job-b", 11, false)).toBe("conflict");
			expect(await started("job-c", 12, true)).toBeUndefined();
			expect(await call("chatbots.trainingFinished", { id: _id, job_id: "job-a", outcome: "done" })).toMatchObject({ updated: false });
			expect((await state(_id)).chatbot).toMatchObject({ generation: 0, training: { job_id: "job-c" } });
			expect(await call("chatbots.trainingFinished", { id: _id, job_id: "job-c", outcome: "done" })).toMatchObject({ updated: true, generation: 12 });
			expect((await state(_id)).chatbot).toMatchObject({ generation: 12, trained_version: 1, training: null, training_error: null });
			// A failed run leaves the previous index answering and records why.
			expect(await started("job-d", 13, false)).toBeUndefined();
			await call("chatbots.trainingFinished", { id: _id, job_id: "job-d", outcome: "failed", error: "The vectors service did not answer." });
			expect((await state(_id)).chatbot).toMatchObject({ generation: 12, training: null, training_error: "The vectors service did not answer." });
		});

		it("a site crawl reports progress and its end; only a queued or running crawl moves", async () => {
			const created = await call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: LIMITS, ttl_ms: 3_600_000, crawl: { url: "https://example.com/", then_train: true } });
			expect(created.crawl).toMatchObject({ status: "queued", start_url: "https://example.com/", max_pages: LIMITS.max_pages, then_train: true });
			expect(await call("chatbots.crawlProgress", { id: created._id, found: 4, crawled: 1, failed: 0 })).toEqual({ updated: true });
			await addText(created._id, 100); // the page the crawl stored
			expect(await call("chatbots.crawlFinished", { id: created._id, found: 4, crawled: 1, failed: 2 })).toEqual({ updated: true });
			const { chatbot } = await state(created._id);
			expect(chatbot.crawl).toMatchObject({ status: "done", found: 4, crawled: 1, failed: 2 });
			// The crawl asked for training: the request is data, waiting for a trainer.
			expect(chatbot).toMatchObject({ train_pending: true, train_target: chatbot.sources_version, training: null });
			expect(await call("chatbots.crawlProgress", { id: created._id, found: 9, crawled: 9, failed: 0 })).toEqual({ updated: false });
			expect(await call("chatbots.crawlFinished", { id: created._id, found: 9, crawled: 9, failed: 0 })).toEqual({ updated: false });
			expect((await state(created._id)).chatbot.crawl.crawled).toBe(1);
		});

		it("countMessage stops exactly at the cap, under concurrency", async () => {
			const { _id } = await newChatbot({ ...LIMITS, max_messages: 5 });
			const outcomes = await Promise.all(Array.from({ length: 8 }, () => refusal(call("chatbots.countMessage", { id: _id }))));
			expect(outcomes.filter(o => o === undefined)).toHaveLength(5);
			expect(outcomes.filter(o => o === "message_cap")).toHaveLength(3);
			expect((await state(_id)).chatbot.counts.messages).toBe(5);
		});

		it("countMessage counts a crowd of simultaneous messages to one chatbot, each once, none refused", async () => {
			// A chatbot many visitors talk to at once: the compare-and-set must not give up under contention.
			const { _id } = await newChatbot({ ...LIMITS, max_messages: 1_000_000 });
			const counted = await Promise.all(Array.from({ length: 300 }, () => call<{ messages_used: number }>("chatbots.countMessage", { id: _id })));
			expect(counted.map(c => c.messages_used).sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
			expect((await state(_id)).chatbot.counts.messages).toBe(300);
		});

		it("lists expired chatbots by the clock, refuses them, and removes them with their sources", async () => {
			const short = await newChatbot(LIMITS, 1000);
			const long = await newChatbot(LIMITS, 10_000_000);
			await addText(short._id, 100);
			await addPendingFile(short._id, "doc.txt");
			const expiredIds = async (now: number) => (await call<Array<{ _id: string }>>("chatbots.listExpired", { now, limit: 1000 })).map(c => c._id);
			expect(await expiredIds(clock + 500)).not.toContain(short._id);
			const later = clock + 2000;
			expect(await expiredIds(later)).toContain(short._id);
			expect(await expiredIds(later)).not.toContain(long._id);

			clock = later;
			try {
				expect(await refusal(state(short._id))).toBe("expired");
				expect(await refusal(addText(short._id, 10))).toBe("expired");
				expect(await call<string[]>("chatbots.storageKeys", { id: short._id })).toEqual([`demo/${short._id}/u-doc.txt/doc.txt`]);
				expect(await call("chatbots.remove", { id: short._id })).toMatchObject({ chatbots: 1, sources: 2 });
				expect(await expiredIds(later)).not.toContain(short._id);
				expect(await call("chatbots.remove", { id: short._id })).toMatchObject({ chatbots: 0, sources: 0 });
				expect((await state(long._id)).chatbot._id).toBe(long._id);
			} finally {
				clock = Date.now();
			}
		});

		it("durable jobs: one claim wins among many, leases expire, stale jobs are found", async () => {
			const now = Date.now();
			await jobs.insert({ _id: "job-1", payload: "a", ...newJobFields(now) });
			await jobs.insert({ _id: "job-2", payload: "b", ...newJobFields(now - 10 * 60_000) });
			const claim = claimJob("job-1", now, 60_000);
			const won = await Promise.all(Array.from({ length: 10 }, () => jobs.update(claim.query, claim.update)));
			expect(won.reduce((a, b) => a + b, 0)).toBe(1);
			expect(await jobs.findOne({ _id: "job-1" })).toMatchObject({ status: "running", attempts: 1, lease_until: now + 60_000 });

			// job-2 was queued ten minutes ago and never claimed; job-1 is running under its lease.
			const stale = async (at: number) => (await jobs.find(staleJobsQuery(at, 5 * 60_000))).map(j => j._id).sort();
			expect(await stale(now)).toEqual(["job-2"]);
			const renew = renewLease("job-1", now + 30_000, 60_000);
			expect(await jobs.update(renew.query, renew.update)).toBe(1);
			expect(await stale(now + 60_000)).toEqual(["job-2"]);
			expect(await stale(now + 90_000)).toEqual(["job-1", "job-2"]);
			// A worker may take over a job whose lease ran out, and only then.
			const early = claimJob("job-1", now + 60_000, 60_000);
			expect(await jobs.update(early.query, early.update)).toBe(0);
			const takeover = claimJob("job-1", now + 90_000, 60_000);
			expect(await jobs.update(takeover.query, takeover.update)).toBe(1);
			expect((await jobs.findOne({ _id: "job-1" }))?.attempts).toBe(2);
			expect(await jobs.remove({ _id: "job-1" })).toBe(1);

			// A job stored a minute ago whose message never went out (its process died in between) is
			// stale after UNSENT_GRACE_MS, not after staleMs; once sent it waits out staleMs like any other.
			await jobs.insert({ _id: "job-3", payload: "c", ...newJobFields(now - 60_000) });
			await jobs.insert({ _id: "job-4", payload: "d", ...newJobFields(now - 60_000) });
			await jobs.insert({ _id: "job-5", payload: "e", ...newJobFields(now - UNSENT_GRACE_MS / 2) });
			const sent = markSent("job-4", now - 60_000);
			expect(await jobs.update(sent.query, sent.update)).toBe(1);
			expect(await stale(now)).toEqual(["job-2", "job-3"]);
			expect(await stale(now + UNSENT_GRACE_MS)).toEqual(["job-2", "job-3", "job-5"]);
			expect(await stale(now + 5 * 60_000)).toEqual(["job-2", "job-3", "job-4", "job-5"]);
			await jobs.remove({ _id: { $in: ["job-2", "job-3", "job-4", "job-5"] } });
		});

		it("indexes every listed field of a collection, and a lookup reads the most selective index", async () => {
			const chatbots = broker.getLocalService("chatbots") as Service & { adapter: unknown };
			expect(await engine.indexedFields(chatbots.adapter)).toEqual(expect.arrayContaining(["_id", ...COLLECTION_INDEXES.chatbots]));

			// 30 unclaimed sandboxes: account_id is indexed and null for all of them, claim_hash is each one's own.
			const hashes = Array.from({ length: 30 }, (_, i) => String(i).padStart(64, "c"));
			const created: Chatbot[] = [];
			for (const claim_hash of hashes) created.push(await call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: LIMITS, ttl_ms: 3_600_000, claim_hash }));
			const reads: string[] = [];
			if (engine.name === "NeDB") {
				// Which index NeDB answers from is its own choice (the last indexed equality key): watch it.
				const indexes = nedbIndexes(chatbots.adapter);
				for (const field of ["claim_hash", "account_id"]) {
					const index = indexes[field];
					const getMatching = index.getMatching.bind(index);
					index.getMatching = (value: unknown) => {
						reads.push(field);
						return getMatching(value);
					};
				}
			}
			const found = await call<Chatbot | null>("chatbots.findByClaimHash", { claim_hash: hashes[17] });
			expect(found?._id).toBe(created[17]._id);
			expect(await call<Chatbot | null>("chatbots.findByClaimHash", { claim_hash: "f".repeat(64) })).toBeNull();
			if (engine.name === "NeDB") expect(reads).toEqual(["claim_hash", "claim_hash"]);
			const bySlug = await call<Chatbot | null>("chatbots.findBySlug", { slug: created[5].slug });
			expect(bySlug?._id).toBe(created[5]._id);
		});

		it("collections sort, limit, count and update by query, and hand out copies", async () => {
			const now = Date.now();
			for (const [id, age] of [["q-1", 3], ["q-2", 1], ["q-3", 2], ["q-4", 4]] as const) {
				await jobs.insert({ _id: id, payload: id === "q-4" ? "other" : "mine", ...newJobFields(now - age * 60_000) });
			}
			const ids = (rows: TestJob[]) => rows.map(j => j._id);
			const mine = { payload: "mine" };
			expect(ids(await jobs.find(mine, { sort: ["created_at"] }))).toEqual(["q-1", "q-3", "q-2"]);
			expect(ids(await jobs.find(mine, { sort: ["-created_at"], limit: 2 }))).toEqual(["q-2", "q-3"]);
			expect(await jobs.count(mine)).toBe(3);
			expect(await jobs.count({ payload: "nobody's" })).toBe(0);
			expect(await jobs.update(mine, { $set: { payload: "changed" } })).toBe(3);
			expect(await jobs.count({ payload: "changed" })).toBe(3);

			// What a read returns is the caller's to change: the stored document stays as it was.
			const copy = (await jobs.findOne({ _id: "q-4" })) as TestJob;
			copy.payload = "scribbled";
			(await jobs.find({ _id: "q-4" }))[0].payload = "scribbled";
			expect((await jobs.findOne({ _id: "q-4" }))?.payload).toBe("other");
			expect(await jobs.remove({ _id: { $in: ["q-1", "q-2", "q-3", "q-4"] } })).toBe(4);
			expect(await jobs.count({ _id: { $in: ["q-1", "q-2", "q-3", "q-4"] } })).toBe(0);
		});
	});
}

for (const engine of ENGINES) dataLayerSuite(engine);
