/**
 * chatbots: owner of chatbots (limits, counters, lifecycle), their sources, and each account's
 * chatbot count.
 *
 * Every cap is an atomic conditional update (lib/chatbots/gates.ts): a refused request writes
 * nothing. The lifecycle is decided here alone: workers report facts and this service decides what
 * follows (services/chatbots/lifecycle.ts). Other services change chatbots only through these
 * actions. The actions live beside this file, one file per concern:
 *
 * - records.ts: create, get, list, claim, count messages, expire, remove;
 * - sources.ts: add a source or a page, and the extractor's facts;
 * - source-changes.ts: remove a source, fetch a page again;
 * - lifecycle.ts: train, the trainer's and crawler's facts, and the sweep;
 * - quotas.ts: the per-plan chatbot count as a reservation;
 * - plans.ts: an account's plan applied to its chatbots, and the owner's choice of which answer;
 * - dashboard-*.ts: the owner's dashboard pages of a chatbot and their forms (HTML and JSON);
 * - widget-actions.ts: the Deploy page and the owner's widget settings;
 * - visitor-sandbox.ts: the home page's "paste your website URL" sandbox and its page.
 *
 * After every write that changed a chatbot or its sources it broadcasts `chatbot.changed`
 * (lib/chatbots/changes.ts), which tells the gateways to forget the replies they kept of it.
 */
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import type { Chatbot, Source } from "../lib/chatbots/model";
import { CHATBOT_CHANGED_EVENT, ChatbotChanged, ChatbotCollection, changedChatbotIds } from "../lib/chatbots/changes";
import type { CollectionWrite } from "../lib/storage/collection-write";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import { overviewActions } from "./chatbots/dashboard-overview";
import { sourceChangeActions } from "./chatbots/source-changes";
import { sourcesActions } from "./chatbots/dashboard-sources";
import { createActions } from "./chatbots/dashboard-create";
import { visitorSandboxActions } from "./chatbots/visitor-sandbox";
import { lifecycleActions, lifecycleMethods } from "./chatbots/lifecycle";
import { planActions, planMethods } from "./chatbots/plans";
import { quotaMethods } from "./chatbots/quotas";
import { recordActions } from "./chatbots/records";
import { sourceActions } from "./chatbots/sources";
import type { ChatbotsMethods, ChatbotsThis, ChatbotsVars, QuotaDoc } from "./chatbots/types";
import { widgetActions } from "./chatbots/widget-actions";
import { KeyedLock } from "../lib/concurrency/keyed-lock";

/** How often the lifecycle sweep runs by itself (besides when services join and when the janitor asks). */
const SWEEP_EVERY_MS = 60_000;
/** Services that joined are given this long to settle before the sweep hands them waiting work. */
const SERVICES_SETTLE_MS = 1_000;

export interface ChatbotsServiceOptions {
	now?: () => number;
}

export default function createChatbotsService(config: Readonly<AppConfig>, opts: ChatbotsServiceOptions = {}): ServiceSchema<ServiceSettingSchema, ChatbotsMethods, ChatbotsVars> {
	return {
		name: "chatbots",
		mixins: [createDbMixin(config, "chatbots") as ServiceSchema],

		actions: {
			...recordActions,
			...sourceActions(config),
			...sourceChangeActions(config),
			...lifecycleActions,
			...planActions,
			...overviewActions(config),
			...widgetActions(config),
			...sourcesActions(config),
			...createActions(config),
			...visitorSandboxActions(config)
		},

		events: {
			/** A worker service joined (a crawler or trainer back after an outage): hand it what waits. */
			"$services.changed"(this: ChatbotsThis) {
				this.scheduleSweep(SERVICES_SETTLE_MS);
			}
		},

		methods: { ...lifecycleMethods, ...quotaMethods, ...planMethods } as ChatbotsMethods,

		async started(this: ChatbotsThis) {
			this.now = opts.now ?? Date.now;
			this.messageCounting = new KeyedLock();
			this.sweeps = new KeyedLock();
			this.chatbots = (this as unknown as { documents: DocumentCollection<Chatbot> }).documents;
			const sources = await openCollection<Source>(config, "sources", this);
			const quotas = await openCollection<QuotaDoc>(config, "chatbot_quotas", this);
			this.sourceDocs = sources.collection;
			this.quotas = quotas.collection;
			this.closers = [sources.close, quotas.close];
			// Whoever remembers what a chatbot looked like (the gateway's read cache) learns of every change.
			const announce = (collection: ChatbotCollection) => (write: CollectionWrite) => {
				const changed: ChatbotChanged = { ids: changedChatbotIds(collection, write) };
				this.broker.broadcast(CHATBOT_CHANGED_EVENT, changed).catch((err: unknown) => this.logger.warn("Could not announce a chatbot change:", err));
			};
			this.chatbots.onWrite(announce("chatbots"));
			this.sourceDocs.onWrite(announce("sources"));
			this.sweepTimer = setInterval(() => this.scheduleSweep(0), SWEEP_EVERY_MS);
			this.sweepTimer.unref();
		},

		async stopped(this: ChatbotsThis) {
			clearInterval(this.sweepTimer);
			clearTimeout(this.sweepSoon);
			await this.sweeps.idle();
			for (const close of this.closers ?? []) await close();
		}
	};
}
