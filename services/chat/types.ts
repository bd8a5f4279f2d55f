/**
 * The chat service's stored shapes shared by its action files.
 */
import type { Context, Service, ServiceSettingSchema } from "moleculer";
import type { ExchangeDoc } from "../../lib/chat/exchanges";
import type { DocumentCollection } from "../../mixins/db.mixin";

/** What is counted per chatbot and UTC day: the widget's beacons and the outcome of every message. */
export type DailyCounter = "widget_opened" | "message_sent" | "answered" | "declined";

export interface UsageDoc extends Partial<Record<DailyCounter, number>> {
	/** `<chatbot_id>:<YYYY-MM-DD>` */
	_id: string;
	chatbot_id: string;
	day: string;
}

/** The chat service as its owner-page actions see it (`this`). */
export type ChatInsightsThis = Service<ServiceSettingSchema> & {
	exchangeDocs: DocumentCollection<ExchangeDoc>;
	usageDocs: DocumentCollection<UsageDoc>;
};

export type C<P> = Context<P, Record<string, unknown>>;
