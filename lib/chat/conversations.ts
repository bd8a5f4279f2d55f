/**
 * Conversations are kept briefly, so a `conversation_id` can continue one: the last turns of each,
 * for a day after its last message. They hold what visitors typed, so they are not kept longer than
 * a chat session needs.
 */
export const CONVERSATION_TTL_MS = 24 * 3600_000;
/** Turns kept per conversation (a question and its answer are two). */
export const MAX_TURNS = 40;
/** Characters of an answer kept in the transcript. */
const MAX_STORED_ANSWER = 4000;

export interface Turn {
	role: "user" | "assistant";
	text: string;
	at: number;
}

export interface ConversationDoc {
	_id: string;
	chatbot_id: string;
	turns: Turn[];
	created_at: number;
	updated_at: number;
	expires_at: number;
}

/** The two turns one exchange adds. */
export function exchangeTurns(question: string, answer: string, now: number): Turn[] {
	return [
		{ role: "user", text: question, at: now },
		{ role: "assistant", text: answer.length > MAX_STORED_ANSWER ? `${answer.slice(0, MAX_STORED_ANSWER)}…` : answer, at: now }
	];
}

/** Appends turns to an existing conversation of the chatbot, keeping the last MAX_TURNS (Mongo and NeDB both run it). */
export function appendTurnsUpdate(turns: Turn[], now: number): Record<string, unknown> {
	return {
		$push: { turns: { $each: turns, $slice: -MAX_TURNS } },
		$set: { updated_at: now, expires_at: now + CONVERSATION_TTL_MS }
	};
}

export function newConversation(id: string, chatbotId: string, turns: Turn[], now: number): ConversationDoc {
	return { _id: id, chatbot_id: chatbotId, turns: turns.slice(-MAX_TURNS), created_at: now, updated_at: now, expires_at: now + CONVERSATION_TTL_MS };
}

/** The user's questions among the turns, oldest first: what a follow-up is read with. */
export function earlierQuestions(turns: readonly Turn[]): string[] {
	return turns.filter(turn => turn.role === "user").map(turn => turn.text);
}
