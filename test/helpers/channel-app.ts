/**
 * What the channels tests share: an account with a trained chatbot (made through the chatbots
 * service, as the dashboard will), the owner's JSON forms, and reads of the channels service's own
 * records (reply jobs, threads) and of the chat service's conversations.
 */
import type { ServiceBroker } from "moleculer";
import type { ReplyJob, ThreadDoc } from "../../lib/channels/model";
import type { ChannelsView } from "../../lib/channels/views";
import type { ConversationDoc } from "../../lib/chat/conversations";
import type { Chatbot, ChatbotLimits } from "../../lib/chatbots/model";
import type { DocumentCollection } from "../../mixins/db.mixin";
import { rawRequest, RawReply, signUp } from "./mcp-http";
import { eventually } from "./processes";

export const PLAN_LIMITS: ChatbotLimits = { max_urls: 100, max_files: 100, max_chars: 1_000_000, max_messages: 1000, max_pages: 50 };

/** The handbook page every test chatbot knows (a ready URL source, so answers cite a link). */
export const HANDBOOK_URL = "https://harbor.example/handbook";
export const HANDBOOK = [
	"Harbor Bikes rents city bikes on the waterfront.",
	"The warranty of the Zephyr-9 kettle lasts 37 months from the day of delivery.",
	"A city bike costs 12 euros for the first hour and 6 euros for each hour after that.",
	"The shop opens at nine and closes at six, Monday to Saturday."
].join("\n\n");

export interface Owner {
	email: string;
	cookie: string;
	accountId: string;
}

let accounts = 0;

export async function newOwner(baseUrl: string): Promise<Owner> {
	const email = `owner${++accounts}-${Date.now()}@example.com`;
	const { cookie, account } = await signUp(baseUrl, email);
	return { email, cookie, accountId: String(account.id) };
}

/** An account chatbot with `text` as its knowledge, trained and answering. */
export async function trainedChatbot(broker: ServiceBroker, accountId: string, options: { text?: string; limits?: Partial<ChatbotLimits>; name?: string; locale?: "en" | "es" } = {}): Promise<Chatbot> {
	const chatbot = await broker.call<Chatbot, object>("chatbots.create", {
		kind: "account",
		locale: options.locale ?? "en",
		name: options.name ?? "Harbor helper",
		limits: { ...PLAN_LIMITS, ...options.limits },
		account_id: accountId
	});
	await broker.call("chatbots.addSource", { id: chatbot._id, kind: "url", status: "ready", url: HANDBOOK_URL, title: "Harbor handbook", text: options.text ?? HANDBOOK, train: true });
	return eventually(
		async () => {
			const { chatbot: now } = await broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: chatbot._id, with_sources: false });
			return now.generation > 0 && now.training === null ? now : undefined;
		},
		60_000,
		"the chatbot to be trained"
	);
}

/** POSTs a JSON form of the channels page (as a program would), with the owner's session cookie. */
export function ownerPost(baseUrl: string, owner: Owner, path: string, body: Record<string, unknown> = {}): Promise<RawReply> {
	return rawRequest(`${baseUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: owner.cookie }, body: JSON.stringify(body) });
}

export function channelsPath(chatbotId: string): string {
	return `/account/chatbots/${chatbotId}/channels`;
}

export async function channelsOf(baseUrl: string, owner: Owner, chatbotId: string): Promise<ChannelsView> {
	const reply = await rawRequest(`${baseUrl}${channelsPath(chatbotId)}`, { headers: { Accept: "application/json", Cookie: owner.cookie } });
	if (reply.status !== 200) throw new Error(`channels answered ${reply.status}: ${reply.text}`);
	return (reply.body as { channels: ChannelsView }).channels;
}

type Collections = { jobs(): DocumentCollection<ReplyJob>; threads: DocumentCollection<ThreadDoc> };

/** The channels service of an in-process broker, for reading its records. */
export function channelsRecords(broker: ServiceBroker): Collections {
	return broker.getLocalService("channels") as unknown as Collections;
}

export function conversations(broker: ServiceBroker): DocumentCollection<ConversationDoc & { channel?: string; channel_key?: string | null }> {
	return (broker.getLocalService("chat") as unknown as { conversations(): DocumentCollection<ConversationDoc & { channel?: string; channel_key?: string | null }> }).conversations();
}

/** Waits until the reply job is over (done or failed) and returns it. */
export function finishedJob(broker: ServiceBroker, jobId: string): Promise<ReplyJob> {
	return eventually(
		async () => {
			const job = await channelsRecords(broker).jobs().findOne({ _id: jobId });
			return job && (job.status === "done" || job.status === "failed") ? job : undefined;
		},
		30_000,
		`reply job ${jobId} to finish`
	);
}
