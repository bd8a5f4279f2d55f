/**
 * The chatbots service's actions that change a source already in: remove it (with its file and,
 * through a new training run, its vectors) and fetch a page again. Both pass through the same count
 * arithmetic as adding (lib/chatbots/gates.ts), so the caps stay exact.
 *
 * Vectors: the index is built per generation from the sources (lib/retrieval/vector-index.ts), so
 * a removed source leaves the index when the next generation replaces the one answering. Removing
 * therefore asks for training at once (the remaining sources keep answering meanwhile); when no
 * source with text remains, the chatbot's vectors are deleted outright and it stops answering.
 */
import type { AppConfig } from "../../config";
import { consumeGate, consumptionFor, explainRefusal, releaseUpdate } from "../../lib/chatbots/gates";
import { charCount, type Source } from "../../lib/chatbots/model";
import { pageCallTimeoutMs } from "../../lib/crawl/deadline";
import { appError } from "../../lib/errors";
import { call } from "../call";
import { id, ownerSchema } from "./params";
import { withoutText } from "./sources";
import type { ChatbotsThis, Owner, P } from "./types";

const noSuchSource = () =>
	appError("not_found", "This chatbot has no source with this id.", {
		page: { title: "Source not found", message: "This chatbot has no such source; it may have been removed already.", link: { href: "/account", label: "Your account" } }
	});

/** The storage folder of one upload: `<scope>/<chatbot id>/<upload id>` of its key. */
function uploadFolder(storageKey: string): string | null {
	const parts = storageKey.split("/");
	return parts.length === 4 ? parts.slice(0, 3).join("/") : null;
}

async function sourceOf(self: ChatbotsThis, chatbotId: string, sourceId: string): Promise<Source> {
	const source = await self.sourceDocs.findOne({ _id: sourceId, chatbot_id: chatbotId });
	if (!source) throw noSuchSource();
	return source;
}

export function sourceChangeActions(config: Readonly<AppConfig>) {
	const fetchTimeoutMs = pageCallTimeoutMs(config.crawl.timeoutMs);
	return {
		/**
		 * Removes a source: its uploaded file first (if storage fails, nothing is removed and the call
		 * may be repeated), then the record, giving its URL or file slot and its characters back.
		 * Training is asked for so the index drops it; with no text left the vectors are deleted.
		 * Throws `not_found` for a source the chatbot does not have (or a chatbot `owner` does not hold).
		 */
		removeSource: {
			params: { id, source_id: id, owner: ownerSchema },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; source_id: string; owner?: Owner }>) {
				const chatbot = await this.requireLive(ctx.params.id, ctx.params.owner);
				const source = await sourceOf(this, chatbot._id, ctx.params.source_id);
				const folder = source.storage_key ? uploadFolder(source.storage_key) : null;
				let files = 0;
				if (folder && this.runs("storage.deletePrefix")) files = (await call<{ deleted: number }>(ctx, "storage.deletePrefix", { prefix: folder })).deleted;
				if ((await this.sourceDocs.remove({ _id: source._id, chatbot_id: chatbot._id })) !== 1) throw noSuchSource();
				const chars = source.status === "ready" ? (source.char_count ?? 0) : 0;
				await this.chatbots.update({ _id: chatbot._id }, releaseUpdate(consumptionFor(source.kind, chars), this.now()));
				const left = await this.sourceDocs.count({ chatbot_id: chatbot._id, status: "ready", char_count: { $gt: 0 } });
				let vectorsDeleted = false;
				if (left > 0) {
					await this.askForTraining(chatbot._id);
				} else if (chatbot.generation > 0 || chatbot.training !== null) {
					// Nothing left to answer from: the old index must not keep answering with removed text.
					// A run in progress is dropped too (its end is then ignored: it is no longer the chatbot's run).
					const fresh = await this.chatbots.findOne({ _id: chatbot._id });
					await this.chatbots.update({ _id: chatbot._id }, { $set: { generation: 0, training: null, trained_version: fresh?.sources_version ?? 0, train_pending: false, updated_at: this.now() } });
					if (this.runs("vectors.deleteChatbot")) await call(ctx, "vectors.deleteChatbot", { chatbot_id: chatbot._id });
					vectorsDeleted = true;
				}
				return { removed: withoutText(source), files, vectors_deleted: vectorsDeleted, retraining: left > 0 };
			}
		},

		/**
		 * Fetches a page source again and replaces its text; the character count moves by the
		 * difference through the gate (`char_cap` when the new text does not fit). The chatbot then
		 * needs retraining. A page that cannot be fetched now is refused (422 `empty`, the cause in
		 * `errors.detail`) and the source keeps its text.
		 */
		refetchPage: {
			params: { id, source_id: id, owner: ownerSchema },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; source_id: string; owner?: Owner }>) {
				const chatbot = await this.requireLive(ctx.params.id, ctx.params.owner);
				const source = await sourceOf(this, chatbot._id, ctx.params.source_id);
				if (source.kind !== "url" || !source.url) throw appError("validation_failed", "Only a web page can be fetched again.", { fields: [{ field: "source_id", message: "not a web page" }] });
				const page = await call<{ finalUrl: string; title: string | null; text: string }>(ctx, "crawler.fetchPage", { url: source.url }, { timeout: fetchTimeoutMs });
				const now = this.now();
				const before = source.status === "ready" ? (source.char_count ?? 0) : 0;
				const after = charCount(page.text);
				const delta = after - before;
				if (delta > 0) {
					const gate = consumeGate(chatbot, { urls: 0, files: 0, chars: delta }, now, now);
					if ((await this.chatbots.update(gate.query, gate.update)) !== 1) throw explainRefusal(await this.chatbots.findOne({ _id: chatbot._id }), { urls: 0, files: 0, chars: delta }, now);
				} else {
					await this.chatbots.update({ _id: chatbot._id }, releaseUpdate({ urls: 0, files: 0, chars: -delta }, now));
				}
				const fields = { status: "ready" as const, text: page.text, char_count: after, title: page.title ?? source.title, failure: null, updated_at: now };
				await this.sourceDocs.update({ _id: source._id, chatbot_id: source.chatbot_id }, { $set: fields });
				return withoutText({ ...source, ...fields });
			}
		}
	};
}
