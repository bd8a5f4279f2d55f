/**
 * The chat service's answering for messaging channels (the channels service calls these; they have
 * no HTTP route). A channel names the chatbot by id and the conversation by its own key (a Telegram
 * chat, a Crisp session); the answer is the one the chat API gives, through `chat.ask` itself (same
 * retrieval, citations, language and message cap), and the conversation is marked with its channel
 * for the conversation log.
 *
 * - `answer`: answers `message` in the live conversation of `(channel, conversation_key)`, or starts
 *   one. Returns the ChatReply of `chat.ask`; throws what it throws (`message_cap` and `conflict` in
 *   the chatbot's language) and `expired` when the chatbot is gone.
 * - `endConversation`: the channel's conversation is over (Crisp `session:removed`); the next message
 *   with the same key starts a new one. The ended conversation stays in the log until it expires.
 */
import type { Context } from "moleculer";
import { MAX_CHAT_MESSAGE_CHARS, type ChatReply } from "../../lib/chat/wire";
import type { ConversationDoc } from "../../lib/chat/conversations";
import type { Chatbot } from "../../lib/chatbots/model";
import type { DocumentCollection } from "../../mixins/db.mixin";
import { call } from "../call";

/** The channels a conversation can come from besides the widget and chat API. */
export const CONVERSATION_CHANNELS = ["telegram", "crisp"] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];

/** A conversation as channels mark it: its channel, and while it goes on, the channel's key for it. */
type ChannelConversation = ConversationDoc & { channel?: ConversationChannel; channel_key?: string | null; ended_at?: number };

interface ChatThis {
	conversations(): DocumentCollection<ConversationDoc>;
}

interface AnswerParams {
	chatbot_id: string;
	channel: ConversationChannel;
	conversation_key: string;
	message: string;
}

type C<P> = Context<P, Record<string, unknown>>;

/** Long enough for an LLM to write a whole answer. */
const ANSWER_TIMEOUT_MS = 120_000;

const keyParams = {
	chatbot_id: "string|min:1|max:100",
	channel: { type: "enum", values: [...CONVERSATION_CHANNELS] },
	conversation_key: "string|min:1|max:200"
} as const;

export const channelAnswerActions = {
	answer: {
		params: { ...keyParams, message: { type: "string", min: 1, max: MAX_CHAT_MESSAGE_CHARS } },
		async handler(this: ChatThis, ctx: C<AnswerParams>): Promise<ChatReply> {
			const { chatbot_id, channel, conversation_key, message } = ctx.params;
			const { chatbot } = await call<{ chatbot: Chatbot }>(ctx, "chatbots.get", { id: chatbot_id, with_sources: false });
			const conversations = this.conversations() as DocumentCollection<ChannelConversation>;
			const live = await conversations.findOne({ chatbot_id, channel, channel_key: conversation_key, expires_at: { $gt: Date.now() } });
			const reply = await call<ChatReply>(ctx, "chat.ask", { slug: chatbot.slug, message, channel, ...(live ? { conversation_id: live._id } : {}) }, { timeout: ANSWER_TIMEOUT_MS });
			await conversations.update({ _id: reply.conversation_id }, { $set: { channel, channel_key: conversation_key } });
			return reply;
		}
	},

	endConversation: {
		params: keyParams,
		async handler(this: ChatThis, ctx: C<Omit<AnswerParams, "message">>): Promise<{ ended: number }> {
			const { chatbot_id, channel, conversation_key } = ctx.params;
			const conversations = this.conversations() as DocumentCollection<ChannelConversation>;
			const ended = await conversations.update({ chatbot_id, channel, channel_key: conversation_key }, { $set: { channel_key: null, ended_at: Date.now() } });
			return { ended };
		}
	}
};
