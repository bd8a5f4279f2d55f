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
 * Also here: the chatbot's public info for the chat page and widget (with the owner's widget
 * settings), short-lived conversations, the conversation log of every exchange on every channel
 * (lib/chat/exchanges.ts) with the owner's pages that read it (services/chat/insight-actions.ts),
 * and daily counters per chatbot and UTC day: the widget's usage beacons and the answered and
 * declined messages.
 */
import { Readable } from "node:stream";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { chatStream, embedder } from "../lib/ai/openai-compatible";
import type { CollectedAnswer } from "../lib/answer/events";
import { answerMessages } from "../lib/answer/messages";
import { loadLexicons, lexiconFor, spellingFor } from "../lib/answer/lexicon";
import { QuestionQuery, RETRIEVE_LIMIT, retrieveFor } from "../lib/answer/retrieval-query";
import { answerQuestion } from "../lib/chat/answer";
import { appendTurnsUpdate, ConversationDoc, earlierQuestions, exchangeTurns, newConversation } from "../lib/chat/conversations";
import { EXCHANGE_CHANNELS, ExchangeChannel, ExchangeDoc, newExchange } from "../lib/chat/exchanges";
import { BEACON_EVENTS, BeaconEvent, greeting, pausedMessage, utcDay } from "../lib/chat/copy";
import { ChatReply, ChatStreamEvent, MAX_CHAT_MESSAGE_CHARS, toWireCitation, WireCitation } from "../lib/chat/wire";
import { newId } from "../lib/chatbots/ids";
import { messagesInPeriod } from "../lib/chatbots/message-period";
import type { Chatbot } from "../lib/chatbots/model";
import { chatbotState, demoStatus } from "../lib/chatbots/status";
import { appError } from "../lib/errors";
import { jsonReply, noContentReply } from "../lib/http/reply";
import { textColorOn, widgetSettingsOf } from "../lib/widget/settings";
import type { IndexQuery, SearchHit } from "../lib/retrieval/vector-index";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import { call } from "./call";
import { channelAnswerActions } from "./chat/channel-answer";
import { insightActions } from "./chat/insight-actions";
import type { DailyCounter, UsageDoc } from "./chat/types";
const PURGE_EVERY_MS = 15 * 60_000;

interface AskParams {
	slug: string;
	message: string;
	conversation_id?: string;
	/** Where the message came from, for the conversation log (default `api`). */
	channel?: ExchangeChannel;
}

/** Everything decided before answering: the question passed every gate. */
interface Prepared {
	chatbot: Chatbot;
	/** The question as the visitor wrote it: what the conversation and the owner's log keep. */
	question: string;
	/** The question as answered: with its slips of the keyboard corrected (lib/answer/spelling.ts). */
	answered: string;
	conversationId: string;
	conversationExists: boolean;
	channel: ExchangeChannel;
	usage: { messages_used: number; max_messages: number };
	hits: SearchHit[];
	/** Earlier user questions of the conversation, oldest first (read with a follow-up). */
	history: string[];
}

interface Vars {
	documents?: DocumentCollection<ConversationDoc>;
	usageDocs: DocumentCollection<UsageDoc>;
	exchangeDocs: DocumentCollection<ExchangeDoc>;
	closers: Array<() => Promise<void>>;
	purgeTimer?: NodeJS.Timeout;
}

interface Methods {
	conversations(): DocumentCollection<ConversationDoc>;
	chatbotBySlug(ctx: C<unknown>, slug: string): Promise<Chatbot>;
	prepare(ctx: C<unknown>, params: AskParams): Promise<Prepared>;
	answer(prepared: Prepared, signal: AbortSignal): AsyncGenerator<ChatStreamEvent>;
	remember(prepared: Prepared, answer: string, citations: WireCitation[], answered: boolean): Promise<void>;
	countDay(chatbotId: string, counter: DailyCounter, now: number): Promise<void>;
}

type C<P> = Context<P, Record<string, unknown>>;

const askParams = {
	slug: "string|min:1|max:64",
	message: { type: "string", min: 1, max: MAX_CHAT_MESSAGE_CHARS },
	conversation_id: { type: "string", optional: true, max: 100 },
	channel: { type: "enum", values: [...EXCHANGE_CHANNELS], optional: true }
} as const;

export default function createChatService(config: Readonly<AppConfig>): ServiceSchema<ServiceSettingSchema, Methods, Vars> {
	const embed = config.embeddings ? embedder(config.embeddings) : undefined;
	const llmEndpoint = config.llm;

	return {
		name: "chat",
		mixins: [createDbMixin(config, "conversations") as ServiceSchema],

		async started() {
			loadLexicons();
			const usage = await openCollection<UsageDoc>(config, "chat_usage", this);
			const exchanges = await openCollection<ExchangeDoc>(config, "chat_exchanges", this);
			this.usageDocs = usage.collection;
			this.exchangeDocs = exchanges.collection;
			this.closers = [usage.close, exchanges.close];
			this.purgeTimer = setInterval(() => {
				const expired = { expires_at: { $lte: Date.now() } };
				Promise.all([this.conversations().remove(expired), this.exchangeDocs.remove(expired)]).catch(err =>
					this.logger.warn("Purging old conversations failed:", (err as Error).message)
				);
			}, PURGE_EVERY_MS);
			this.purgeTimer.unref();
		},
		async stopped() {
			if (this.purgeTimer) clearInterval(this.purgeTimer);
			for (const close of this.closers ?? []) await close();
		},

		actions: {
			/** Public info of a chatbot (chat page, widget, GET /api/chat/{slug}). Throws `not_found`. */
			info: {
				reply: "http",
				params: { slug: "string|min:1|max:64" },
				async handler(ctx: C<{ slug: string }>) {
					const chatbot = await this.chatbotBySlug(ctx, ctx.params.slug);
					const widget = widgetSettingsOf(chatbot);
					return jsonReply({
						ok: true,
						slug: chatbot.slug,
						name: widget.display_name ?? chatbot.name,
						// The widget's words; answers keep the language the chatbot's sources were indexed in.
						locale: widget.language,
						status: demoStatus(chatbotState(chatbot)),
						// While retraining, the previous index still answers.
						can_answer: chatbot.generation > 0,
						greeting: widget.welcome_message ?? greeting(widget.language),
						suggested_questions: widget.suggested_questions,
						accent_color: widget.accent_color,
						accent_text_color: textColorOn(widget.accent_color),
						position: widget.position,
						messages_used: messagesInPeriod(chatbot, Date.now()),
						max_messages: chatbot.limits.max_messages,
						paused: chatbot.paused === true
					});
				}
			},

			/**
			 * Answers one message as a single JSON reply (ChatReply). Throws `not_found` (unknown slug),
			 * `conflict` (never trained), `message_cap` and `chatbot_paused` (in the chatbot's language),
			 * `validation_failed`.
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
				reply: "http",
				params: { chatbot: "string|min:1|max:64", event: { type: "enum", values: [...BEACON_EVENTS] } },
				async handler(ctx: C<{ chatbot: string; event: BeaconEvent }>) {
					const chatbot = await this.chatbotBySlug(ctx, ctx.params.chatbot);
					await this.countDay(chatbot._id, ctx.params.event, Date.now());
					return noContentReply();
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
			},

			// The owner's Conversations, Improve and Analytics pages.
			...insightActions(config),

			// Messaging channels: answers by chatbot id in a channel's conversation (services/chat/channel-answer.ts).
			...channelAnswerActions
		},

		events: {
			/** A removed chatbot's conversations, log and counters go with it, whoever removed it. */
			async "chatbot.removed"(ctx: C<{ id: string }>) {
				const chatbot_id = ctx.params.id;
				await Promise.all([this.conversations().remove({ chatbot_id }), this.exchangeDocs.remove({ chatbot_id }), this.usageDocs.remove({ chatbot_id })]);
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
				// Paused is said first: a paused chatbot that was never trained would otherwise say "not ready".
				if (chatbot.paused) throw appError("chatbot_paused", pausedMessage(chatbot.locale));
				if (chatbot.generation === 0) {
					throw appError("conflict", messages.notReady, { hint: "The chatbot has not finished its first training; poll GET /api/chat/{slug} until can_answer is true." });
				}
				let usage: Prepared["usage"];
				try {
					usage = await call<Prepared["usage"]>(ctx, "chatbots.countMessage", { id: chatbot._id });
				} catch (err) {
					const type = (err as { type?: string }).type;
					if (type === "message_cap") throw appError("message_cap", messages.messageCap(chatbot.limits.max_messages));
					// Every surface (chat page, widget, chat API, channels) shows this message as the answer to a paused chatbot.
					if (type === "chatbot_paused") throw appError("chatbot_paused", pausedMessage(chatbot.locale));
					throw err;
				}
				const known = params.conversation_id ? await this.conversations().findOne({ _id: params.conversation_id, chatbot_id: chatbot._id, expires_at: { $gt: Date.now() } }) : null;
				const history = earlierQuestions(known?.turns ?? []);
				const search = async ({ sparse, embedText }: QuestionQuery): Promise<SearchHit[]> => {
					let query: IndexQuery = { sparse };
					try {
						if (embed && embedText) query = { sparse, dense: (await embed([embedText]))[0] };
					} catch (err) {
						// Without the embeddings endpoint, lexical retrieval alone still answers.
						this.logger.warn("Embedding the question failed; searching lexically:", (err as Error).message);
					}
					return call<SearchHit[]>(ctx, "vectors.search", { chatbot_id: chatbot._id, query, limit: RETRIEVE_LIMIT, generation: chatbot.generation });
				};
				// A misspelled word is read as the word the sources use; the conversation keeps what was asked.
				const { question: answered, hits } = await retrieveFor(question, history, chatbot.locale, search, spellingFor(chatbot.locale));
				return { chatbot, question, answered, conversationId: known?._id ?? newId(), conversationExists: Boolean(known), channel: params.channel ?? "api", usage, hits, history };
			},

			async *answer(prepared, signal) {
				const { chatbot, answered: question, hits, history } = prepared;
				const events = answerQuestion({
					question,
					locale: chatbot.locale,
					hits,
					history,
					...lexiconFor(chatbot.locale),
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
				const answered = outcome?.answered ?? false;
				await this.remember(prepared, text, citations, answered).catch(err => this.logger.warn("Conversation not stored:", (err as Error).message));
				yield { type: "done", answered, conversation_id: prepared.conversationId, ...prepared.usage };
			},

			async remember(prepared, answer, citations, answered) {
				const now = Date.now();
				const { chatbot, conversationId } = prepared;
				const turns = exchangeTurns(prepared.question, answer, now);
				await this.exchangeDocs.insert(
					newExchange({ id: newId(), chatbotId: chatbot._id, kind: chatbot.kind, conversationId, channel: prepared.channel, question: prepared.question, answer, citations, answered, now })
				);
				await this.countDay(chatbot._id, answered ? "answered" : "declined", now);
				if (prepared.conversationExists && (await this.conversations().update({ _id: conversationId }, appendTurnsUpdate(turns, now))) === 1) return;
				await this.conversations().insert(newConversation(conversationId, chatbot._id, turns, now));
			},

			async countDay(chatbotId, counter, now) {
				const day = utcDay(now);
				const id = `${chatbotId}:${day}`;
				const inc = { $inc: { [counter]: 1 } };
				if ((await this.usageDocs.update({ _id: id }, inc)) === 1) return;
				try {
					await this.usageDocs.insert({ _id: id, chatbot_id: chatbotId, day, widget_opened: 0, message_sent: 0, answered: 0, declined: 0, [counter]: 1 });
				} catch {
					// Another message created today's counter first: count on it.
					await this.usageDocs.update({ _id: id }, inc);
				}
			}
		}
	};
}
