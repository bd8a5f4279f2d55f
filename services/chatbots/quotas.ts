/**
 * The per-plan chatbot limit as a reservation: an account's chatbot count lives in one quota
 * document, and a new (or claimed) chatbot first takes a slot with a conditional `$inc` that only
 * matches below the plan's limit, so simultaneous creates can never pass it. A slot is given back
 * when the chatbot is removed or its creation fails.
 *
 * The count can drift only if a process dies between taking a slot and storing the chatbot; a
 * refused reservation then recounts the account's chatbots, once the document has been still for
 * a while (so reservations in flight are not mistaken for drift), and corrects it.
 */
import { appError } from "../../lib/errors";
import type { ChatbotsThis } from "./types";

/** A quota untouched this long has no reservation in flight. */
const SETTLED_MS = 60_000;

export function chatbotCapError(max: number, held: number) {
	return appError("forbidden", `The plan allows ${max} chatbots and this account has ${held}.`, {
		hint: "Delete a chatbot you no longer need, or move to a plan with more chatbots."
	});
}

export const quotaMethods = {
	async reserveChatbot(this: ChatbotsThis, accountId: string, max: number): Promise<void> {
		for (let attempt = 0; attempt < 3; attempt++) {
			const now = this.now();
			const taken = await this.quotas.update({ _id: accountId, chatbots: { $lt: max } }, { $inc: { chatbots: 1 }, $set: { updated_at: now } });
			if (taken === 1) return;
			const quota = await this.quotas.findOne({ _id: accountId });
			if (!quota) {
				// First chatbot of the account: start its count from what it holds (claimed sandboxes of old included).
				const held = await this.chatbots.count({ account_id: accountId });
				await this.quotas.insert({ _id: accountId, chatbots: held, updated_at: now }).catch(() => undefined); // a racing first insert wins
				continue;
			}
			if (now - quota.updated_at >= SETTLED_MS) {
				const held = await this.chatbots.count({ account_id: accountId });
				if (held < quota.chatbots) {
					await this.quotas.update({ _id: accountId, chatbots: quota.chatbots }, { $set: { chatbots: held, updated_at: now } });
					continue;
				}
			}
			throw chatbotCapError(max, quota.chatbots);
		}
		throw appError("conflict", "The account's chatbots changed while a new one was being added; retry.");
	},

	async releaseChatbot(this: ChatbotsThis, accountId: string): Promise<void> {
		await this.quotas.update({ _id: accountId, chatbots: { $gt: 0 } }, { $inc: { chatbots: -1 }, $set: { updated_at: this.now() } });
	}
};
