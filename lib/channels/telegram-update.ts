/**
 * What an inbound Telegram update asks of the bot. Telegram sends whatever its Bot API has; the
 * service answers new messages in private chats and ignores the rest (with 200, so Telegram does
 * not send them again):
 *
 * - a text message → answered; `/start` and `/help` → the chatbot's welcome message;
 * - a photo, voice note, sticker, file, video… → a short reply that only text is understood;
 * - edited messages, channel posts, group chats, messages from bots, service messages (members
 *   joining, pinned messages) and every other update type → ignored.
 */

export type TelegramInbound =
	| { kind: "ignore"; update_id: number | null; reason: string }
	| { kind: "message"; update_id: number; chat_id: string; what: "text"; text: string }
	| { kind: "message"; update_id: number; chat_id: string; what: "welcome" | "not_text" };

/** Message fields that carry something other than text. */
const NOT_TEXT_FIELDS = ["photo", "voice", "sticker", "document", "video", "video_note", "audio", "animation", "location", "venue", "contact", "poll", "dice", "story", "game"];
const WELCOME_COMMANDS = new Set(["/start", "/help"]);

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** `/start`, `/start@my_bot` and `/start payload` all name `/start`. */
function commandOf(text: string): string | undefined {
	if (!text.startsWith("/")) return undefined;
	let end = 0;
	while (end < text.length && text[end] !== " " && text[end] !== "\n" && text[end] !== "@") end++;
	return text.slice(0, end).toLowerCase();
}

export function readTelegramUpdate(update: unknown): TelegramInbound {
	if (!isObject(update) || !Number.isSafeInteger(update.update_id)) return { kind: "ignore", update_id: null, reason: "not an update" };
	const update_id = update.update_id as number;
	const ignore = (reason: string): TelegramInbound => ({ kind: "ignore", update_id, reason });
	const message = update.message;
	if (!isObject(message)) return ignore("not a new message");
	const chat = message.chat;
	if (!isObject(chat) || !Number.isSafeInteger(chat.id)) return ignore("no chat");
	if (chat.type !== "private") return ignore("not a private chat");
	if (isObject(message.from) && message.from.is_bot === true) return ignore("sent by a bot");
	const chat_id = String(chat.id);
	if (typeof message.text === "string") {
		const text = message.text.trim();
		if (text === "") return ignore("empty text");
		const command = commandOf(text);
		if (command !== undefined && WELCOME_COMMANDS.has(command)) return { kind: "message", update_id, chat_id, what: "welcome" };
		return { kind: "message", update_id, chat_id, what: "text", text };
	}
	if (NOT_TEXT_FIELDS.some(field => message[field] !== undefined)) return { kind: "message", update_id, chat_id, what: "not_text" };
	return ignore("a service message");
}
