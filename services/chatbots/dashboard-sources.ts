/**
 * The Sources tab of a chatbot's dashboard and its forms: add a page, a text, a Q&A pair or files
 * (an upload grant, the PUT to storage, then attach: the demo API's two-step flow), remove a source
 * (a confirmation page first), fetch a page again. Each is `owns: "chatbot"`, a browser form (303
 * back to the tab, or the tab again with the reason) and a JSON twin for programs. The work is the
 * chatbots service's own actions (`addPage`, `addSource`, `removeSource`, `refetchPage`), so caps,
 * counts and what follows an add are decided in one place.
 */
import type { AppConfig } from "../../config";
import { MAX_TEXT_CHARS, MAX_URL_LENGTH, type Source } from "../../lib/chatbots/model";
import { pageCallTimeoutMs } from "../../lib/crawl/deadline";
import { appError } from "../../lib/errors";
import { HttpReply, jsonReply, pageReply, redirectReply } from "../../lib/http/reply";
import { renderRemoveConfirmPage, renderSourcesPage, sourceRow, sourceRows, SourcesPage } from "../../lib/site/dashboard/sources-page";
import { dashboardPath } from "../../lib/site/dashboard/shell";
import { dashboardView } from "../../lib/site/dashboard/view";
import { isWellFormedKey } from "../../lib/storage/object-store";
import { CSRF_PARAMS } from "../../middlewares/csrf.middleware";
import { answersJson, HttpContext, ownedChatbotOf, viewerOf } from "../../middlewares/http-context";
import { showFormAgainOnRefusal } from "../../middlewares/http-reply.middleware";
import { attachUpload, issueUpload } from "../uploads";
import { call } from "../call";
import { OWNER_FORM, OWNER_PAGE } from "./dashboard-overview";
import { id } from "./params";
import type { ChatbotsThis } from "./types";

type C<P> = HttpContext<P>;
type FormName = NonNullable<SourcesPage["error"]>["form"];

const empty = (field: string, what: string) => appError("validation_failed", `The ${what} is empty.`, { detail: `Write the ${what}.`, fields: [{ field, message: "must not be empty" }] });

export function sourcesActions(config: Readonly<AppConfig>) {
	const publicUrl = config.publicUrl;
	// A page add waits for the crawler's fetch, which may take the whole page deadline.
	const addPageTimeoutMs = pageCallTimeoutMs(config.crawl.timeoutMs, 2);

	async function pageOf(self: ChatbotsThis, ctx: C<unknown>, status = 200, extra: Pick<SourcesPage, "error" | "typed" | "notice"> = {}): Promise<HttpReply> {
		const chatbot = (await self.chatbots.findOne({ _id: ownedChatbotOf(ctx)._id })) ?? ownedChatbotOf(ctx);
		const sources = await self.sourceDocs.find({ chatbot_id: chatbot._id });
		const view = dashboardView(chatbot, sources, publicUrl, self.now());
		return pageReply(renderSourcesPage({ baseUrl: publicUrl, csrfToken: viewerOf(ctx).csrfToken, chatbot, view, rows: sourceRows(sources), ...extra }), { status });
	}

	/** Runs an add; JSON gets 201 and the new row, a browser the tab again (or the form with the reason). */
	function added(self: ChatbotsThis, ctx: C<{ id: string }>, form: FormName, typed: SourcesPage["typed"], work: () => Promise<Source>): Promise<HttpReply> {
		return showFormAgainOnRefusal(
			ctx,
			async () => {
				const source = await work();
				if (answersJson(ctx)) return jsonReply({ ok: true, source: sourceRow(source) }, { status: 201 });
				return redirectReply(`${dashboardPath(ctx.params.id, "sources")}#add-${form}`);
			},
			(status, reason) => pageOf(self, ctx, status, { error: { form, message: reason }, typed })
		);
	}

	const owner = (ctx: C<unknown>) => ({ account_id: viewerOf(ctx).account.id });

	return {
		/** The Sources tab; JSON: every source as a row, and the dashboard view. */
		dashboardSources: {
			...OWNER_PAGE,
			params: { id },
			async handler(this: ChatbotsThis, ctx: C<{ id: string }>) {
				if (!answersJson(ctx)) return pageOf(this, ctx);
				const chatbot = ownedChatbotOf(ctx);
				const sources = await this.sourceDocs.find({ chatbot_id: chatbot._id });
				return jsonReply({ ok: true, sources: sourceRows(sources), dashboard: dashboardView(chatbot, sources, publicUrl, this.now()) });
			}
		},

		/** Adds a web page (fetched now; 422 `empty` with the cause when it gives nothing to train on). */
		dashboardAddPage: {
			...OWNER_FORM,
			params: { ...CSRF_PARAMS, id, url: { type: "string", max: MAX_URL_LENGTH } },
			handler(this: ChatbotsThis, ctx: C<{ id: string; url: string }>) {
				const url = ctx.params.url.trim();
				return added(this, ctx, "page", { url }, async () => {
					if (!url) throw empty("url", "page address");
					return call<Source>(ctx, "chatbots.addPage", { id: ctx.params.id, url, owner: owner(ctx) }, { timeout: addPageTimeoutMs });
				});
			}
		},

		/** Adds a text (optionally titled). */
		dashboardAddText: {
			...OWNER_FORM,
			params: { ...CSRF_PARAMS, id, text: { type: "string", max: MAX_TEXT_CHARS }, title: { type: "string", optional: true, max: 200 } },
			handler(this: ChatbotsThis, ctx: C<{ id: string; text: string; title?: string }>) {
				const title = ctx.params.title?.trim() || null;
				return added(this, ctx, "text", { text: ctx.params.text, title: title ?? undefined }, async () => {
					if (!ctx.params.text.trim()) throw empty("text", "text");
					return call<Source>(ctx, "chatbots.addSource", { id: ctx.params.id, kind: "text", status: "ready", text: ctx.params.text, title, owner: owner(ctx) });
				});
			}
		},

		/** Adds a question and its answer; training indexes both, as the `add_qa` tool does. */
		dashboardAddQa: {
			...OWNER_FORM,
			params: { ...CSRF_PARAMS, id, question: { type: "string", max: 1000 }, answer: { type: "string", max: 10_000 } },
			handler(this: ChatbotsThis, ctx: C<{ id: string; question: string; answer: string }>) {
				const question = ctx.params.question.trim();
				const answer = ctx.params.answer.trim();
				return added(this, ctx, "qa", { question, answer }, async () => {
					if (!question) throw empty("question", "question");
					if (!answer) throw empty("answer", "answer");
					return call<Source>(ctx, "chatbots.addSource", { id: ctx.params.id, kind: "qa", status: "ready", question, answer, title: question, text: `${question}\n${answer}`, owner: owner(ctx) });
				});
			}
		},

		/**
		 * An upload grant for one file (JSON only, the page's script asks): type and size checked, a
		 * file slot pre-checked, a presigned PUT returned. Then PUT the bytes and call `dashboardAddFile`.
		 */
		dashboardCreateUpload: {
			...OWNER_FORM,
			params: { ...CSRF_PARAMS, id, filename: { type: "string", min: 1, max: 300 }, content_type: { type: "string", max: 200 }, size: { type: "number", integer: true, min: 0, optional: true } },
			async handler(this: ChatbotsThis, ctx: C<{ id: string; filename: string; content_type: string; size?: number }>) {
				const chatbot = ownedChatbotOf(ctx);
				return jsonReply(await issueUpload(ctx, chatbot, ctx.params));
			}
		},

		/** Attaches an uploaded file (a key issued to this chatbot, uploaded, once); it is read in the background. */
		dashboardAddFile: {
			...OWNER_FORM,
			params: {
				...CSRF_PARAMS,
				id,
				file_name: { type: "string", min: 1, max: 300 },
				file_s3_key: { type: "string", max: 400 },
				file_size: { type: "number", integer: true, min: 0, optional: true },
				file_content_type: { type: "string", optional: true, max: 200 }
			},
			async handler(this: ChatbotsThis, ctx: C<{ id: string; file_name: string; file_s3_key: string; file_size?: number; file_content_type?: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				const key = ctx.params.file_s3_key;
				if (!isWellFormedKey(key) || !key.startsWith(`${chatbot.kind}/${chatbot._id}/`)) {
					throw appError("validation_failed", "file_s3_key was not issued to this chatbot.", {
						detail: "'file_s3_key' must be the s3_key returned by the upload call for this chatbot.",
						fields: [{ field: "file_s3_key", message: "not issued to this chatbot" }]
					});
				}
				if ((await this.sourceDocs.count({ chatbot_id: chatbot._id, storage_key: key })) > 0) throw appError("conflict", "This upload is already attached.");
				const source = await attachUpload(ctx, this.logger, { chatbotId: chatbot._id, key, fileName: ctx.params.file_name, declaredType: ctx.params.file_content_type });
				return jsonReply({ ok: true, source: sourceRow(source) }, { status: 201 });
			}
		},

		/**
		 * Removes a source with its file, and retrains without it. A browser posting without `confirm`
		 * gets the confirmation page; JSON needs `confirm: "yes"`.
		 */
		dashboardRemoveSource: {
			...OWNER_FORM,
			returnTo: "/account/chatbots/{id}/sources",
			params: { ...CSRF_PARAMS, id, source_id: id, confirm: { type: "string", optional: true, max: 10 } },
			async handler(this: ChatbotsThis, ctx: C<{ id: string; source_id: string; confirm?: string }>) {
				const chatbot = ownedChatbotOf(ctx);
				if (ctx.params.confirm !== "yes") {
					const source = await this.sourceDocs.findOne({ _id: ctx.params.source_id, chatbot_id: chatbot._id });
					if (!source || answersJson(ctx)) {
						if (!source) throw appError("not_found", "This chatbot has no source with this id.", { page: { title: "Source not found", message: "This chatbot has no such source; it may have been removed already.", link: { href: dashboardPath(chatbot._id, "sources"), label: "Sources" } } });
						throw appError("validation_failed", "Removing a source needs confirmation.", { detail: "Send \"confirm\": \"yes\".", fields: [{ field: "confirm", message: "must be \"yes\"" }] });
					}
					return pageReply(renderRemoveConfirmPage({ baseUrl: publicUrl, csrfToken: viewerOf(ctx).csrfToken, chatbot, row: sourceRow(source) }));
				}
				const result = await call<{ removed: Source; files: number; vectors_deleted: boolean; retraining: boolean }>(ctx, "chatbots.removeSource", { id: chatbot._id, source_id: ctx.params.source_id, owner: owner(ctx) });
				if (answersJson(ctx)) return jsonReply({ ok: true, removed: sourceRow(result.removed), files: result.files, retraining: result.retraining, vectors_deleted: result.vectors_deleted });
				return redirectReply(dashboardPath(chatbot._id, "sources"));
			}
		},

		/** Fetches a page source again (its text replaced; the chatbot then needs retraining). */
		dashboardRefetchSource: {
			...OWNER_FORM,
			returnTo: "/account/chatbots/{id}/sources",
			params: { ...CSRF_PARAMS, id, source_id: id },
			async handler(this: ChatbotsThis, ctx: C<{ id: string; source_id: string }>) {
				return showFormAgainOnRefusal(
					ctx,
					async () => {
						const source = await call<Source>(ctx, "chatbots.refetchPage", { id: ctx.params.id, source_id: ctx.params.source_id, owner: owner(ctx) }, { timeout: addPageTimeoutMs });
						if (answersJson(ctx)) return jsonReply({ ok: true, source: sourceRow(source) });
						return redirectReply(dashboardPath(ctx.params.id, "sources"));
					},
					(status, reason) => pageOf(this, ctx, status, { error: { form: "row", message: `The page could not be fetched again: ${reason}` } })
				);
			}
		}
	};
}

