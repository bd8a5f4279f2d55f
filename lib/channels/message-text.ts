/**
 * Text as messaging providers take it: cleaned of what they refuse, clipped, and split into parts
 * that fit one message.
 *
 * Telegram refuses a message over 4,096 characters, an empty one, and (with a parse mode) one whose
 * markup does not parse. Replies are therefore sent as plain text with no parse mode, never empty,
 * and split here: at a paragraph break when there is one in the last two thirds of the window, else
 * at a line break, then after a sentence, then at a space, and only as a last resort mid-word (never
 * inside a surrogate pair). Lengths are UTF-16 code units, which is what the limit counts, and never
 * fewer than the characters a person sees. No regular expression touches the text: every search is
 * a linear scan.
 */

/** Longest text of one Telegram message. */
export const TELEGRAM_MAX_CHARS = 4096;

const SENTENCE_END = new Set([".", "!", "?", "…", "。", "！", "？"]);
const WIDE_SENTENCE_END = new Set(["。", "！", "？"]);

function isHighSurrogate(code: number): boolean {
	return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

function isSpace(ch: string | undefined): boolean {
	return ch === " " || ch === "\n" || ch === "\t";
}

/**
 * Line breaks as `\n`, tabs kept, other control characters dropped, lone surrogates replaced with
 * U+FFFD: what is left is text every provider accepts.
 */
export function cleanText(text: string): string {
	let out = "";
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === 13) {
			if (text.charCodeAt(i + 1) !== 10) out += "\n";
			continue;
		}
		if ((code < 32 && code !== 9 && code !== 10) || code === 127) continue;
		if (isHighSurrogate(code) && isLowSurrogate(text.charCodeAt(i + 1))) {
			out += text[i] + text[i + 1];
			i++;
			continue;
		}
		out += isHighSurrogate(code) || isLowSurrogate(code) ? "\ufffd" : text[i];
	}
	return out;
}

/** The first `max` UTF-16 units of `text`, one fewer when that would cut a surrogate pair in half. */
export function clipText(text: string, max: number): string {
	if (text.length <= max) return text;
	const cut = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
	return text.slice(0, cut);
}

/** Just after the last sentence end in `text[floor, limit)`, or -1. */
function lastSentenceEnd(text: string, limit: number, floor: number): number {
	for (let i = limit - 1; i >= floor; i--) {
		const ch = text[i];
		if (!SENTENCE_END.has(ch)) continue;
		if (WIDE_SENTENCE_END.has(ch) || isSpace(text[i + 1])) return i + 1;
	}
	return -1;
}

/** The last space in `text[floor, limit]`, or -1. */
function lastSpace(text: string, limit: number, floor: number): number {
	for (let i = limit; i >= floor; i--) if (isSpace(text[i])) return i;
	return -1;
}

/** Where to end the next part of `text` (longer than `limit`): the best break at or before `limit`. */
function breakPoint(text: string, limit: number): number {
	// A break in the first third would leave a short part and gain nothing; look there last.
	const floor = Math.max(1, Math.floor(limit / 3));
	for (const searchFrom of [floor, 1]) {
		const paragraph = text.lastIndexOf("\n\n", limit);
		if (paragraph >= searchFrom) return paragraph;
		const line = text.lastIndexOf("\n", limit);
		if (line >= searchFrom) return line;
		const sentence = lastSentenceEnd(text, limit, searchFrom);
		if (sentence > 0) return sentence;
		const space = lastSpace(text, limit, searchFrom);
		if (space > 0) return space;
	}
	return isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
}

/** The parts to send for `text`: each non-empty, trimmed and at most `limit` UTF-16 units long. */
export function splitMessage(text: string, limit = TELEGRAM_MAX_CHARS): string[] {
	if (limit < 2) throw new Error("limit must be at least 2");
	const parts: string[] = [];
	let rest = cleanText(text).trim();
	while (rest.length > limit) {
		const cut = breakPoint(rest, limit);
		const head = rest.slice(0, cut).trimEnd();
		if (head) parts.push(head);
		rest = rest.slice(cut).trimStart();
	}
	if (rest) parts.push(rest);
	return parts;
}
