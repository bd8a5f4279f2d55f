/**
 * Email addresses for sign-up and log-in: trimmed, lower-cased, checked against a deliberately
 * plain pattern. Proving an address works is the job of a confirmation mail, not of a regex; the
 * pattern only catches typos and junk.
 *
 * The whole address is lower-cased. RFC 5321 lets the local part be case-sensitive, but no
 * mainstream provider treats it so, and one account per spelling would let `Ann@x` and `ann@x`
 * become two accounts.
 */

/** RFC 5321 caps a forward path at 256 octets including the angle brackets, leaving 254. */
export const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;

// Local part: dot-atom characters, no leading/trailing/double dot. Domain: at least two labels of
// letters, digits and inner hyphens, the last being alphabetic (a TLD).
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export type EmailResult = { ok: true; email: string } | { ok: false; message: string };

export function normalizeEmail(input: unknown): EmailResult {
	if (typeof input !== "string") return { ok: false, message: "The email address must be a string." };
	const email = input.trim().toLowerCase();
	if (email === "") return { ok: false, message: "The email address is required." };
	if (email.length > EMAIL_MAX_LENGTH) {
		return { ok: false, message: `The email address must have at most ${EMAIL_MAX_LENGTH} characters.` };
	}
	const at = email.lastIndexOf("@");
	const local = email.slice(0, at);
	const domain = email.slice(at + 1);
	if (at <= 0 || local.length > LOCAL_PART_MAX_LENGTH || !LOCAL_PART.test(local) || !DOMAIN.test(domain)) {
		return { ok: false, message: "The email address is not valid (expected name@example.com)." };
	}
	return { ok: true, email };
}
