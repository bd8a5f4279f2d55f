/**
 * vectors: the one owner of the vector index. Every other process reaches the index through these
 * actions, so the embedded back end (files under DATA_DIR/vectors, loaded in this process's memory)
 * has exactly one writer; with QDRANT_URL the index lives in Qdrant and this service is a thin,
 * replicable adapter.
 *
 * Generations make retraining atomic (see lib/retrieval/vector-index.ts): the trainer upserts a new
 * generation, the chatbots service records it as the chatbot's (conditionally, so across replicas
 * exactly one run wins), and searches name that generation. `activate` keeps the index's own
 * pointer in step; it refuses a generation older than the active one, so a slow, superseded run
 * never moves the pointer back. Compare-then-write steps are serialised per chatbot in this
 * process; nothing that decides which run won depends on them.
 */
import * as path from "node:path";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { embedder } from "../lib/ai/openai-compatible";
import { KeyedLock } from "../lib/concurrency/keyed-lock";
import { LOCALES, type Locale } from "../lib/locales";
import { EmbeddedVectorIndex } from "../lib/retrieval/embedded-index";
import type { QdrantVectorIndex } from "../lib/retrieval/qdrant-index";
import type { IndexedChunk, IndexQuery, IndexStats, SearchHit, VectorIndex } from "../lib/retrieval/vector-index";
import { vectorizeQuery } from "../lib/retrieval/vectorize";

interface Vars {
	index: VectorIndex;
	/** Makes "compare with the active generation, then write" one step per chatbot. */
	perChatbot: KeyedLock;
}

type Methods = {
	/** Readiness (services/ops/readiness.ts): the index (embedded, or Qdrant) answers. */
	readinessCheck(): Promise<void>;
};

type C<P> = Context<P, Record<string, unknown>>;

const chatbotId = { type: "string", min: 1, max: 200 } as const;
const generation = { type: "number", integer: true, min: 0 } as const;

/** The index this deployment uses: Qdrant when configured, else the embedded one under DATA_DIR. */
export function createVectorIndex(config: Readonly<AppConfig>): VectorIndex {
	// The Qdrant client is required only when Qdrant is configured.
	if (config.qdrant) return new (require("../lib/retrieval/qdrant-index") as { QdrantVectorIndex: typeof QdrantVectorIndex }).QdrantVectorIndex({ url: config.qdrant.url, apiKey: config.qdrant.apiKey, collection: config.qdrant.collection });
	return new EmbeddedVectorIndex({ dir: path.join(config.dataDir, "vectors") });
}

export default function createVectorsService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const embed = config.embeddings ? embedder(config.embeddings) : undefined;
	return {
		name: "vectors",
		created() {
			this.index = createVectorIndex(config);
			this.perChatbot = new KeyedLock();
		},
		async stopped() {
			await this.index.close();
		},
		actions: {
			/** Adds chunks (with their vectors) to a generation that searches do not see yet. Idempotent by chunk id. */
			upsert: {
				params: { chatbot_id: chatbotId, generation, items: { type: "array", max: 5000 } },
				async handler(ctx: C<{ chatbot_id: string; generation: number; items: IndexedChunk[] }>) {
					await this.index.upsert(ctx.params.chatbot_id, ctx.params.generation, ctx.params.items);
					return { upserted: ctx.params.items.length };
				}
			},

			/**
			 * Makes `generation` the one searches answer from, unless a newer one is already active
			 * (then nothing changes and `activated` is false).
			 */
			activate: {
				params: { chatbot_id: chatbotId, generation },
				handler(ctx: C<{ chatbot_id: string; generation: number }>) {
					const { chatbot_id, generation: wanted } = ctx.params;
					return this.perChatbot.run(chatbot_id, async () => {
						const active = await this.index.activeGeneration(chatbot_id);
						if (active !== undefined && active > wanted) return { activated: false, active };
						await this.index.activate(chatbot_id, wanted);
						return { activated: true, active: wanted };
					});
				}
			},

			/** The active generation, or null when the chatbot has no index. */
			activeGeneration: {
				params: { chatbot_id: chatbotId },
				async handler(ctx: C<{ chatbot_id: string }>) {
					return { active: (await this.index.activeGeneration(ctx.params.chatbot_id)) ?? null };
				}
			},

			/**
			 * Best chunks of `generation` (the one the chatbot's record names), or of the active one.
			 * `query` is either query vectors (from `vectorizeQuery`, as the chat service sends) or plain
			 * text, vectorised here with `locale`.
			 */
			search: {
				params: {
					chatbot_id: chatbotId,
					query: [{ type: "string", min: 1, max: 4000 }, { type: "object" }],
					limit: { type: "number", integer: true, min: 1, max: 100, default: 8 },
					locale: { type: "enum", values: [...LOCALES], default: "en" },
					generation: { ...generation, optional: true }
				},
				async handler(ctx: C<{ chatbot_id: string; query: string | IndexQuery; limit: number; locale: Locale; generation?: number }>): Promise<SearchHit[]> {
					const { chatbot_id, query, limit, locale } = ctx.params;
					const vectors = typeof query === "string" ? await vectorizeQuery(query, { locale, embed }) : query;
					return this.index.search(chatbot_id, vectors, limit, ctx.params.generation);
				}
			},

			/** Removes one generation (a superseded or failed run's). */
			deleteGeneration: {
				params: { chatbot_id: chatbotId, generation },
				async handler(ctx: C<{ chatbot_id: string; generation: number }>) {
					const { chatbot_id, generation: doomed } = ctx.params;
					return this.perChatbot.run(chatbot_id, async () => {
						// Never drop what searches answer from: a chatbot must keep its last good index.
						if ((await this.index.activeGeneration(chatbot_id)) === doomed) return { deleted: false };
						await this.index.deleteGeneration(chatbot_id, doomed);
						return { deleted: true };
					});
				}
			},

			/**
			 * Removes every generation but the active one (leftovers of crashed runs included); with
			 * `older_than`, only those below it, so a run that just finished never removes a newer one
			 * still being written.
			 */
			prune: {
				params: { chatbot_id: chatbotId, older_than: { ...generation, optional: true } },
				async handler(ctx: C<{ chatbot_id: string; older_than?: number }>) {
					await this.perChatbot.run(ctx.params.chatbot_id, () => this.index.pruneGenerations(ctx.params.chatbot_id, ctx.params.older_than));
					return { ok: true };
				}
			},

			/** Removes everything stored for a chatbot (the janitor calls it for expired chatbots). */
			deleteChatbot: {
				params: { chatbot_id: chatbotId },
				async handler(ctx: C<{ chatbot_id: string }>) {
					await this.perChatbot.run(ctx.params.chatbot_id, () => this.index.deleteChatbot(ctx.params.chatbot_id));
					return { ok: true };
				}
			},

			stats: {
				handler(): Promise<IndexStats> {
					return this.index.stats();
				}
			}
		},
		methods: {
			async readinessCheck() {
				await this.index.stats();
			}
		},
		events: {
			/** A removed chatbot's vectors go with it, whoever removed it. */
			"chatbot.removed": {
				async handler(ctx: C<{ id: string }>) {
					await this.perChatbot.run(ctx.params.id, () => this.index.deleteChatbot(ctx.params.id));
				}
			}
		}
	};
}
