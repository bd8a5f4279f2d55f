/**
 * Crisp web hooks: checking who sent one, and what it asks of the bot.
 *
 * Crisp plugin hooks are signed: `X-Crisp-Signature` is the hex HMAC-SHA256, keyed with the hook
 * secret, of `[<X-Crisp-Request-Timestamp>;<raw body>]`. Plain Website Hooks are not signed, so their
 * URL carries a secret `key` instead; the service accepts either proof and nothing else.
 *
 * Of the events, the bot acts on three (every other one is acknowledged and ignored):
 * - `message:send` from the visitor (`from: "user"`): text is answered, anything else (a file, an
 *   audio note, an animation) gets a short reply that only text is understood;
 * - `message:received` from an operator: either the bot's own reply coming back (recognised by the
 *   fingerprint the bot gave it) or a human operator writing, which hands the session over;
 * - `session:removed`: the conversation is over.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type CrispInbound =
	| { kind: "ignore"; reason: string }
	| { kind: "visitor_message"; website_id: string; session_id: string; fingerprint: string; what: "text"; text: string }
	| { kind: "visitor_message"; website_id: string; session_id: string; fingerprint: string; what: "not_text" }
	| { kind: "operator_message"; website_id: string; session_id: string; fingerprint: string }
	| { kind: "session_removed"; website_id: string; session_id: string };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.length <= 200;

/** True when `signature` is the hook secret's signature of this timestamp and raw body. */
export function crispSignatureValid(secret: string, timestamp: string, rawBody: Buffer, signature: string): boolean {
	const expected = createHmac("sha256", secret)
		.update(`[${timestamp};`, "utf8")
		.update(rawBody)
		.update("]", "utf8")
		.digest();
	const given = Buffer.from(signature, "hex");
	// A signature that is not 64 hex digits decodes to another length: refused without comparing.
	return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A fingerprint as Crisp sends it (a number) or as text, for use in keys. */
function fingerprintOf(value: unknown): string | undefined {
	if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
	if (typeof value === "string" && /^[0-9]{1,20}$/.test(value)) return value;
	return undefined;
}

export function readCrispEvent(payload: unknown): CrispInbound {
	if (!isObject(payload) || typeof payload.event !== "string") return { kind: "ignore", reason: "not a hook event" };
	const data = isObject(payload.data) ? payload.data : {};
	const website_id = nonEmpty(payload.website_id) ? payload.website_id : data.website_id;
	const session_id = data.session_id;
	if (!nonEmpty(website_id) || !nonEmpty(session_id)) return { kind: "ignore", reason: "no website or session" };
	switch (payload.event) {
		case "session:removed":
			return { kind: "session_removed", website_id, session_id };
		case "message:send": {
			if (data.from !== "user") return { kind: "ignore", reason: "not from the visitor" };
			const fingerprint = fingerprintOf(data.fingerprint);
			if (!fingerprint) return { kind: "ignore", reason: "no fingerprint" };
			if (data.type === "text" && typeof data.content === "string") {
				const text = data.content.trim();
				return text ? { kind: "visitor_message", website_id, session_id, fingerprint, what: "text", text } : { kind: "ignore", reason: "empty text" };
			}
			// Notes are operators' own; events and pickers are the chatbox's, not the visitor's words.
			if (data.type === "note" || data.type === "event" || data.type === "picker" || data.type === "field") return { kind: "ignore", reason: `a ${String(data.type)} message` };
			return { kind: "visitor_message", website_id, session_id, fingerprint, what: "not_text" };
		}
		case "message:received": {
			if (data.from !== "operator") return { kind: "ignore", reason: "not from an operator" };
			const fingerprint = fingerprintOf(data.fingerprint);
			return fingerprint ? { kind: "operator_message", website_id, session_id, fingerprint } : { kind: "ignore", reason: "no fingerprint" };
		}
		default:
			return { kind: "ignore", reason: `event ${payload.event}` };
	}
}
