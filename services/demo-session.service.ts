/**
 * demo-session: the seven demo-tool operations (SPEC §4.1). It owns demo sessions — only the hash
 * of each `session_id` is stored — and maps a session onto its chatbot, calling the chatbots,
 * crawler, storage, extractor and trainer services for the work.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { appError } from "../lib/errors";
import { hashToken, newToken } from "../lib/accounts/tokens";
import type { ChatbotRead } from "../lib/chatbots/changes";
import { Chatbot, DEMO_LIMITS, MAX_URL_LENGTH, Source } from "../lib/chatbots/model";
import { pageCallTimeoutMs } from "../lib/crawl/deadline";
import { demoSessionView } from "../lib/chatbots/views";
import { isWellFormedKey } from "../lib/storage/object-store";
import { DemoPool, PoolCounter } from "../lib/demo/pool";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import { attachUpload, issueUpload } from "./uploads";
import { call } from "./call";

interface DemoSessionDoc {
	/** SHA-256 of the session id. */
	_id: string;
	chatbot_id: string;
	/** The creator's client network (an IPv4 address or IPv6 /64), for the per-network bound; absent for internal callers. */
	network?: string | null;
	created_at: number;
	expires_at: number;
}

interface Vars {
	documents?: DocumentCollection<DemoSessionDoc>;
	now: () => number;
	pool: DemoPool;
	closePool?: () => Promise<void>;
}

interface Methods {
	resolve(ctx: Context<unknown, Record<string, unknown>>, sessionId: string): Promise<{ session: DemoSessionDoc; chatbot: Chatbot; sources: Source[] }>;
	view(ctx: Context<unknown, Record<string, unknown>>, sessionId: string): Promise<{ ok: true; demo: ReturnType<typeof demoSessionView> }>;
	sessions(): DocumentCollection<DemoSessionDoc>;
	secondsUntilNetworkSlot(network: string): Promise<number>;
}

type C<P> = Context<P, Record<string, unknown>>;

/** Expired sessions removed per round of a purge. */
const PURGE_BATCH = 500;

export default function createDemoSessionService(config: Readonly<AppConfig>, opts: { now?: () => number } = {}): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const ttlMs = config.demo.ttlHours * 3600_000;
	const addPageTimeoutMs = pageCallTimeoutMs(config.crawl.timeoutMs, 2);
	return {
		name: "demo-session",
		mixins: [createDbMixin(config, "demo_sessions") as ServiceSchema],
		created() {
			this.now = opts.now ?? Date.now;
		},
		async started() {
			const opened = await openCollection<PoolCounter>(config, "demo_pool", this);
			this.closePool = opened.close;
			this.pool = new DemoPool(opened.collection, {
				globalCap: config.demo.globalCap,
				networkCap: config.demo.networkCap,
				countSessions: network => this.sessions().count(network === undefined ? {} : { network }),
				now: () => this.now()
			});
		},
		async stopped() {
			await this.closePool?.();
		},
		methods: {
			sessions() {
				return this.documents as DocumentCollection<DemoSessionDoc>;
			},
			/** The live session, its chatbot and sources; `expired` for unknown or expired ids. */
			async resolve(ctx, sessionId) {
				const session = await this.sessions().findOne({ _id: hashToken(sessionId) });
				if (!session || session.expires_at <= this.now()) throw appError("expired", "No live demo session has this id.");
				const { chatbot, sources } = await call<{ chatbot: Chatbot; sources: Source[] }>(ctx, "chatbots.get", { id: session.chatbot_id });
				return { session, chatbot, sources };
			},
			/** Seconds until the oldest live demo of a network expires (a Retry-After for `network_cap`). */
			async secondsUntilNetworkSlot(network) {
				const [oldest] = await this.sessions().find({ network, expires_at: { $gt: this.now() } }, { sort: ["expires_at"], limit: 1 });
				// None live: the expired ones hold their places until the janitor's next sweep.
				return oldest ? Math.max(1, Math.ceil((oldest.expires_at - this.now()) / 1000)) : config.janitorIntervalMinutes * 60;
			},
			/** The session's view; the gateway may answer it again until the chatbot changes or the session ends. */
			async view(ctx, sessionId) {
				const { session, chatbot, sources } = await this.resolve(ctx, sessionId);
				const read: ChatbotRead = { chatbot_id: chatbot._id, until: Math.min(session.expires_at, chatbot.expires_at ?? Infinity) };
				ctx.meta.$chatbotRead = read;
				return { ok: true as const, demo: demoSessionView(sessionId, chatbot, sources, config.publicUrl) };
			}
		},
		actions: {
			/**
			 * createDemoSession. Reserves a place in the client network's share of live demos
			 * (`network_cap`, 429) and in the global pool (`global_cap`, 503) before creating anything;
			 * the places are given back if the creation fails, and when the janitor purges the session.
			 */
			create: {
				params: { locale: { type: "any", optional: true } },
				async handler(ctx: C<{ locale?: unknown }>) {
					const now = this.now();
					const network = typeof ctx.meta.clientNetwork === "string" ? ctx.meta.clientNetwork : undefined;
					const reservation = await this.pool.reserve(network);
					if (!reservation.ok) {
						if (reservation.refusedBy === "global") throw appError("global_cap", "The pool of concurrent demos is full.", { retryAfter: 300 });
						throw appError("network_cap", `Your network already has ${config.demo.networkCap} live demo sessions, the most one network may hold.`, {
							retryAfter: await this.secondsUntilNetworkSlot(network as string)
						});
					}
					try {
						const locale = ctx.params.locale === "es" ? "es" : "en";
						const chatbot = await call<Chatbot>(ctx, "chatbots.create", { kind: "demo", locale, limits: DEMO_LIMITS, ttl_ms: ttlMs });
						const sessionId = newToken();
						await this.sessions().insert({ _id: hashToken(sessionId), chatbot_id: chatbot._id, network: network ?? null, created_at: now, expires_at: chatbot.expires_at ?? now + ttlMs });
						await this.pool.confirm(reservation);
						return { ok: true, demo: demoSessionView(sessionId, chatbot, [], config.publicUrl) };
					} catch (err) {
						await this.pool.cancel(reservation);
						throw err;
					}
				}
			},

			/** getDemoSession. */
			get: {
				params: { session_id: "string" },
				handler(ctx: C<{ session_id: string }>) {
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/** addDemoSessionUrl: the page is fetched and extracted in the request, then attached through the gate. */
			addUrl: {
				params: { session_id: "string", url: { type: "string", min: 1, max: MAX_URL_LENGTH } },
				async handler(ctx: C<{ session_id: string; url: string }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					await call(ctx, "chatbots.addPage", { id: chatbot._id, url: ctx.params.url }, { timeout: addPageTimeoutMs });
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/** addDemoSessionText. */
			addText: {
				params: { session_id: "string", text: "string" },
				async handler(ctx: C<{ session_id: string; text: string }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					if (ctx.params.text.trim().length === 0) throw appError("empty", "The text is empty.");
					await call(ctx, "chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text: ctx.params.text });
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/**
			 * createDemoSessionUpload: type and size checked, file slot pre-checked, a presigned PUT
			 * returned. The chatbot holds at most as many unexpired, unattached upload URLs as files it
			 * can still attach (`file_cap` past that); each URL takes one upload.
			 */
			createUpload: {
				params: { session_id: "string", filename: "string", content_type: "string", size: { type: "number", optional: true } },
				async handler(ctx: C<{ session_id: string; filename: string; content_type: string; size?: number }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					return issueUpload(ctx, chatbot, ctx.params);
				}
			},

			/**
			 * addDemoSessionFile: accepts only a key issued to this session and actually uploaded, once;
			 * extraction runs in the background. The upload is sealed while it is attached (its URL can
			 * no longer change the bytes) and unsealed if the chatbot refuses the file.
			 */
			addFile: {
				params: { session_id: "string", file_name: "string", file_s3_key: "string", file_size: { type: "number", optional: true }, file_content_type: { type: "string", optional: true } },
				async handler(ctx: C<{ session_id: string; file_name: string; file_s3_key: string; file_size?: number; file_content_type?: string }>) {
					const { chatbot, sources } = await this.resolve(ctx, ctx.params.session_id);
					const key = ctx.params.file_s3_key;
					if (!isWellFormedKey(key) || !key.startsWith(`demo/${chatbot._id}/`)) {
						throw appError("validation_failed", "file_s3_key was not issued to this session.", {
							detail: "'file_s3_key' must be the s3_key returned by createDemoSessionUpload for this session.",
							fields: [{ field: "file_s3_key", message: "not issued to this session" }]
						});
					}
					if (sources.some(s => s.storage_key === key)) throw appError("conflict", "This upload is already attached.");
					await attachUpload(ctx, this.logger, { chatbotId: chatbot._id, key, fileName: ctx.params.file_name, declaredType: ctx.params.file_content_type });
					// The chatbots service queues its extraction (or its sweep does, once the extractor answers).
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/** trainDemoSession: answers at once with `training`; the trainer does the work. */
			train: {
				params: { session_id: "string" },
				async handler(ctx: C<{ session_id: string }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					await call(ctx, "chatbots.train", { id: chatbot._id });
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/**
			 * Removes expired sessions' records and gives their places in the pool back (the janitor
			 * removes their chatbots), then heals pool counters a crash may have left wrong.
			 */
			purgeExpired: {
				visibility: "public",
				params: { now: "number" },
				async handler(ctx: C<{ now: number }>) {
					let removed = 0;
					for (;;) {
						const batch = await this.sessions().find({ expires_at: { $lte: ctx.params.now } }, { limit: PURGE_BATCH });
						const freed = await this.pool.release(
							batch.map(s => ({ id: s._id, network: s.network })),
							async id => (await this.sessions().remove({ _id: id })) === 1
						);
						removed += freed;
						if (batch.length < PURGE_BATCH || freed === 0) break;
					}
					await this.pool.heal();
					return { removed };
				}
			}
		}
	};
}
