/**
 * The chatbots service's side of an account's plan: the accounts service applies a plan change here
 * (`applyPlan`) and every chatbot of the account takes the plan's limits and message period; the
 * owner chooses which chatbots answer when the account holds more than the plan allows
 * (`chooseAnswering`). The applied plan is kept beside the account's chatbot count (the quota
 * document), so chatbots created or claimed later start under it whatever limits a caller read.
 */
import { AppliedPlan, notNewerThan, pausedUnder, planChange } from "../../lib/chatbots/plan-change";
import type { Chatbot } from "../../lib/chatbots/model";
import { appError } from "../../lib/errors";
import { limitsSchema } from "./params";
import type { ChatbotsThis, P } from "./types";

/** Compare-and-set rounds per chatbot before giving up (each lost round means a message was counted meanwhile). */
const APPLY_ATTEMPTS = 20;
/** Most chatbots a choice may name: more than any plan holds. */
const MAX_CHOICE = 200;

const accountId = { type: "string", min: 1, max: 100 } as const;
const periodSchema = {
	type: "object",
	nullable: true,
	props: { anchor: { type: "enum", values: ["paid"] }, start: "number|integer|min:0", end: "number|integer|min:0" }
} as const;

interface ApplyParams extends AppliedPlan {
	account_id: string;
}

export const planMethods = {
	/** The plan last applied to the account, or null when none was (a free account of old). */
	async appliedPlan(this: ChatbotsThis, accountIdValue: string): Promise<AppliedPlan | null> {
		const quota = await this.quotas.findOne({ _id: accountIdValue });
		return quota?.plan ?? null;
	},

	/** Writes one chatbot's paused flag and the plan it is under, retrying while messages are counted meanwhile. */
	async applyToChatbot(this: ChatbotsThis, id: string, plan: AppliedPlan, paused: boolean): Promise<boolean> {
		for (let attempt = 0; attempt < APPLY_ATTEMPTS; attempt++) {
			const chatbot = await this.chatbots.findOne({ _id: id });
			if (!chatbot || (chatbot.plan_revision ?? 0) > plan.revision) return false;
			const change = planChange(chatbot, plan, paused, this.now());
			if ((await this.chatbots.update(change.query, change.update)) === 1) return true;
		}
		throw appError("conflict", "The chatbot kept changing while the plan was applied; retry.");
	},

	/** After a chatbot left the account: once the account fits its plan again, every chatbot answers. */
	async unpauseWhenFitting(this: ChatbotsThis, accountIdValue: string): Promise<void> {
		const plan = await this.appliedPlan(accountIdValue);
		if (!plan) return;
		const held = await this.chatbots.count({ account_id: accountIdValue });
		if (held <= plan.max_chatbots) await this.chatbots.update({ account_id: accountIdValue, paused: true }, { $set: { paused: false, updated_at: this.now() } });
	}
};

export const planActions = {
	/**
	 * Applies an account's plan to all its chatbots: their limits, the period their messages are
	 * counted in (`period` null: UTC calendar months), and which ones answer when the account holds
	 * more than `max_chatbots` (the others are paused, never deleted). Ordered by `revision`: a plan
	 * older than the one applied changes nothing. Idempotent. Returns `{applied, paused}` (paused ids).
	 */
	applyPlan: {
		params: { account_id: accountId, limits: limitsSchema, max_chatbots: "number|integer|min:0", period: periodSchema, revision: "number|integer|min:1" },
		async handler(this: ChatbotsThis, ctx: P<ApplyParams>) {
			const { account_id, limits, max_chatbots, period, revision } = ctx.params;
			const plan: AppliedPlan = { limits, max_chatbots, period: period ?? null, revision };
			const now = this.now();
			const kept = await this.quotas.update({ _id: account_id, ...notNewerThan(revision) }, { $set: { plan, plan_revision: revision, updated_at: now } });
			if (kept !== 1) {
				if (await this.quotas.findOne({ _id: account_id })) return { applied: false, paused: [] };
				const held = await this.chatbots.count({ account_id });
				// A racing first write wins; the update then decides by revision.
				await this.quotas.insert({ _id: account_id, chatbots: held, updated_at: now, plan, plan_revision: revision }).catch(() => undefined);
				if ((await this.quotas.update({ _id: account_id, ...notNewerThan(revision) }, { $set: { plan, plan_revision: revision } })) !== 1) return { applied: false, paused: [] };
			}
			const rows = await this.chatbots.find({ account_id });
			const paused = pausedUnder(rows, max_chatbots);
			for (const row of rows) await this.applyToChatbot(row._id, plan, paused.has(row._id));
			return { applied: true, paused: [...paused] };
		}
	},

	/**
	 * The owner's choice of which chatbots answer while the account holds more than its plan allows:
	 * the chosen ones answer, the others are paused. Throws `validation_failed` when more are chosen
	 * than the plan allows, `not_found` when a chosen id is not the account's. Returns the account's
	 * chatbots, newest first.
	 */
	chooseAnswering: {
		params: { account_id: accountId, ids: { type: "array", items: "string|min:1|max:100", max: MAX_CHOICE }, max_chatbots: "number|integer|min:0" },
		async handler(this: ChatbotsThis, ctx: P<{ account_id: string; ids: string[]; max_chatbots: number }>) {
			const { account_id } = ctx.params;
			const chosen = new Set(ctx.params.ids);
			const max = (await this.appliedPlan(account_id))?.max_chatbots ?? ctx.params.max_chatbots;
			if (chosen.size > max) {
				throw appError("validation_failed", `Choose at most ${max} chatbots: that is how many the plan lets answer.`, {
					detail: `${chosen.size} chatbots were chosen; the plan allows ${max}.`,
					fields: [{ field: "ids", message: `must name at most ${max} chatbots` }]
				});
			}
			const rows = await this.chatbots.find({ account_id });
			const own = new Set(rows.map(r => r._id));
			if ([...chosen].some(id => !own.has(id))) throw appError("not_found", "A chosen chatbot is not one of this account's.");
			const over = rows.length > max;
			const now = this.now();
			for (const row of rows) await this.chatbots.update({ _id: row._id, account_id }, { $set: { paused: over && !chosen.has(row._id), updated_at: now } });
			const after = await this.chatbots.find({ account_id });
			return after.sort((a: Chatbot, b: Chatbot) => b.created_at - a.created_at || a._id.localeCompare(b._id));
		}
	}
};
