/**
 * The chatbots service's instance, as its action files see it (`this` in every handler).
 */
import type { Context, Service } from "moleculer";
import type { Chatbot, FailureCode, Source } from "../../lib/chatbots/model";
import type { AppliedPlan } from "../../lib/chatbots/plan-change";
import type { DocumentCollection } from "../../mixins/db.mixin";
import type { KeyedLock } from "../../lib/concurrency/keyed-lock";

/** Who may reach a chatbot: an account's owner, or (null) anybody holding an unclaimed sandbox's id. */
export interface Owner {
	account_id: string | null;
}

/** How many chatbots an account holds, reserved before each one is made (see quotas.ts). */
export interface QuotaDoc {
	/** The account id. */
	_id: string;
	chatbots: number;
	updated_at: number;
	/** The account's plan as last applied (plans.ts); absent until a plan change reached the account. */
	plan?: AppliedPlan;
	plan_revision?: number;
}

export interface ChatbotsVars {
	now: () => number;
	chatbots: DocumentCollection<Chatbot>;
	sourceDocs: DocumentCollection<Source>;
	quotas: DocumentCollection<QuotaDoc>;
	closers: Array<() => Promise<void>>;
	/** Messages of one chatbot are counted one after another in this process (records.ts `countMessage`). */
	messageCounting: KeyedLock;
	sweepTimer?: NodeJS.Timeout;
	sweepSoon?: NodeJS.Timeout;
	/** Sweeps take turns (the timer's, a joining service's, the `sweep` action's): two at once would hand the same waiting work out twice. */
	sweeps: KeyedLock;
}

export interface SweepResult {
	/** Crawls handed to a crawler again. */
	crawls: number;
	/** Training runs started for waiting requests. */
	trainings: number;
	/** Runs whose job was lost, closed. */
	lostRuns: number;
	/** Files whose extraction was queued again. */
	files: number;
}

export type ChatbotsMethods = {
	/** True when some node of the cluster serves `action`. */
	runs(action: string): boolean;
	/** The live chatbot, reachable by `owner` when given; throws `expired` (or `not_found` for another owner's). */
	requireLive(id: string, owner?: Owner): Promise<Chatbot>;
	/** Decides and starts what follows for the chatbot now (see lib/chatbots/lifecycle.ts); never throws. */
	advance(id: string): Promise<void>;
	/** Asks for training up to the chatbot's current sources, then advances. */
	askForTraining(id: string): Promise<void>;
	/** One pass over every chatbot with work waiting (crawls, trainings, lost runs, orphaned files), after any pass under way; `now` defaults to the clock when it starts. */
	sweep(now?: number): Promise<SweepResult>;
	/** Runs `sweep` soon, once, however many times it is asked for meanwhile. */
	scheduleSweep(delayMs: number): void;
	reserveChatbot(accountId: string, max: number): Promise<void>;
	releaseChatbot(accountId: string): Promise<void>;
	/** The plan last applied to the account, or null. */
	appliedPlan(accountId: string): Promise<AppliedPlan | null>;
	/** Applies a plan to one chatbot (compare-and-set); false when a newer plan reached it. */
	applyToChatbot(id: string, plan: AppliedPlan, paused: boolean): Promise<boolean>;
	/** Lets every chatbot of the account answer again once it holds no more than its plan allows. */
	unpauseWhenFitting(accountId: string): Promise<void>;
	/** Fails a pending source with a reason; a failed source counts no characters. */
	failSourceDoc(source: Source, code: FailureCode, message: string): Promise<Source>;
};

export type ChatbotsThis = Service & ChatbotsVars & ChatbotsMethods;
export type P<T> = Context<T, Record<string, unknown>>;
