/**
 * The chatbots service's actions on whole chatbots: create (with everything it starts with), read,
 * list, claim, count a message, expire and remove.
 */
import { CHATBOT_KINDS, newCounters, type Chatbot, type ChatbotLimits, type SourceKind } from "../../lib/chatbots/model";
import { messageGate, notExpired } from "../../lib/chatbots/gates";
import { accountPeriod } from "../../lib/chatbots/plan-change";
import { newId, newSlug } from "../../lib/chatbots/ids";
import { noCrawl, queuedCrawl } from "../../lib/chatbots/lifecycle";
import { normalizePageUrl } from "../../lib/crawl/site-crawl";
import { appError } from "../../lib/errors";
import { id, kindSchema, limitsSchema, localeSchema, ownerSchema, pageUrl } from "./params";
import { call } from "../call";
import type { ChatbotsThis, Owner, P } from "./types";

interface CreateParams {
	id?: string;
	kind: Chatbot["kind"];
	locale: Chatbot["locale"];
	name?: string;
	limits: ChatbotLimits;
	ttl_ms?: number;
	account_id?: string;
	max_chatbots?: number;
	claim_hash?: string;
	crawl?: { url: string; then_train?: boolean };
}

const DEFAULT_NAMES: Record<Chatbot["locale"], string> = { en: "Demo chatbot", es: "Chatbot de demostración" };

export const recordActions = {
	/**
	 * Creates a chatbot with everything it starts with, in one write: its owner (an account, taking
	 * one of the plan's `max_chatbots` slots), its claim hash (anonymous sandboxes), its site crawl
	 * (queued, handed to a crawler at once, and training after it with `then_train`). An account's
	 * chatbot starts under the plan last applied to the account (plans.ts) when there is one, whatever
	 * limits the caller read, and counts its messages per period. Throws `forbidden` when the account
	 * holds `max_chatbots` already, `validation_failed` for a crawl URL that cannot be crawled.
	 * Returns the stored chatbot.
	 */
	create: {
		params: {
			id: { type: "uuid", optional: true },
			kind: kindSchema,
			locale: localeSchema,
			name: { type: "string", optional: true, max: 200 },
			limits: limitsSchema,
			ttl_ms: { type: "number", integer: true, positive: true, optional: true },
			account_id: { type: "string", optional: true, min: 1 },
			max_chatbots: { type: "number", integer: true, min: 0, optional: true },
			claim_hash: { type: "string", optional: true, length: 64 },
			crawl: { type: "object", optional: true, props: { url: pageUrl, then_train: { type: "boolean", optional: true } } }
		},
		async handler(this: ChatbotsThis, ctx: P<CreateParams>): Promise<Chatbot> {
			const p = ctx.params;
			const now = this.now();
			const startUrl = p.crawl ? normalizePageUrl(p.crawl.url) : undefined;
			if (p.crawl && !startUrl) {
				throw appError("validation_failed", "The website cannot be crawled.", {
					detail: "The address must be an absolute http or https URL.",
					fields: [{ field: "crawl.url", message: "must be an absolute http or https URL" }]
				});
			}
			const plan = p.account_id !== undefined ? await this.appliedPlan(p.account_id) : null;
			const limits = plan?.limits ?? p.limits;
			const chatbot: Chatbot = {
				_id: p.id ?? newId(),
				slug: newSlug(),
				kind: p.kind,
				name: p.name ?? DEFAULT_NAMES[p.locale],
				locale: p.locale,
				limits,
				counts: newCounters(),
				sources_version: 0,
				trained_version: 0,
				train_target: 0,
				train_pending: false,
				generation: 0,
				training: null,
				training_error: null,
				crawl: startUrl ? queuedCrawl(startUrl, limits.max_pages, p.crawl?.then_train ?? false, now) : noCrawl(now),
				account_id: p.account_id ?? null,
				claim_hash: p.claim_hash ?? null,
				message_period: p.account_id !== undefined ? accountPeriod(plan, now) : null,
				paused: false,
				...(plan ? { plan_revision: plan.revision } : {}),
				expires_at: p.ttl_ms ? now + p.ttl_ms : null,
				created_at: now,
				updated_at: now
			};
			const reserved = p.account_id !== undefined && p.max_chatbots !== undefined;
			if (reserved) await this.reserveChatbot(p.account_id as string, plan?.max_chatbots ?? (p.max_chatbots as number));
			let created: Chatbot;
			try {
				created = await this.chatbots.insert(chatbot);
			} catch (err) {
				if (reserved) await this.releaseChatbot(p.account_id as string);
				throw err;
			}
			if (startUrl) await this.advance(created._id);
			return created;
		}
	},

	/** A live chatbot and its sources (texts omitted). Throws `expired`, or `not_found` when `owner` does not hold it. */
	get: {
		params: { id, with_sources: { type: "boolean", optional: true, default: true }, owner: ownerSchema },
		async handler(this: ChatbotsThis, ctx: P<{ id: string; with_sources: boolean; owner?: Owner }>) {
			const chatbot = await this.requireLive(ctx.params.id, ctx.params.owner);
			const sources = ctx.params.with_sources ? (await this.sourceDocs.find({ chatbot_id: chatbot._id })).map(s => ({ ...s, text: null })) : [];
			return { chatbot, sources };
		}
	},

	/** A live chatbot by its public slug, or null. */
	findBySlug: {
		params: { slug: "string|max:64" },
		async handler(this: ChatbotsThis, ctx: P<{ slug: string }>) {
			return (await this.chatbots.findOne({ slug: ctx.params.slug, ...notExpired(this.now()) })) ?? null;
		}
	},

	/** An account's chatbots, newest first (claimed sandboxes included). */
	listByAccount: {
		params: { account_id: "string|min:1" },
		async handler(this: ChatbotsThis, ctx: P<{ account_id: string }>) {
			const rows = await this.chatbots.find({ account_id: ctx.params.account_id });
			return rows.sort((a, b) => b.created_at - a.created_at || a._id.localeCompare(b._id));
		}
	},

	/** How many sources of each kind each of these chatbots holds (for the account's list). */
	sourceTallies: {
		params: { ids: { type: "array", items: id, max: 1000 } },
		async handler(this: ChatbotsThis, ctx: P<{ ids: string[] }>) {
			const sources = ctx.params.ids.length ? await this.sourceDocs.find({ chatbot_id: { $in: ctx.params.ids } }) : [];
			const tallies: Record<string, Record<SourceKind, number>> = {};
			for (const chatbotId of ctx.params.ids) tallies[chatbotId] = { url: 0, file: 0, text: 0, qa: 0 };
			for (const source of sources) tallies[source.chatbot_id][source.kind]++;
			return tallies;
		}
	},

	/** The live, unclaimed sandbox whose claim token hashes to `claim_hash`, or null. */
	findByClaimHash: {
		params: { claim_hash: "string|length:64" },
		async handler(this: ChatbotsThis, ctx: P<{ claim_hash: string }>) {
			return (await this.chatbots.findOne({ claim_hash: ctx.params.claim_hash, kind: "sandbox", account_id: null, ...notExpired(this.now()) })) ?? null;
		}
	},

	/**
	 * Moves a sandbox into an account, atomically and once: only while `claim_hash` still matches and
	 * the sandbox is live. It leaves sandbox retention (no expiry), takes the plan's limits (those last
	 * applied to the account when there are some) and one of the account's `max_chatbots` slots, and
	 * starts counting its messages per period from zero. Throws `forbidden` when the account is full,
	 * `not_found` when the link was used or the sandbox is gone.
	 */
	claim: {
		params: { id, claim_hash: "string|length:64", account_id: "string|min:1", limits: limitsSchema, max_chatbots: { type: "number", integer: true, min: 0, optional: true } },
		async handler(this: ChatbotsThis, ctx: P<{ id: string; claim_hash: string; account_id: string; limits: ChatbotLimits; max_chatbots?: number }>) {
			const { id: chatbotId, claim_hash, account_id, limits, max_chatbots } = ctx.params;
			const now = this.now();
			const plan = await this.appliedPlan(account_id);
			if (max_chatbots !== undefined) await this.reserveChatbot(account_id, plan?.max_chatbots ?? max_chatbots);
			const accountFields = {
				limits: plan?.limits ?? limits,
				message_period: accountPeriod(plan, now),
				"counts.messages": 0,
				paused: false,
				...(plan ? { plan_revision: plan.revision } : {})
			};
			const n = await this.chatbots.update(
				{ _id: chatbotId, kind: "sandbox", account_id: null, claim_hash, ...notExpired(now) },
				{ $set: { kind: "account", account_id, claim_hash: null, expires_at: null, ...accountFields, updated_at: now } }
			);
			if (n !== 1) {
				if (max_chatbots !== undefined) await this.releaseChatbot(account_id);
				throw appError("not_found", "This claim link was already used, or its chatbot no longer exists.", {
					hint: "A claim link works once. If you claimed it, the chatbot is in your account; otherwise ask for a new chatbot."
				});
			}
			return (await this.chatbots.findOne({ _id: chatbotId })) as Chatbot;
		}
	},

	/**
	 * Counts one answered message against the cap of its period, atomically (lib/chatbots/gates.ts
	 * `messageGate`): the first message after a period ended starts the next one. Throws
	 * `message_cap` when the period's messages are used, `chatbot_paused` while the account holds
	 * more chatbots than its plan allows and this one is not chosen. The update matches the count and
	 * period it read (compare-and-set, retried when another message was counted in between), so each
	 * caller learns its own, distinct `messages_used`. Within this process the messages of one
	 * chatbot are counted one after another: a crowd of simultaneous messages otherwise retried each
	 * other out of the attempts and got 409s; the compare-and-set remains for other replicas.
	 */
	countMessage: {
		params: { id },
		async handler(this: ChatbotsThis, ctx: P<{ id: string }>) {
			return this.messageCounting.run(ctx.params.id, async () => {
				for (let attempt = 0; attempt < 50; attempt++) {
					const chatbot = await this.requireLive(ctx.params.id);
					const decision = messageGate(chatbot, this.now());
					if (!decision.ok) throw decision.refusal;
					if ((await this.chatbots.update(decision.gate.query, decision.gate.update)) === 1) {
						return { messages_used: decision.messagesUsed, max_messages: chatbot.limits.max_messages };
					}
				}
				throw appError("conflict", "The chatbot changed while counting the message; retry.");
			});
		}
	},

	/** Chatbots whose lifetime is over (for the janitor). */
	listExpired: {
		params: { now: "number|integer", limit: { type: "number", integer: true, default: 100 } },
		async handler(this: ChatbotsThis, ctx: P<{ now: number; limit: number }>) {
			const rows = await this.chatbots.find({ expires_at: { $lte: ctx.params.now } }, { limit: ctx.params.limit });
			return rows.map(c => ({ _id: c._id, slug: c.slug, kind: c.kind }));
		}
	},

	/** Storage keys of a chatbot's files (for removing them with it). */
	storageKeys: {
		params: { id },
		async handler(this: ChatbotsThis, ctx: P<{ id: string }>) {
			const rows = await this.sourceDocs.find({ chatbot_id: ctx.params.id, kind: "file" });
			return rows.map(r => r.storage_key).filter((k): k is string => typeof k === "string");
		}
	},

	/**
	 * Deletes a chatbot with everything of it: its files in storage and its vectors first (if either
	 * fails, nothing of the chatbot is removed and the call may be repeated), then its sources and the
	 * chatbot, giving its account slot back. A deployment without a storage or vectors service has
	 * nothing there to delete. Emits `chatbot.removed`. Returns what it removed.
	 */
	remove: {
		params: { id },
		async handler(this: ChatbotsThis, ctx: P<{ id: string }>) {
			const chatbotId = ctx.params.id;
			const chatbot = await this.chatbots.findOne({ _id: chatbotId });
			let files = 0;
			// Uploads are kept under the scope the chatbot had when they came (a claimed sandbox keeps `sandbox/`).
			if (this.runs("storage.deletePrefix")) {
				for (const scope of CHATBOT_KINDS) files += (await call<{ deleted: number }>(ctx, "storage.deletePrefix", { prefix: `${scope}/${chatbotId}` })).deleted;
			}
			if (this.runs("vectors.deleteChatbot")) await call(ctx, "vectors.deleteChatbot", { chatbot_id: chatbotId });
			const sources = await this.sourceDocs.remove({ chatbot_id: chatbotId });
			const chatbots = await this.chatbots.remove({ _id: chatbotId });
			if (chatbots) {
				if (chatbot?.account_id) {
					await this.releaseChatbot(chatbot.account_id);
					await this.unpauseWhenFitting(chatbot.account_id);
				}
				ctx.emit("chatbot.removed", { id: chatbotId });
			}
			return { chatbots, sources, files };
		}
	}
};
