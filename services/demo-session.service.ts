/**
 * demo-session: the seven demo-tool operations (SPEC §4.1). It owns demo sessions — only the hash
 * of each `session_id` is stored — and maps a session onto its chatbot, calling the chatbots,
 * crawler, storage, extractor and trainer services for the work.
 */
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { appError } from "../lib/errors";
import { hashToken, newId, newToken } from "../lib/chatbots/ids";
import { ACCEPTED_UPLOAD_TYPES, Chatbot, DEMO_LIMITS, MAX_UPLOAD_BYTES, Source, UPLOAD_URL_TTL_SECONDS } from "../lib/chatbots/model";
import { demoSessionView } from "../lib/chatbots/views";
import { isWellFormedKey, storageKey } from "../lib/storage/object-store";
import { createDbMixin, DocumentCollection } from "../mixins/db.mixin";
import { call } from "./call";

interface DemoSessionDoc {
	/** SHA-256 of the session id. */
	_id: string;
	chatbot_id: string;
	created_at: number;
	expires_at: number;
}

interface Vars {
	documents?: DocumentCollection<DemoSessionDoc>;
	now: () => number;
}

interface Methods {
	resolve(ctx: Context<unknown, Record<string, unknown>>, sessionId: string): Promise<{ session: DemoSessionDoc; chatbot: Chatbot; sources: Source[] }>;
	view(ctx: Context<unknown, Record<string, unknown>>, sessionId: string): Promise<{ ok: true; demo: ReturnType<typeof demoSessionView> }>;
	sessions(): DocumentCollection<DemoSessionDoc>;
}

type C<P> = Context<P, Record<string, unknown>>;

export default function createDemoSessionService(config: Readonly<AppConfig>, opts: { now?: () => number } = {}): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const ttlMs = config.demo.ttlHours * 3600_000;
	const fetchPageTimeoutMs = 2 * config.crawl.timeoutMs + 5_000;
	return {
		name: "demo-session",
		mixins: [createDbMixin(config, "demo_sessions") as ServiceSchema],
		created() {
			this.now = opts.now ?? Date.now;
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
			async view(ctx, sessionId) {
				const { chatbot, sources } = await this.resolve(ctx, sessionId);
				return { ok: true as const, demo: demoSessionView(sessionId, chatbot, sources, config.publicUrl) };
			}
		},
		actions: {
			/** createDemoSession. Throws `global_cap` when the pool of live demos is full. */
			create: {
				params: { locale: { type: "any", optional: true } },
				async handler(ctx: C<{ locale?: unknown }>) {
					const now = this.now();
					// A soft cap: a count, not a reservation, so a burst may pass it by a few sessions.
					const live = await this.sessions().count({ expires_at: { $gt: now } });
					if (live >= config.demo.globalCap) {
						throw appError("global_cap", "The pool of concurrent demos is full.", { retryAfter: 300 });
					}
					const locale = ctx.params.locale === "es" ? "es" : "en";
					const chatbot = await call<Chatbot>(ctx, "chatbots.create", { kind: "demo", locale, limits: DEMO_LIMITS, ttl_ms: ttlMs });
					const sessionId = newToken();
					await this.sessions().insert({ _id: hashToken(sessionId), chatbot_id: chatbot._id, created_at: now, expires_at: chatbot.expires_at ?? now + ttlMs });
					return { ok: true, demo: demoSessionView(sessionId, chatbot, [], config.publicUrl) };
				}
			},

			/** getDemoSession. */
			get: {
				params: { session_id: "string" },
				handler(ctx: C<{ session_id: string }>) {
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/** addDemoSessionUrl: fetches and extracts the page in the request, then attaches it through the gate. */
			addUrl: {
				params: { session_id: "string", url: "string" },
				async handler(ctx: C<{ session_id: string; url: string }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					// Refuse before the (slow) fetch when the URL slot is already gone.
					await call(ctx, "chatbots.precheck", { id: chatbot._id, kind: "url", chars: 0 });
					// The crawler bounds a page at two CRAWL_TIMEOUT_MS (fetch, then render); wait for its own answer.
					const page = await call<{ finalUrl: string; title: string | null; text: string }>(ctx, "crawler.fetchPage", { url: ctx.params.url }, { timeout: fetchPageTimeoutMs });
					await call(ctx, "chatbots.addSource", { id: chatbot._id, kind: "url", status: "ready", url: ctx.params.url, title: page.title, text: page.text });
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

			/** createDemoSessionUpload: type and size checked, file slot pre-checked, a presigned PUT returned. */
			createUpload: {
				params: { session_id: "string", filename: "string", content_type: "string", size: { type: "number", optional: true } },
				async handler(ctx: C<{ session_id: string; filename: string; content_type: string; size?: number }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					const contentType = ctx.params.content_type.trim().toLowerCase();
					if (!(ACCEPTED_UPLOAD_TYPES as readonly string[]).includes(contentType)) {
						throw appError("file_type", `Content type "${ctx.params.content_type}" is not accepted.`);
					}
					if (ctx.params.size !== undefined && ctx.params.size > MAX_UPLOAD_BYTES) {
						throw appError("file_size", `The file is ${ctx.params.size} bytes; the maximum is ${MAX_UPLOAD_BYTES}.`);
					}
					await call(ctx, "chatbots.precheck", { id: chatbot._id, kind: "file", chars: 0 });
					const key = storageKey("demo", chatbot._id, newId(), ctx.params.filename);
					const target = await call<{ url: string; headers: Record<string, string>; expiresAt: number }>(ctx, "storage.presignPut", {
						key,
						content_type: contentType,
						size: ctx.params.size,
						max_bytes: MAX_UPLOAD_BYTES,
						ttl_seconds: UPLOAD_URL_TTL_SECONDS
					});
					return { ok: true, upload_url: target.url, s3_key: key, expires_at: new Date(target.expiresAt).toISOString(), headers: target.headers };
				}
			},

			/** addDemoSessionFile: accepts only a key issued to this session and actually uploaded; extraction runs in the background. */
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
					const info = await call<{ size: number; contentType: string | null } | null>(ctx, "storage.head", { key });
					if (!info) throw appError("empty", "Nothing was uploaded under this key; PUT the file to upload_url first.");
					if (info.size > MAX_UPLOAD_BYTES) throw appError("file_size", `The uploaded file is ${info.size} bytes; the maximum is ${MAX_UPLOAD_BYTES}.`);
					const contentType = (info.contentType ?? ctx.params.file_content_type ?? "").split(";")[0].trim().toLowerCase();
					if (!(ACCEPTED_UPLOAD_TYPES as readonly string[]).includes(contentType)) throw appError("file_type", `Content type "${contentType}" is not accepted.`);
					const source = await call<Source>(ctx, "chatbots.addSource", {
						id: chatbot._id,
						kind: "file",
						status: "pending",
						file_name: ctx.params.file_name,
						title: ctx.params.file_name,
						storage_key: key,
						content_type: contentType
					});
					// Extraction is queued durably by the extractor. If the extractor cannot take it now, the
					// file stays attached and `pending`, and the janitor queues it on a later sweep.
					try {
						await call(ctx, "extractor.enqueue", { chatbot_id: chatbot._id, source_id: source._id });
					} catch (err) {
						this.logger.warn(`Extraction of ${source._id} not queued yet:`, (err as Error).message);
					}
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/** trainDemoSession: answers at once with `training`; the trainer does the work. */
			train: {
				params: { session_id: "string" },
				async handler(ctx: C<{ session_id: string }>) {
					const { chatbot } = await this.resolve(ctx, ctx.params.session_id);
					await call(ctx, "trainer.start", { chatbot_id: chatbot._id });
					return this.view(ctx, ctx.params.session_id);
				}
			},

			/** Removes expired sessions' records (the janitor removes their chatbots). */
			purgeExpired: {
				visibility: "public",
				params: { now: "number" },
				async handler(ctx: C<{ now: number }>) {
					return { removed: await this.sessions().remove({ expires_at: { $lte: ctx.params.now } }) };
				}
			}
		}
	};
}
