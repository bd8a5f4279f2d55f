/**
 * vectors: the one owner of the vector index. Every other process reaches the index through these
 * actions, so the embedded back end (files under DATA_DIR/vectors, loaded in this process's memory)
 * has exactly one writer; with QDRANT_URL the index lives in Qdrant and this service is a thin,
 * replicable adapter.
 *
 * Generations make retraining atomic (see lib/retrieval/vector-index.ts): the trainer upserts a new
 * generation, then `activate` switches searches to it in one step. `activate` refuses a generation
 * older than the active one, so a slow, superseded training run can never roll a chatbot back.
 */
import * as path from "node:path";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { embedder } from "../lib/ai/openai-compatible";
import type { Locale } from "../lib/text/tokenize";
import { EmbeddedVectorIndex } from "../lib/retrieval/embedded-index";
import { QdrantVectorIndex } from "../lib/retrieval/qdrant-index";
import type { IndexedChunk, IndexQuery, IndexStats, SearchHit, VectorIndex } from "../lib/retrieval/vector-index";
import { vectorizeQuery } from "../lib/retrieval/vectorize";

interface Vars {
	index: VectorIndex;
	/** Per-chatbot chains that make "compare with the active generation, then activate" one step. */
	activations: Map<string, Promise<unknown>>;
}

interface Methods {
	serialized<T>(chatbotId: string, task: () => Promise<T>): Promise<T>;
}

type C<P> = Context<P, Record<string, unknown>>;

const chatbotId = { type: "string", min: 1, max: 200 } as const;
const generation = { type: "number", integer: true, min: 0 } as const;

/** The index this deployment uses: Qdrant when configured, else the embedded one under DATA_DIR. */
export function createVectorIndex(config: Readonly<AppConfig>): VectorIndex {
	if (config.qdrant) return new QdrantVectorIndex({ url: config.qdrant.url, apiKey: config.qdrant.apiKey, collection: config.qdrant.collection });
	return new EmbeddedVectorIndex({ dir: path.join(config.dataDir, "vectors") });
}

export default function createVectorsService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const embed = config.embeddings ? embedder(config.embeddings) : undefined;
	return {
		name: "vectors",
		created() {
			this.index = createVectorIndex(config);
			this.activations = new Map();
		},
		async stopped() {
			await this.index.close();
		},
		methods: {
			serialized(chatbotId, task) {
				const previous = this.activations.get(chatbotId) ?? Promise.resolve();
				const run = previous.then(task, task);
				const tail = run.catch(() => undefined);
				this.activations.set(chatbotId, tail);
				void tail.then(() => {
					if (this.activations.get(chatbotId) === tail) this.activations.delete(chatbotId);
				});
				return run;
			}
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
					return this.serialized(chatbot_id, async () => {
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
			 * Best chunks of the active generation. `query` is either query vectors (from
			 * `vectorizeQuery`, as the chat service sends) or plain text, vectorised here with `locale`.
			 */
			search: {
				params: {
					chatbot_id: chatbotId,
					query: [{ type: "string", min: 1, max: 4000 }, { type: "object" }],
					limit: { type: "number", integer: true, min: 1, max: 100, default: 8 },
					locale: { type: "enum", values: ["en", "es"], default: "en" }
				},
				async handler(ctx: C<{ chatbot_id: string; query: string | IndexQuery; limit: number; locale: Locale }>): Promise<SearchHit[]> {
					const { chatbot_id, query, limit, locale } = ctx.params;
					const vectors = typeof query === "string" ? await vectorizeQuery(query, { locale, embed }) : query;
					return this.index.search(chatbot_id, vectors, limit);
				}
			},

			/** Removes one generation (a superseded or failed run's). */
			deleteGeneration: {
				params: { chatbot_id: chatbotId, generation },
				async handler(ctx: C<{ chatbot_id: string; generation: number }>) {
					const { chatbot_id, generation: doomed } = ctx.params;
					return this.serialized(chatbot_id, async () => {
						// Never drop what searches answer from: a chatbot must keep its last good index.
						if ((await this.index.activeGeneration(chatbot_id)) === doomed) return { deleted: false };
						await this.index.deleteGeneration(chatbot_id, doomed);
						return { deleted: true };
					});
				}
			},

			/** Removes every generation but the active one (after a run, and leftovers of crashed runs). */
			prune: {
				params: { chatbot_id: chatbotId },
				async handler(ctx: C<{ chatbot_id: string }>) {
					await this.serialized(ctx.params.chatbot_id, () => this.index.pruneGenerations(ctx.params.chatbot_id));
					return { ok: true };
				}
			},

			/** Removes everything stored for a chatbot (the janitor calls it for expired chatbots). */
			deleteChatbot: {
				params: { chatbot_id: chatbotId },
				async handler(ctx: C<{ chatbot_id: string }>) {
					await this.serialized(ctx.params.chatbot_id, () => this.index.deleteChatbot(ctx.params.chatbot_id));
					return { ok: true };
				}
			},

			stats: {
				handler(): Promise<IndexStats> {
					return this.index.stats();
				}
			}
		},
		events: {
			/** A removed chatbot's vectors go with it, whoever removed it. */
			"chatbot.removed": {
				async handler(ctx: C<{ id: string }>) {
					await this.serialized(ctx.params.id, () => this.index.deleteChatbot(ctx.params.id));
				}
			}
		}
	};
}
