/**
 * The chatbots service's actions on sources: add one through the atomic cap gate (a refused add
 * writes nothing), add a web page in one flow (cap check, fetch, add), and the facts the extractor
 * reports about a file's text. What follows an add (an extraction, a training run) is decided here,
 * by the owner, not by the caller.
 */
import type { AppConfig } from "../../config";
import { capRefusal, Consumption, consumeGate, consumptionFor, explainRefusal, releaseUpdate } from "../../lib/chatbots/gates";
import { newId } from "../../lib/chatbots/ids";
import { charCount, type Chatbot, type FailureCode, type Source, type SourceKind } from "../../lib/chatbots/model";
import { withTrainingRequest } from "../../lib/chatbots/lifecycle";
import { pageCallTimeoutMs } from "../../lib/crawl/deadline";
import { appError } from "../../lib/errors";
import { call } from "../call";
import { failureCodeSchema, id, ownerSchema, pageUrl, sourceKindSchema } from "./params";
import type { ChatbotsThis, Owner, P } from "./types";

/** Sources without their (possibly long) text, for answers and listings. */
export function withoutText(source: Source): Source {
	return { ...source, text: null };
}

type SourceFields = Partial<Pick<Source, "text" | "url" | "title" | "file_name" | "storage_key" | "content_type" | "question" | "answer">>;

interface AddSourceParams extends SourceFields {
	id: string;
	kind: SourceKind;
	status: "pending" | "ready";
	/** Train once it is in (the tool server's tools ask for this). */
	train?: boolean;
	owner?: Owner;
}

const optionalText = { type: "string", optional: true, nullable: true } as const;

/**
 * Stores a source through the gate, read once: a `ready` source consumes its characters now, a
 * `pending` file its file slot now and its characters when extraction completes.
 */
async function storeSource(self: ChatbotsThis, chatbot: Chatbot, kind: SourceKind, status: "pending" | "ready", fields: SourceFields, train = false): Promise<Source> {
	const now = self.now();
	const chars = status === "ready" ? charCount(fields.text ?? "") : 0;
	const consumption = consumptionFor(kind, chars);
	const gate = consumeGate(chatbot, consumption, now, now);
	// The gate moves sources_version one on; a source to be trained asks for that version in the same write.
	const update = train ? withTrainingRequest(gate.update, chatbot.sources_version + 1) : gate.update;
	if ((await self.chatbots.update(gate.query, update)) !== 1) {
		throw explainRefusal(await self.chatbots.findOne({ _id: chatbot._id }), consumption, now);
	}
	const source: Source = {
		_id: newId(),
		chatbot_id: chatbot._id,
		kind,
		status,
		url: fields.url ?? null,
		domain: fields.url ? new URL(fields.url).hostname : null,
		title: fields.title ?? null,
		file_name: fields.file_name ?? null,
		storage_key: fields.storage_key ?? null,
		content_type: fields.content_type ?? null,
		question: fields.question ?? null,
		answer: fields.answer ?? null,
		text: fields.text ?? null,
		char_count: status === "ready" ? chars : null,
		failure: null,
		created_at: now,
		updated_at: now
	};
	try {
		await self.sourceDocs.insert(source);
	} catch (err) {
		await self.chatbots.update({ _id: chatbot._id }, releaseUpdate(consumption, self.now()));
		throw err;
	}
	return withoutText(source);
}

/** What follows an added source: its file's extraction, and training when asked for. */
async function afterAdd(self: ChatbotsThis, ctx: P<unknown>, source: Source, train: boolean | undefined): Promise<void> {
	if (source.kind === "file" && source.status === "pending") {
		try {
			await call(ctx, "extractor.enqueue", { chatbot_id: source.chatbot_id, source_id: source._id });
		} catch (err) {
			// The file stays attached and `pending`; the lifecycle sweep queues it once the extractor answers.
			self.logger.warn(`Extraction of ${source._id} not queued yet:`, (err as Error).message);
		}
	}
	if (train) await self.askForTraining(source.chatbot_id);
}

export function sourceActions(config: Readonly<AppConfig>) {
	const fetchTimeoutMs = pageCallTimeoutMs(config.crawl.timeoutMs);
	return {
		/** Read-only cap check before expensive work (an upload); throws the cap error a real add would meet. */
		precheck: {
			params: { id, kind: sourceKindSchema, chars: "number|integer|min:0" },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; kind: SourceKind; chars: number }>) {
				const refusal = capRefusal(await this.chatbots.findOne({ _id: ctx.params.id }), consumptionFor(ctx.params.kind, ctx.params.chars), this.now());
				if (refusal) throw refusal;
				return { ok: true };
			}
		},

		/**
		 * Adds a source through the atomic gate; a pending file is queued for extraction, and `train`
		 * asks for training once the source is in. Throws the cap codes (`url_cap`, `file_cap`,
		 * `char_cap`), `expired`, or `not_found` when `owner` does not hold the chatbot.
		 */
		addSource: {
			params: {
				id,
				kind: sourceKindSchema,
				status: { type: "enum", values: ["pending", "ready"] },
				text: optionalText,
				url: { ...pageUrl, optional: true, nullable: true },
				title: optionalText,
				file_name: optionalText,
				storage_key: optionalText,
				content_type: optionalText,
				question: optionalText,
				answer: optionalText,
				train: { type: "boolean", optional: true },
				owner: ownerSchema
			},
			async handler(this: ChatbotsThis, ctx: P<AddSourceParams>) {
				const { id: chatbotId, kind, status, train, owner, ...fields } = ctx.params;
				const chatbot = await this.requireLive(chatbotId, owner);
				const source = await storeSource(this, chatbot, kind, status, fields, train);
				await afterAdd(this, ctx, source, train);
				return source;
			}
		},

		/**
		 * Adds a web page in one flow: the page budget is checked before the slow fetch, the crawler
		 * reads the page (robots.txt, address guard, browser), and its text joins through the gate.
		 * Throws `url_cap` / `char_cap`, 422 `empty` when the page gives nothing to train on (cause in
		 * `errors.detail`), `validation_failed` for an address that is not http(s).
		 */
		addPage: {
			params: { id, url: pageUrl, train: { type: "boolean", optional: true }, owner: ownerSchema },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; url: string; train?: boolean; owner?: Owner }>) {
				const chatbot = await this.requireLive(ctx.params.id, ctx.params.owner);
				const refusal = capRefusal(chatbot, consumptionFor("url", 0), this.now());
				if (refusal) throw refusal;
				const page = await call<{ finalUrl: string; title: string | null; text: string }>(ctx, "crawler.fetchPage", { url: ctx.params.url }, { timeout: fetchTimeoutMs });
				const source = await storeSource(this, chatbot, "url", "ready", { url: ctx.params.url, title: page.title, text: page.text }, ctx.params.train);
				await afterAdd(this, ctx, source, ctx.params.train);
				return source;
			}
		},

		/** Fact from the extractor: it is reading the source's file. */
		sourceProcessing: {
			params: { id, source_id: id },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; source_id: string }>) {
				const n = await this.sourceDocs.update(
					{ _id: ctx.params.source_id, chatbot_id: ctx.params.id, status: { $in: ["pending", "processing"] } },
					{ $set: { status: "processing", updated_at: this.now() } }
				);
				return { updated: n === 1 };
			}
		},

		/**
		 * Fact from the extractor: the file's text. Its characters pass the gate (`ready`) or the
		 * source fails with `char_cap`; a file without text fails `empty`. Idempotent: a source that
		 * is already ready or failed is left as it is.
		 */
		sourceExtracted: {
			params: { id, source_id: id, text: "string", title: optionalText },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; source_id: string; text: string; title?: string | null }>) {
				const { id: chatbotId, source_id, text, title } = ctx.params;
				const source = await this.sourceDocs.findOne({ _id: source_id, chatbot_id: chatbotId });
				if (!source) throw appError("not_found", "No such source.");
				if (source.status === "ready" || source.status === "failed") return withoutText(source);
				let result: Source;
				if (text.trim().length === 0) {
					result = await this.failSourceDoc(source, "empty", "No readable text was found in this file.");
				} else {
					result = await completeSource(this, source, text, title ?? source.title);
				}
				await this.advance(chatbotId);
				return result;
			}
		},

		/** Fact from the extractor: the file gave no text, for a reason. It counts no characters. */
		sourceFailed: {
			params: { id, source_id: id, code: failureCodeSchema, message: "string|max:1000" },
			async handler(this: ChatbotsThis, ctx: P<{ id: string; source_id: string; code: FailureCode; message: string }>) {
				const source = await this.sourceDocs.findOne({ _id: ctx.params.source_id, chatbot_id: ctx.params.id });
				if (!source) throw appError("not_found", "No such source.");
				if (source.status === "ready" || source.status === "failed") return withoutText(source);
				const result = await this.failSourceDoc(source, ctx.params.code, ctx.params.message);
				await this.advance(ctx.params.id);
				return result;
			}
		},

		/** The live chatbot and its ready sources with their text, for training. */
		trainingInput: {
			params: { id },
			async handler(this: ChatbotsThis, ctx: P<{ id: string }>) {
				const chatbot = await this.requireLive(ctx.params.id);
				const sources = await this.sourceDocs.find({ chatbot_id: chatbot._id, status: "ready" });
				return { chatbot, sources: sources.filter(s => (s.char_count ?? 0) > 0) };
			}
		}
	};
}

/** Counts an extracted file's characters through the gate and stores its text; over budget it fails `char_cap`. */
async function completeSource(self: ChatbotsThis, source: Source, text: string, title: string | null): Promise<Source> {
	const now = self.now();
	const chars = charCount(text);
	const consumption: Consumption = { urls: 0, files: 0, chars };
	const chatbot = await self.chatbots.findOne({ _id: source.chatbot_id });
	if (!chatbot) throw appError("expired", "No live chatbot has this id.");
	const gate = consumeGate(chatbot, consumption, now, now);
	if ((await self.chatbots.update(gate.query, gate.update)) !== 1) {
		const refusal = explainRefusal(await self.chatbots.findOne({ _id: source.chatbot_id }), consumption, now) as Error & { type?: string };
		if (refusal.type === "char_cap") return self.failSourceDoc(source, "char_cap", refusal.message);
		throw refusal;
	}
	await self.sourceDocs.update({ _id: source._id, chatbot_id: source.chatbot_id }, { $set: { status: "ready", text, char_count: chars, title, failure: null, updated_at: now } });
	return { ...withoutText(source), status: "ready", char_count: chars, title };
}
