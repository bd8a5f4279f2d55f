/**
 * The owner's pages the chat service renders from its own data (the conversation log and the
 * daily counters): Conversations, Improve (with "add an answer") and Analytics. Each is a page for
 * a browser and JSON for a program (`reply: "form"`), needs the owner's session (`auth`), and
 * answers 404 `not_found` for any chatbot that is not the viewer's. The one form, "add an answer",
 * is CSRF-checked and adds a Q&A pair through the chatbots service's own source action, which
 * checks the owner again and marks the chatbot as needing retraining (or retrains when asked).
 */
import type { AppConfig } from "../../config";
import { conversationsOf, exchangeRetentionDays, ExchangeDoc, needsImprovement } from "../../lib/chat/exchanges";
import { groupQuestions, questionKey } from "../../lib/chat/question-groups";
import { MAX_CHAT_MESSAGE_CHARS } from "../../lib/chat/wire";
import type { Chatbot } from "../../lib/chatbots/model";
import { chatbotState } from "../../lib/chatbots/status";
import { appError } from "../../lib/errors";
import { jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { ANALYTICS_RANGES, AnalyticsRange, renderAnalyticsPage } from "../../lib/site/dashboard/analytics-page";
import { ConversationFilter, renderConversationsPage } from "../../lib/site/dashboard/conversations-page";
import { MAX_QA_ANSWER_CHARS, renderImprovePage } from "../../lib/site/dashboard/improve-page";
import { chatbotPagePath } from "../../lib/site/dashboard/insights-frame";
import { lastDays } from "../../lib/site/charts";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, ownedChatbotOf, viewerOf } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { call } from "../call";
import type { ChatInsightsThis } from "./types";

type C<P> = HttpContext<P>;

/** Exchanges read for one page: the newest ones, enough for months of a small site. */
const PAGE_EXCHANGES = 3000;
const chatbotIdParam = "string|min:1|max:100";
/** Every action: a page or JSON, the owner's session, and the chatbot in `params.id` must be the viewer's (middlewares/owns.middleware.ts). */
const ownerPage = { reply: "form" as const, auth: "session" as const, owns: "chatbot" as const };

async function newestExchanges(service: ChatInsightsThis, query: object): Promise<ExchangeDoc[]> {
	return service.exchangeDocs.find({ ...query, expires_at: { $gt: Date.now() } }, { sort: ["-at"], limit: PAGE_EXCHANGES });
}

/** Questions the owner should see on Improve: declined or unsupported, not yet given an answer. */
async function toImprove(service: ChatInsightsThis, chatbot: Chatbot): Promise<ExchangeDoc[]> {
	const rows = await newestExchanges(service, { chatbot_id: chatbot._id, improved_at: { $exists: false } });
	return rows.filter(needsImprovement);
}

function improveGroups(rows: readonly ExchangeDoc[], chatbot: Chatbot) {
	return groupQuestions(
		rows.map(r => ({ id: r._id, question: r.question, at: r.at, answered: r.answered })),
		chatbot.locale
	);
}

interface AddAnswerParams {
	id: string;
	question: string;
	answer: string;
	group?: string;
	then?: "train" | "none";
}

export function insightActions(config: Readonly<AppConfig>) {
	const baseUrl = config.publicUrl;

	async function improvePage(service: ChatInsightsThis, ctx: C<unknown>, chatbot: Chatbot, extra: { flash?: "added" | "added_training"; error?: { key: string; message: string; question: string; answer: string }; status?: number } = {}) {
		const state = chatbotState(chatbot);
		const html = renderImprovePage({
			baseUrl,
			chatbot,
			csrfToken: viewerOf(ctx).csrfToken,
			groups: improveGroups(await toImprove(service, chatbot), chatbot),
			needsRetrain: state.needs_retrain,
			training: chatbot.training !== null,
			flash: extra.flash,
			error: extra.error
		});
		return pageReply(html, { status: extra.status ?? 200 });
	}

	return {
		/** The conversation log (`filter=unanswered`: conversations with a declined question). */
		conversationsPage: {
			...ownerPage,
			returnTo: "/account/chatbots/{id}/conversations",
			params: { id: chatbotIdParam, filter: { type: "enum", values: ["all", "unanswered"], optional: true } },
			async handler(this: ChatInsightsThis, ctx: C<{ id: string; filter?: ConversationFilter }>) {
				const chatbot = ownedChatbotOf(ctx);
				const filter = ctx.params.filter ?? "all";
				let rows = await newestExchanges(this, { chatbot_id: chatbot._id });
				if (filter === "unanswered") {
					const declined = new Set(rows.filter(r => !r.answered).map(r => r.conversation_id));
					rows = rows.filter(r => declined.has(r.conversation_id));
				}
				const conversations = conversationsOf(rows);
				const retentionDays = exchangeRetentionDays(chatbot.kind);
				if (answersJson(ctx)) {
					return jsonReply({
						ok: true,
						retention_days: retentionDays,
						conversations: conversations.map(c => ({
							conversation_id: c.conversation_id,
							channel: c.channel,
							started_at: new Date(c.started_at).toISOString(),
							last_at: new Date(c.last_at).toISOString(),
							exchanges: c.exchanges.map(e => ({ question: e.question, answer: e.answer, citations: e.citations, answered: e.answered, at: new Date(e.at).toISOString() }))
						}))
					});
				}
				return pageReply(renderConversationsPage({ baseUrl, chatbot, filter, conversations, retentionDays }));
			}
		},

		/** Questions to improve, grouped when alike. */
		improvePage: {
			...ownerPage,
			returnTo: "/account/chatbots/{id}/improve",
			params: { id: chatbotIdParam, added: { type: "enum", values: ["answer", "train"], optional: true } },
			async handler(this: ChatInsightsThis, ctx: C<{ id: string; added?: "answer" | "train" }>) {
				const chatbot = ownedChatbotOf(ctx);
				if (answersJson(ctx)) {
					const groups = improveGroups(await toImprove(this, chatbot), chatbot);
					return jsonReply({
						ok: true,
						needs_retrain: chatbotState(chatbot).needs_retrain,
						groups: groups.map(g => ({ question: g.question, count: g.count, declined: g.declined, last_at: new Date(g.last_at).toISOString(), wordings: g.wordings }))
					});
				}
				const flash = ctx.params.added === "train" ? "added_training" : ctx.params.added === "answer" ? "added" : undefined;
				return improvePage(this, ctx, chatbot, { flash });
			}
		},

		/**
		 * Adds the owner's answer to a question as a Q&A pair source (`then=train` retrains at once),
		 * and takes the questions alike to it off the Improve page. Throws `validation_failed`, the cap
		 * codes of adding a source (`char_cap`), `not_found`.
		 */
		addAnswer: {
			...ownerPage,
			returnTo: "/account/chatbots/{id}/improve",
			csrf: true as const,
			params: {
				...CSRF_PARAMS,
				id: chatbotIdParam,
				question: { type: "string", max: MAX_CHAT_MESSAGE_CHARS },
				answer: { type: "string", max: MAX_QA_ANSWER_CHARS },
				group: { type: "string", optional: true, max: 4000 },
				then: { type: "enum", values: ["train", "none"], optional: true }
			},
			async handler(this: ChatInsightsThis, ctx: C<AddAnswerParams>) {
				const chatbot = ownedChatbotOf(ctx);
				const question = ctx.params.question.trim();
				const answer = ctx.params.answer.trim();
				const key = ctx.params.group ?? questionKey(question, chatbot.locale);
				const train = ctx.params.then !== "none";
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						if (!question) throw appError("validation_failed", "The question is empty.", { detail: "Write the question the answer is for.", fields: [{ field: "question", message: "must contain text" }] });
						if (!answer) throw appError("validation_failed", "The answer is empty.", { detail: "Write the answer the chatbot should give.", fields: [{ field: "answer", message: "must contain text" }] });
						const source = await call<{ _id: string }>(ctx, "chatbots.addSource", {
							id: chatbot._id,
							kind: "qa",
							status: "ready",
							question,
							answer,
							title: question,
							text: `${question}\n${answer}`,
							train,
							owner: { account_id: viewerOf(ctx).account.id }
						});
						// The questions of this group (and any asked like the new question) leave the Improve page.
						const keys = new Set([key, questionKey(question, chatbot.locale)]);
						const ids = (await toImprove(this, chatbot)).filter(r => keys.has(questionKey(r.question, chatbot.locale))).map(r => r._id);
						if (ids.length > 0) await this.exchangeDocs.update({ chatbot_id: chatbot._id, _id: { $in: ids } }, { $set: { improved_at: Date.now() } });
						if (answersJson(ctx)) return jsonReply({ ok: true, source_id: source._id, training: train, resolved: ids.length }, { status: 201 });
						return redirectReply(`${chatbotPagePath(chatbot._id, "improve")}?added=${train ? "train" : "answer"}`);
					},
					(status, reason) => improvePage(this, ctx, chatbot, { status, error: { key, message: reason, question: ctx.params.question, answer: ctx.params.answer } })
				);
			}
		},

		/** Charts of the last 7, 30 or 90 days (default 30). */
		analyticsPage: {
			...ownerPage,
			returnTo: "/account/chatbots/{id}/analytics",
			params: { id: chatbotIdParam, days: { type: "enum", values: ANALYTICS_RANGES.map(String), optional: true } },
			async handler(this: ChatInsightsThis, ctx: C<{ id: string; days?: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				const range = Number(ctx.params.days ?? 30) as AnalyticsRange;
				const now = Date.now();
				const days = lastDays(now, range);
				const since = Date.parse(`${days[0]}T00:00:00Z`);
				const [usage, rows] = await Promise.all([
					this.usageDocs.find({ chatbot_id: chatbot._id, day: { $gte: days[0] } }),
					newestExchanges(this, { chatbot_id: chatbot._id, at: { $gte: since } })
				]);
				const counts = usage.map(u => ({ day: u.day, answered: u.answered ?? 0, declined: u.declined ?? 0, widget_opened: u.widget_opened ?? 0 }));
				const topQuestions = groupQuestions(
					rows.map(r => ({ id: r._id, question: r.question, at: r.at, answered: r.answered })),
					chatbot.locale
				).slice(0, 8);
				if (answersJson(ctx)) {
					return jsonReply({
						ok: true,
						days: range,
						per_day: days.map(day => counts.find(c => c.day === day) ?? { day, answered: 0, declined: 0, widget_opened: 0 }),
						top_questions: topQuestions.map(g => ({ question: g.question, count: g.count, declined: g.declined }))
					});
				}
				return pageReply(renderAnalyticsPage({ baseUrl, chatbot, range, now, days: counts, topQuestions }));
			}
		}
	};
}
