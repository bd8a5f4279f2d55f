/**
 * What the accounts service hands out about an account and its keys: never a password hash, a key
 * hash or a session token. Dates are ISO 8601 strings.
 */
import type { PlanId } from "./plans";

export interface AccountView {
	id: string;
	email: string;
	plan: PlanId;
	created_at: string;
}

export interface ApiKeyView {
	/** Public key id (`key_...`), used to list and revoke. */
	id: string;
	name: string | null;
	last4: string;
	created_at: string;
	last_used_at: string | null;
	revoked: boolean;
}
