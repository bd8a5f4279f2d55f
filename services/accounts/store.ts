/**
 * The accounts service's documents: accounts, API keys and web sessions. Secrets are stored only as
 * hashes (scrypt for passwords; SHA-256 for keys and session tokens, which are high-entropy).
 */
import { randomUUID } from "node:crypto";
import { SESSION_MAX_AGE_SECONDS } from "../../lib/accounts/cookies";
import { hashPassword, needsRehash, verifyPassword } from "../../lib/accounts/password";
import { DEFAULT_ACCOUNT_PLAN, PlanId } from "../../lib/accounts/plans";
import { notNewerThan } from "../../lib/chatbots/plan-change";
import { generateApiKey, looksLikeApiKey } from "../../lib/accounts/api-keys";
import { hashToken, newToken } from "../../lib/accounts/tokens";
import type { AccountView, ApiKeyView } from "../../lib/accounts/views";
import { appError } from "../../lib/errors";
import type { DocumentCollection } from "../../mixins/db.mixin";

export interface AccountDoc {
	_id: string;
	/** Normalised (trimmed, lower-case); unique. */
	email: string;
	password_hash: string;
	plan: PlanId;
	/** Orders plan changes (the billing service's revision): an older one never overwrites a newer. */
	plan_revision?: number;
	created_at: number;
	updated_at: number;
}

export interface ApiKeyDoc {
	/** Public key id (`key_...`), used to list and revoke. */
	_id: string;
	account_id: string;
	/** SHA-256 of the key: the stored credential. */
	hash: string;
	last4: string;
	name: string | null;
	created_at: number;
	last_used_at: number | null;
	revoked_at: number | null;
}

export interface WebSessionDoc {
	/** SHA-256 of the cookie's token. */
	_id: string;
	account_id: string;
	created_at: number;
	expires_at: number;
}

/** Active keys per account: plenty for every agent and machine, few enough to review in a list. */
export const MAX_ACTIVE_KEYS = 20;
/** last_used_at is refreshed at most this often, so authenticating a busy key is not a write per call. */
const LAST_USED_PRECISION_MS = 10 * 60 * 1000;

export class AccountStore {
	private dummyHash: Promise<string> | undefined;

	constructor(
		private readonly accounts: DocumentCollection<AccountDoc>,
		private readonly keys: DocumentCollection<ApiKeyDoc>,
		private readonly sessions: DocumentCollection<WebSessionDoc>,
		private readonly now: () => number
	) {}

	/**
	 * Creates an account on the default plan. Email uniqueness holds without a unique index (the
	 * embedded store has none we can rely on): insert, then count; if another account with the
	 * address exists, ours is removed. Two racing sign-ups may both lose, never both win.
	 */
	async createAccount(email: string, password: string): Promise<AccountDoc> {
		const taken = () => appError("conflict", "An account with this email address already exists.", { hint: "Log in instead, or use another address." });
		if (await this.accounts.findOne({ email })) throw taken();
		const now = this.now();
		const account: AccountDoc = {
			_id: randomUUID(),
			email,
			password_hash: await hashPassword(password),
			plan: DEFAULT_ACCOUNT_PLAN,
			created_at: now,
			updated_at: now
		};
		await this.accounts.insert(account);
		if ((await this.accounts.count({ email })) > 1) {
			await this.accounts.remove({ _id: account._id });
			throw taken();
		}
		return account;
	}

	/** The account when the password matches; null otherwise (same work either way). */
	async checkCredentials(email: string, password: string): Promise<AccountDoc | null> {
		const account = await this.accounts.findOne({ email });
		if (!account) {
			// Spend the same scrypt time as a real check, so response time does not reveal which emails exist.
			this.dummyHash ??= hashPassword("not-a-real-password-0000");
			await verifyPassword(password, await this.dummyHash);
			return null;
		}
		if (!(await verifyPassword(password, account.password_hash))) return null;
		if (needsRehash(account.password_hash)) {
			await this.accounts.update({ _id: account._id }, { $set: { password_hash: await hashPassword(password), updated_at: this.now() } });
		}
		return account;
	}

	findAccount(id: string): Promise<AccountDoc | null> {
		return this.accounts.findOne({ _id: id });
	}

	/**
	 * Moves the account to `plan` unless a newer revision already moved it (then null). The same
	 * revision may be applied again (a retried webhook). Throws `not_found` for an unknown account.
	 */
	async changePlan(id: string, plan: PlanId, revision: number): Promise<AccountDoc | null> {
		const n = await this.accounts.update({ _id: id, ...notNewerThan(revision) }, { $set: { plan, plan_revision: revision, updated_at: this.now() } });
		const account = await this.findAccount(id);
		if (!account) throw appError("not_found", "No account has this id.");
		return n === 1 ? account : null;
	}

	/** A new login session; returns the token for the cookie. Expired sessions of the account go. */
	async startSession(accountId: string): Promise<string> {
		const now = this.now();
		await this.sessions.remove({ account_id: accountId, expires_at: { $lte: now } });
		const token = newToken();
		await this.sessions.insert({ _id: hashToken(token), account_id: accountId, created_at: now, expires_at: now + SESSION_MAX_AGE_SECONDS * 1000 });
		return token;
	}

	/** The account of a live session token, or null. */
	async sessionAccount(token: string): Promise<AccountDoc | null> {
		const session = await this.sessions.findOne({ _id: hashToken(token), expires_at: { $gt: this.now() } });
		return session ? this.findAccount(session.account_id) : null;
	}

	async endSession(token: string): Promise<void> {
		await this.sessions.remove({ _id: hashToken(token) });
	}

	/** Creates a key; the full key is returned this once and never stored. */
	async createKey(accountId: string, name: string | null): Promise<{ key: string; doc: ApiKeyDoc }> {
		if ((await this.keys.count({ account_id: accountId, revoked_at: null })) >= MAX_ACTIVE_KEYS) {
			throw appError("conflict", `An account may have at most ${MAX_ACTIVE_KEYS} active API keys.`, { hint: "Revoke a key you no longer use, then create a new one." });
		}
		const generated = generateApiKey();
		const doc: ApiKeyDoc = {
			_id: generated.id,
			account_id: accountId,
			hash: generated.hash,
			last4: generated.last4,
			name,
			created_at: this.now(),
			last_used_at: null,
			revoked_at: null
		};
		await this.keys.insert(doc);
		return { key: generated.key, doc };
	}

	/** The account's active keys, newest first. */
	async activeKeys(accountId: string): Promise<ApiKeyDoc[]> {
		const rows = await this.keys.find({ account_id: accountId, revoked_at: null });
		return rows.sort((a, b) => b.created_at - a.created_at);
	}

	/** Revokes one of the account's keys; `not_found` when it has no such active key. */
	async revokeKey(accountId: string, keyId: string): Promise<ApiKeyDoc> {
		const now = this.now();
		const n = await this.keys.update({ _id: keyId, account_id: accountId, revoked_at: null }, { $set: { revoked_at: now } });
		if (n !== 1) throw appError("not_found", "This account has no active API key with this id.", { hint: "List the keys in the account settings." });
		return (await this.keys.findOne({ _id: keyId })) as ApiKeyDoc;
	}

	/** The account a presented API key belongs to; `unauthorized` for a malformed, unknown or revoked key. */
	async verifyKey(key: string): Promise<{ account_id: string; plan: PlanId }> {
		const refused = () => appError("unauthorized", "The API key is unknown or revoked.");
		if (!looksLikeApiKey(key)) throw refused();
		const doc = await this.keys.findOne({ hash: hashToken(key), revoked_at: null });
		if (!doc) throw refused();
		const account = await this.findAccount(doc.account_id);
		if (!account) throw refused();
		const now = this.now();
		if (doc.last_used_at === null || now - doc.last_used_at > LAST_USED_PRECISION_MS) {
			await this.keys.update({ _id: doc._id }, { $set: { last_used_at: now } });
		}
		return { account_id: account._id, plan: account.plan };
	}
}

/** The public view of a key (never its hash). */
export function apiKeyView(doc: ApiKeyDoc): ApiKeyView {
	return {
		id: doc._id,
		name: doc.name,
		last4: doc.last4,
		created_at: new Date(doc.created_at).toISOString(),
		last_used_at: doc.last_used_at === null ? null : new Date(doc.last_used_at).toISOString(),
		revoked: doc.revoked_at !== null
	};
}

export function accountView(doc: AccountDoc): AccountView {
	return { id: doc._id, email: doc.email, plan: doc.plan, created_at: new Date(doc.created_at).toISOString() };
}
