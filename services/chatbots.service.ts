/**
 * chatbots: owner of chatbots (limits, counters, training state) and their sources.
 *
 * Every cap is enforced by an atomic conditional update (lib/chatbots/gates.ts): a refused
 * request writes nothing. Other services change chatbots only through these actions.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { appError } from "../lib/errors";
import { Consumption, consumeGate, consumptionFor, explainRefusal, capRefusal, messageGate, notExpired, releaseUpdate } from "../lib/chatbots/gates";
import { newId, newSlug } from "../lib/chatbots/ids";
import { charCount, Chatbot, ChatbotLimits, FailureCode, newCounters, Source, SourceKind } from "../lib/chatbots/model";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";

interface ChatbotsVars {
	/** Set by the db mixin. */
	documents?: DocumentCollection<Chatbot>;
	closeSources?: () => Promise<void>;
	now: () => number;
	chatbots: DocumentCollection<Chatbot>;
	sourceDocs: DocumentCollection<Source>;
}

interface ChatbotsMethods {
	requireLive(id: string): Promise<Chatbot>;
	failSourceDoc(source: Source, code: FailureCode, message: string): Promise<Source>;
}

type P<T> = Context<T, Record<string, unknown>>;

const limitsSchema = {
	type: "object",
	props: {
		max_urls: "number|integer|min:0",
		max_files: "number|integer|min:0",
		max_chars: "number|integer|min:0",
		max_messages: "number|integer|min:0",
		max_pages: "number|integer|min:0"
	}
};

/** Sources without their (possibly long) text, for listing. */
function withoutText(source: Source): Source {
	return { ...source, text: null };
}

export default function createChatbotsService(config: Readonly<AppConfig>, opts: { now?: () => number } = {}): ServiceSchema<ServiceSettingSchema, ChatbotsMethods, ChatbotsVars> {
	return {
		name: "chatbots",
		mixins: [createDbMixin(config, "chatbots") as ServiceSchema],
		methods: {
			async requireLive(id: string): Promise<Chatbot> {
				const chatbot = await this.chatbots.findOne({ _id: id });
				if (!chatbot || (chatbot.expires_at !== null && chatbot.expires_at <= this.now())) throw appError("expired", "No live chatbot has this id.");
				return chatbot;
			},
			/** A failed source counts no characters; a failed file keeps its slot (it stays listed). */
			async failSourceDoc(source: Source, code: FailureCode, message: string): Promise<Source> {
				const failure = { code, message };
				await this.sourceDocs.update(
					{ _id: source._id, status: { $in: ["pending", "processing"] } },
					{ $set: { status: "failed", failure, char_count: 0, updated_at: this.now() } }
				);
				return { ...withoutText(source), status: "failed", failure, char_count: 0 };
			}
		},
		async started() {
			this.now = opts.now ?? Date.now;
			this.chatbots = this.documents as DocumentCollection<Chatbot>;
			const opened = await openCollection<Source>(config, "sources", this);
			this.sourceDocs = opened.collection;
			this.closeSources = opened.close;
		},
		async stopped() {
			await this.closeSources?.();
		},
		actions: {
			/** Creates a chatbot. Returns the stored document. */
			create: {
				params: {
					kind: { type: "enum", values: ["demo", "sandbox", "account"] },
					locale: { type: "enum", values: ["en", "es"] },
					name: { type: "string", optional: true, max: 200 },
					limits: limitsSchema,
					ttl_ms: { type: "number", integer: true, positive: true, optional: true },
					account_id: { type: "string", optional: true },
					claim_hash: { type: "string", optional: true }
				},
				async handler(ctx: P<{ kind: Chatbot["kind"]; locale: Chatbot["locale"]; name?: string; limits: ChatbotLimits; ttl_ms?: number; account_id?: string; claim_hash?: string }>) {
					const now = this.now();
					const p = ctx.params;
					const chatbot: Chatbot = {
						_id: newId(),
						slug: newSlug(),
						kind: p.kind,
						name: p.name ?? (p.locale === "es" ? "Chatbot de demostración" : "Demo chatbot"),
						locale: p.locale,
						status: "queued",
						limits: p.limits,
						counts: newCounters(),
						sources_version: 0,
						trained_version: 0,
						generation: 0,
						training: null,
						crawl: { status: "idle", start_url: null, found: 0, crawled: 0, failed: 0 },
						account_id: p.account_id ?? null,
						claim_hash: p.claim_hash ?? null,
						expires_at: p.ttl_ms ? now + p.ttl_ms : null,
						created_at: now,
						updated_at: now
					};
					return this.chatbots.insert(chatbot);
				}
			},

			/** A live chatbot and its sources (texts omitted). Throws `expired`. */
			get: {
				params: { id: "string", with_sources: { type: "boolean", optional: true, default: true } },
				async handler(ctx: P<{ id: string; with_sources: boolean }>) {
					const chatbot = await this.requireLive(ctx.params.id);
					const sources = ctx.params.with_sources ? (await this.sourceDocs.find({ chatbot_id: chatbot._id })).map(withoutText) : [];
					return { chatbot, sources };
				}
			},

			/** A live chatbot by its public slug, or null. */
			findBySlug: {
				params: { slug: "string|max:64" },
				async handler(ctx: P<{ slug: string }>) {
					const chatbot = await this.chatbots.findOne({ slug: ctx.params.slug, ...notExpired(this.now()) });
					return chatbot ?? null;
				}
			},

			/** Read-only cap check before expensive work; throws the cap error a real add would meet. */
			precheck: {
				params: { id: "string", kind: { type: "enum", values: ["url", "file", "text", "qa"] }, chars: "number|integer|min:0" },
				async handler(ctx: P<{ id: string; kind: SourceKind; chars: number }>) {
					const chatbot = await this.chatbots.findOne({ _id: ctx.params.id });
					const refusal = capRefusal(chatbot, consumptionFor(ctx.params.kind, ctx.params.chars), this.now());
					if (refusal) throw refusal;
					return { ok: true };
				}
			},

			/**
			 * Adds a source through the atomic gate. A `ready` source consumes its characters now; a
			 * `pending` file consumes its file slot now and its characters when extraction completes.
			 */
			addSource: {
				params: {
					id: "string",
					kind: { type: "enum", values: ["url", "file", "text", "qa"] },
					status: { type: "enum", values: ["pending", "ready"] },
					text: { type: "string", optional: true, nullable: true },
					url: { type: "string", optional: true, nullable: true },
					title: { type: "string", optional: true, nullable: true },
					file_name: { type: "string", optional: true, nullable: true },
					storage_key: { type: "string", optional: true, nullable: true },
					content_type: { type: "string", optional: true, nullable: true },
					question: { type: "string", optional: true, nullable: true },
					answer: { type: "string", optional: true, nullable: true }
				},
				async handler(ctx: P<Partial<Source> & { id: string; kind: SourceKind; status: "pending" | "ready" }>) {
					const p = ctx.params;
					const now = this.now();
					const chars = p.status === "ready" ? charCount(p.text ?? "") : 0;
					const consumption = consumptionFor(p.kind, chars);
					const chatbot = await this.chatbots.findOne({ _id: p.id });
					if (!chatbot) throw appError("expired", "No live chatbot has this id.");
					const gate = consumeGate(chatbot, consumption, now, now);
					if ((await this.chatbots.update(gate.query, gate.update)) !== 1) {
						throw explainRefusal(await this.chatbots.findOne({ _id: p.id }), consumption, now);
					}
					const source: Source = {
						_id: newId(),
						chatbot_id: p.id,
						kind: p.kind,
						status: p.status,
						url: p.url ?? null,
						domain: p.url ? new URL(p.url).hostname : null,
						title: p.title ?? null,
						file_name: p.file_name ?? null,
						storage_key: p.storage_key ?? null,
						content_type: p.content_type ?? null,
						question: p.question ?? null,
						answer: p.answer ?? null,
						text: p.text ?? null,
						char_count: p.status === "ready" ? chars : null,
						failure: null,
						created_at: now,
						updated_at: now
					};
					try {
						await this.sourceDocs.insert(source);
					} catch (err) {
						await this.chatbots.update({ _id: p.id }, releaseUpdate(consumption, this.now()));
						throw err;
					}
					return withoutText(source);
				}
			},

			/** Marks a pending source as being extracted. */
			markProcessing: {
				params: { id: "string", source_id: "string" },
				async handler(ctx: P<{ id: string; source_id: string }>) {
					const n = await this.sourceDocs.update(
						{ _id: ctx.params.source_id, chatbot_id: ctx.params.id, status: { $in: ["pending", "processing"] } },
						{ $set: { status: "processing", updated_at: this.now() } }
					);
					return { updated: n === 1 };
				}
			},

			/**
			 * Completes an extracted source: its characters pass the gate (ready) or it fails with
			 * `char_cap`. Idempotent: a source that is already ready or failed is left as it is.
			 */
			completeSource: {
				params: { id: "string", source_id: "string", text: "string", title: { type: "string", optional: true, nullable: true } },
				async handler(ctx: P<{ id: string; source_id: string; text: string; title?: string | null }>) {
					const { id, source_id, text, title } = ctx.params;
					const source = await this.sourceDocs.findOne({ _id: source_id, chatbot_id: id });
					if (!source) throw appError("not_found", "No such source.");
					if (source.status === "ready" || source.status === "failed") return withoutText(source);
					const now = this.now();
					if (text.trim().length === 0) return this.failSourceDoc(source, "empty", "No readable text was found in this file.");
					const chars = charCount(text);
					const consumption: Consumption = { urls: 0, files: 0, chars };
					const chatbot = await this.chatbots.findOne({ _id: id });
					if (!chatbot) throw appError("expired", "No live chatbot has this id.");
					const gate = consumeGate(chatbot, consumption, now, now);
					if ((await this.chatbots.update(gate.query, gate.update)) !== 1) {
						const refusal = explainRefusal(await this.chatbots.findOne({ _id: id }), consumption, now) as Error & { type?: string };
						if (refusal.type === "char_cap") return this.failSourceDoc(source, "char_cap", refusal.message);
						throw refusal;
					}
					await this.sourceDocs.update(
						{ _id: source_id },
						{ $set: { status: "ready", text, char_count: chars, title: title ?? source.title, failure: null, updated_at: now } }
					);
					return { ...withoutText(source), status: "ready", char_count: chars, title: title ?? source.title };
				}
			},

			/** Fails a source with a reason; it counts no characters. */
			failSource: {
				params: { id: "string", source_id: "string", code: "string", message: "string" },
				async handler(ctx: P<{ id: string; source_id: string; code: FailureCode; message: string }>) {
					const source = await this.sourceDocs.findOne({ _id: ctx.params.source_id, chatbot_id: ctx.params.id });
					if (!source) throw appError("not_found", "No such source.");
					if (source.status === "ready" || source.status === "failed") return withoutText(source);
					return this.failSourceDoc(source, ctx.params.code, ctx.params.message);
				}
			},

			/** Ready sources with their text, for training. */
			trainingInput: {
				params: { id: "string" },
				async handler(ctx: P<{ id: string }>) {
					const chatbot = await this.requireLive(ctx.params.id);
					const sources = await this.sourceDocs.find({ chatbot_id: chatbot._id, status: "ready" });
					return { chatbot, sources: sources.filter(s => (s.char_count ?? 0) > 0) };
				}
			},

			/** Records that a training run started (status `training`). */
			startTraining: {
				params: { id: "string", job_id: "string", generation: "number|integer|min:1", sources_version: "number|integer|min:0" },
				async handler(ctx: P<{ id: string; job_id: string; generation: number; sources_version: number }>) {
					const now = this.now();
					const { id, job_id, generation, sources_version } = ctx.params;
					const n = await this.chatbots.update(
						{ _id: id, ...notExpired(now) },
						{ $set: { status: "training", training: { job_id, generation, sources_version, started_at: now }, updated_at: now } }
					);
					if (n !== 1) throw appError("expired", "No live chatbot has this id.");
					return (await this.chatbots.findOne({ _id: id })) as Chatbot;
				}
			},

			/** Completes the run `job_id`: the chatbot answers from `generation`. Idempotent. */
			finishTraining: {
				params: { id: "string", job_id: "string" },
				async handler(ctx: P<{ id: string; job_id: string }>) {
					const chatbot = await this.chatbots.findOne({ _id: ctx.params.id });
					if (!chatbot?.training || chatbot.training.job_id !== ctx.params.job_id) return { updated: false };
					const { generation, sources_version } = chatbot.training;
					const n = await this.chatbots.update(
						{ _id: chatbot._id, "training.job_id": ctx.params.job_id },
						{ $set: { status: "ready", generation, trained_version: sources_version, training: null, updated_at: this.now() } }
					);
					return { updated: n === 1, generation };
				}
			},

			/** Abandons the run `job_id`: back to `ready` if an older index answers, else `queued`. */
			failTraining: {
				params: { id: "string", job_id: "string" },
				async handler(ctx: P<{ id: string; job_id: string }>) {
					const chatbot = await this.chatbots.findOne({ _id: ctx.params.id });
					if (!chatbot?.training || chatbot.training.job_id !== ctx.params.job_id) return { updated: false };
					const n = await this.chatbots.update(
						{ _id: chatbot._id, "training.job_id": ctx.params.job_id },
						{ $set: { status: chatbot.generation > 0 ? "ready" : "queued", training: null, updated_at: this.now() } }
					);
					return { updated: n === 1 };
				}
			},

			/**
			 * Counts one answered message against the cap, atomically; throws when the cap is reached.
			 * The update also matches the count it read (compare-and-set, retried when another message
			 * was counted in between), so each caller learns its own, distinct `messages_used`.
			 */
			countMessage: {
				params: { id: "string" },
				async handler(ctx: P<{ id: string }>) {
					for (let attempt = 0; attempt < 50; attempt++) {
						const now = this.now();
						const chatbot = await this.requireLive(ctx.params.id);
						if (chatbot.counts.messages >= chatbot.limits.max_messages) {
							throw appError("message_cap", `This chatbot has answered all ${chatbot.limits.max_messages} messages it may answer.`);
						}
						const gate = messageGate(chatbot, now, now);
						if ((await this.chatbots.update({ ...gate.query, "counts.messages": chatbot.counts.messages }, gate.update)) === 1) {
							return { messages_used: chatbot.counts.messages + 1, max_messages: chatbot.limits.max_messages };
						}
					}
					throw appError("conflict", "The chatbot changed while counting the message; retry.");
				}
			},

			/** Crawl progress of a tool-server chatbot. */
			setCrawl: {
				params: { id: "string", crawl: "object" },
				async handler(ctx: P<{ id: string; crawl: Chatbot["crawl"] }>) {
					await this.chatbots.update({ _id: ctx.params.id }, { $set: { crawl: ctx.params.crawl, updated_at: this.now() } });
					return { ok: true };
				}
			},

			/** An account's chatbots, newest first (claimed sandboxes included). */
			listByAccount: {
				params: { account_id: "string|min:1" },
				async handler(ctx: P<{ account_id: string }>) {
					const rows = await this.chatbots.find({ account_id: ctx.params.account_id });
					return rows.sort((a, b) => b.created_at - a.created_at || a._id.localeCompare(b._id));
				}
			},

			/** The live, unclaimed sandbox whose claim token hashes to `claim_hash`, or null. */
			findByClaimHash: {
				params: { claim_hash: "string|length:64" },
				async handler(ctx: P<{ claim_hash: string }>) {
					const chatbot = await this.chatbots.findOne({ claim_hash: ctx.params.claim_hash, kind: "sandbox", account_id: null, ...notExpired(this.now()) });
					return chatbot ?? null;
				}
			},

			/**
			 * Records the hash of a sandbox's claim token. Only once, and only on an unclaimed sandbox:
			 * the token is derived from the chatbot id, so it is set right after `create`.
			 */
			setClaimHash: {
				params: { id: "string", claim_hash: "string|length:64" },
				async handler(ctx: P<{ id: string; claim_hash: string }>) {
					const n = await this.chatbots.update(
						{ _id: ctx.params.id, kind: "sandbox", account_id: null, claim_hash: null },
						{ $set: { claim_hash: ctx.params.claim_hash, updated_at: this.now() } }
					);
					if (n !== 1) throw appError("conflict", "This chatbot is not an unclaimed sandbox without a claim token.");
					return { ok: true };
				}
			},

			/**
			 * Moves a sandbox into an account, atomically and once: only while `claim_hash` still matches
			 * and the sandbox is live. It leaves sandbox retention (no expiry) and takes the plan's limits.
			 */
			claim: {
				params: { id: "string", claim_hash: "string|length:64", account_id: "string|min:1", limits: limitsSchema },
				async handler(ctx: P<{ id: string; claim_hash: string; account_id: string; limits: ChatbotLimits }>) {
					const now = this.now();
					const { id, claim_hash, account_id, limits } = ctx.params;
					const n = await this.chatbots.update(
						{ _id: id, kind: "sandbox", account_id: null, claim_hash, ...notExpired(now) },
						{ $set: { kind: "account", account_id, claim_hash: null, expires_at: null, limits, updated_at: now } }
					);
					if (n !== 1) {
						throw appError("not_found", "This claim link was already used, or its chatbot no longer exists.", {
							hint: "A claim link works once. If you claimed it, the chatbot is in your account; otherwise ask for a new chatbot."
						});
					}
					return (await this.chatbots.findOne({ _id: id })) as Chatbot;
				}
			},

			/** Chatbots whose lifetime is over (for the janitor). */
			listExpired: {
				params: { now: "number|integer", limit: { type: "number", integer: true, default: 100 } },
				async handler(ctx: P<{ now: number; limit: number }>) {
					const rows = await this.chatbots.find({ expires_at: { $lte: ctx.params.now } }, { limit: ctx.params.limit });
					return rows.map(c => ({ _id: c._id, slug: c.slug, kind: c.kind }));
				}
			},

			/**
			 * File sources still `pending` since before `before` (for the janitor): their extraction
			 * was never queued (the extractor was down when the file was attached) or was lost.
			 */
			pendingFiles: {
				visibility: "public",
				params: { before: "number|integer", limit: { type: "number", integer: true, default: 100 } },
				async handler(ctx: P<{ before: number; limit: number }>) {
					const rows = await this.sourceDocs.find({ kind: "file", status: "pending", created_at: { $lte: ctx.params.before } }, { limit: ctx.params.limit });
					return rows.map(r => ({ chatbot_id: r.chatbot_id, source_id: r._id }));
				}
			},

			/** Storage keys of a chatbot's files (for the janitor). */
			storageKeys: {
				params: { id: "string" },
				async handler(ctx: P<{ id: string }>) {
					const rows = await this.sourceDocs.find({ chatbot_id: ctx.params.id, kind: "file" });
					return rows.map(r => r.storage_key).filter((k): k is string => typeof k === "string");
				}
			},

			/** Deletes a chatbot and its sources. */
			remove: {
				params: { id: "string" },
				async handler(ctx: P<{ id: string }>) {
					const sources = await this.sourceDocs.remove({ chatbot_id: ctx.params.id });
					const chatbots = await this.chatbots.remove({ _id: ctx.params.id });
					if (chatbots) ctx.emit("chatbot.removed", { id: ctx.params.id });
					return { chatbots, sources };
				}
			}
		}
	};
}
