/**
 * The claim token of a sandbox chatbot, derived from its id with the server secret:
 * HMAC-SHA256(secret, "claim:" + chatbot_id), 32 bytes in base64url (the shape `looksLikeClaimToken`
 * accepts).
 *
 * Derived rather than random so that `get_chatbot` can hand the claim link out again: an agent that
 * lost the `create_chatbot` result still holds the chatbot_id, which already lets it act on the
 * sandbox. The database still stores only the token's SHA-256 (`claim_hash`), so a leaked database
 * without the secret claims nothing, and the link stops working once used because the claim clears
 * the hash.
 */
import { hmacSha256Base64Url } from "./secrets";

export function sandboxClaimToken(secret: string, chatbotId: string): string {
	// A short secret would make tokens guessable; a deployment error caught at first use.
	if (secret.length < 16) throw new TypeError("The signing secret must have at least 16 characters");
	return hmacSha256Base64Url(secret, `claim:${chatbotId}`);
}
