/**
 * chat: answers questions to a chatbot, by its public slug, from its own sources.
 *
 * One pipeline serves both shapes of the chat API: `ask` collects the answer into one JSON reply,
 * `askStream` returns it as an object stream of events (tokens as the LLM writes them, then the
 * citations, then usage), which the gateway relays as server-sent events — locally or across the
 * bus, since Moleculer carries object streams over the transporter. Everything that can refuse a
 * question (unknown slug, not trained yet, message cap) runs before the stream is returned, so a
 * refusal is an ordinary error with its HTTP status, never a half-open stream.
 *
 * Also here: the chatbot's public info for the chat page and widget, short-lived conversations,
 * and the widget's usage beacons, counted per chatbot and UTC day.
 */
import { Readable } from "node:stream";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { chatStream, embedder } from "../lib/ai/openai-compatible";
import type { CollectedAnswer } from "../lib/answer/events";
import { answerMessages } from "../lib/answer/messages";
import { answerQuestion } from "../lib/chat/answer";
import { appendTurnsUpdate, ConversationDoc, exchangeTurns, newConversation } from "../lib/chat/conversations";
import { BEACON_EVENTS, BeaconEvent, greeting, utcDay } from "../lib/chat/copy";
import { ChatReply, ChatStreamEvent, toWireCitation } from "../lib/chat/wire";
import { newId } from "../lib/chatbots/ids";
import type { Chatbot } from "../lib/chatbots/model";
import { appError } from "../lib/errors";
import type { SearchHit } from "../lib/retrieval/vector-index";
import { vectorizeQuery } from "../lib/retrieval/vectorize";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import { call } from "./call";

/** Passages retrieved per question: enough for the LLM's six, and for the extractive scorer. */
const RETRIEVE_LIMIT = 8;
/** Longest question accepted, in characters (the route schema says the same). */
export const MAX_MESSAGE_CHARS = 2000;
const PURGE_EVERY_MS = 15 * 60_000;

interface UsageDoc {
	/** `<chatbot_id>:<YYYY-MM-DD>` */
	_id: string;
	chatbot_id: string;
	day: string;
	widget_opened: number;
	message_sent: number;
}

interface AskParams {
	slug: string;
	message: string;
	conversation_id?: string;
}

/** Everything decided before answering: the question passed every gate. */
interface Prepared {
	chatbot: Chatbot;
	question: string;
	conversationId: string;
	conversationExists: boolean;
	usage: { messages_used: number; max_messages: number };
	hits: SearchHit[];
}

interface Vars {
	documents?: DocumentCollection<ConversationDoc>;
	usageDocs: DocumentCollection<UsageDoc>;
	closeUsage?: () => Promise<void>;
	purgeTimer?: NodeJS.Timeout;
}

interface Methods {
	conversations(): DocumentCollection<ConversationDoc>;
	chatbotBySlug(ctx: C<unknown>, slug: string): Promise<Chatbot>;
	prepare(ctx: C<unknown>, params: AskParams): Promise<Prepared>;
	answer(prepared: Prepared, signal: AbortSignal): AsyncGenerator<ChatStreamEvent>;
	remember(prepared: Prepared, answer: string): Promise<void>;
}

type C<P> = Context<P, Record<string, unknown>>;

const askParams = {
	slug: "string|min:1|max:64",
	message: { type: "string", min: 1, max: MAX_MESSAGE_CHARS },
	conversation_id: { type: "string", optional: true, max: 100 }
} as const;

export default function createChatService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const embed = config.embeddings ? embedder(config.embeddings) : undefined;
	const llmEndpoint = config.llm;

	return {
		name: "chat",
		mixins: [createDbMixin(config, "conversations") as ServiceSchema],

		async started() {
			const opened = await openCollection<UsageDoc>(config, "chat_usage", this);
			this.usageDocs = opened.collection;
			this.closeUsage = opened.close;
			this.purgeTimer = setInterval(() => {
				this.conversations()
					.remove({ expires_at: { $lte: Date.now() } })
					.catch(err => this.logger.warn("Purging old conversations failed:", (err as Error).message));
			}, PURGE_EVERY_MS);
			this.purgeTimer.unref();
		},
		async stopped() {
			if (this.purgeTimer) clearInterval(this.purgeTimer);
			await this.closeUsage?.();
		},

		actions: {
			/** Public info of a chatbot (chat page, widget, GET /api/chat/{slug}). Throws `not_found`. */
			info: {
				params: { slug: "string|min:1|max:64" },
				async handler(ctx: C<{ slug: string }>) {
					const chatbot = await this.chatbotBySlug(ctx, ctx.params.slug);
					ctx.meta.$responseHeaders = { "Cache-Control": "no-store" };
					return {
						ok: true,
						slug: chatbot.slug,
						name: chatbot.name,
						locale: chatbot.locale,
						status: chatbot.status,
						// While retraining, the previous index still answers.
						can_answer: chatbot.generation > 0,
						greeting: greeting(chatbot.locale),
						messages_used: chatbot.counts.messages,
						max_messages: chatbot.limits.max_messages
					};
				}
			},

			/**
			 * Answers one message as a single JSON reply (ChatReply). Throws `not_found` (unknown slug),
			 * `conflict` (never trained), `message_cap` (in the chatbot's language), `validation_failed`.
			 */
			ask: {
				params: askParams,
				async handler(ctx: C<AskParams>): Promise<ChatReply> {
					const prepared = await this.prepare(ctx, ctx.params);
					let answer = "";
					let citations: ChatReply["citations"] = [];
					let done: Extract<ChatStreamEvent, { type: "done" }> | undefined;
					for await (const event of this.answer(prepared, new AbortController().signal)) {
						if (event.type === "token") answer += event.text;
						else if (event.type === "citations") citations = event.citations;
						else done = event;
					}
					const finished = done as Extract<ChatStreamEvent, { type: "done" }>;
					return {
						ok: true,
						answer,
						citations,
						answered: finished.answered,
						conversation_id: finished.conversation_id,
						messages_used: finished.messages_used,
						max_messages: finished.max_messages
					};
				}
			},

			/**
			 * Answers one message as an object stream of ChatStreamEvent (see lib/chat/wire.ts). Every
			 * refusal of `ask` is thrown before the stream is returned; a failure mid-answer errors the stream.
			 */
			askStream: {
				params: askParams,
				async handler(ctx: C<AskParams>): Promise<Readable> {
					const prepared = await this.prepare(ctx, ctx.params);
					const controller = new AbortController();
					const stream = Readable.from(this.answer(prepared, controller.signal), { objectMode: true });
					// The reader went away (the visitor closed the page): stop the LLM request too.
					stream.once("close", () => controller.abort());
					return stream;
				}
			},

			/** Counts a widget usage beacon for the chatbot and today (UTC); answers 204. Throws `not_found`. */
			track: {
				params: { chatbot: "string|min:1|max:64", event: { type: "enum", values: [...BEACON_EVENTS] } },
				async handler(ctx: C<{ chatbot: string; event: BeaconEvent }>) {
					const chatbot = await this.chatbotBySlug(ctx, ctx.params.chatbot);
					const day = utcDay(Date.now());
					const id = `${chatbot._id}:${day}`;
					const inc = { $inc: { [ctx.params.event]: 1 } };
					if ((await this.usageDocs.update({ _id: id }, inc)) === 0) {
						try {
							await this.usageDocs.insert({ _id: id, chatbot_id: chatbot._id, day, widget_opened: 0, message_sent: 0, [ctx.params.event]: 1 });
						} catch {
							// Another beacon created today's counter first: count on it.
							await this.usageDocs.update({ _id: id }, inc);
						}
					}
					ctx.meta.$statusCode = 204;
					return null;
				}
			},

			/** Daily widget usage of a chatbot, oldest day first. */
			usage: {
				params: { slug: "string|min:1|max:64" },
				async handler(ctx: C<{ slug: string }>) {
					const chatbot = await this.chatbotBySlug(ctx, ctx.params.slug);
					const days = await this.usageDocs.find({ chatbot_id: chatbot._id });
					return days.sort((a, b) => a.day.localeCompare(b.day)).map(({ day, widget_opened, message_sent }) => ({ day, widget_opened, message_sent }));
				}
			}
		},

		methods: {
			conversations() {
				return this.documents as DocumentCollection<ConversationDoc>;
			},

			async chatbotBySlug(ctx, slug) {
				const chatbot = await call<Chatbot | null>(ctx, "chatbots.findBySlug", { slug });
				if (!chatbot) throw appError("not_found", "No live chatbot has this slug.", { hint: "Check the chat link; a demo or sandbox chatbot stops answering when it expires." });
				return chatbot;
			},

			async prepare(ctx, params) {
				const question = params.message.trim();
				if (!question) {
					throw appError("validation_failed", "The message is empty.", { detail: "'message' must contain text.", fields: [{ field: "message", message: "must contain text" }] });
				}
				const chatbot = await this.chatbotBySlug(ctx, params.slug);
				const messages = answerMessages(chatbot.locale);
				if (chatbot.generation === 0) {
					throw appError("conflict", messages.notReady, { hint: "The chatbot has not finished its first training; poll GET /api/chat/{slug} until can_answer is true." });
				}
				let usage: Prepared["usage"];
				try {
					usage = await call<Prepared["usage"]>(ctx, "chatbots.countMessage", { id: chatbot._id });
				} catch (err) {
					if ((err as { type?: string }).type === "message_cap") throw appError("message_cap", messages.messageCap(chatbot.limits.max_messages));
					throw err;
				}
				const known = params.conversation_id ? await this.conversations().findOne({ _id: params.conversation_id, chatbot_id: chatbot._id, expires_at: { $gt: Date.now() } }) : null;
				let query;
				try {
					query = await vectorizeQuery(question, { locale: chatbot.locale, embed });
				} catch (err) {
					// Without the embeddings endpoint, lexical retrieval alone still answers.
					this.logger.warn("Embedding the question failed; searching lexically:", (err as Error).message);
					query = await vectorizeQuery(question, { locale: chatbot.locale });
				}
				const hits = await call<SearchHit[]>(ctx, "vectors.search", { chatbot_id: chatbot._id, query, limit: RETRIEVE_LIMIT });
				return { chatbot, question, conversationId: known?._id ?? newId(), conversationExists: Boolean(known), usage, hits };
			},

			async *answer(prepared, signal) {
				const { chatbot, question, hits } = prepared;
				const events = answerQuestion({
					question,
					locale: chatbot.locale,
					hits,
					llm: llmEndpoint ? messages => chatStream(llmEndpoint, messages, { signal, temperature: 0.1, maxTokens: 600 }) : undefined,
					onFallback: err => this.logger.warn("LLM unavailable; answering extractively:", (err as Error).message)
				});
				let text = "";
				let outcome: CollectedAnswer | undefined;
				for await (const event of events) {
					if (event.type === "token") {
						text += event.text;
						yield { type: "token", text: event.text };
					} else {
						outcome = { text, citations: event.citations, answered: event.answered };
					}
				}
				const citations = (outcome?.citations ?? []).map(toWireCitation);
				yield { type: "citations", citations };
				await this.remember(prepared, text).catch(err => this.logger.warn("Conversation not stored:", (err as Error).message));
				yield { type: "done", answered: outcome?.answered ?? false, conversation_id: prepared.conversationId, ...prepared.usage };
			},

			async remember(prepared, answer) {
				const now = Date.now();
				const turns = exchangeTurns(prepared.question, answer, now);
				if (prepared.conversationExists && (await this.conversations().update({ _id: prepared.conversationId }, appendTurnsUpdate(turns, now))) === 1) return;
				await this.conversations().insert(newConversation(prepared.conversationId, prepared.chatbot._id, turns, now));
			}
		}
	};
}
