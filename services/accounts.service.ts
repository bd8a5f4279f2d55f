/**
 * accounts: owner of accounts, API keys and web sessions, and of the account and claim pages.
 *
 * Two layers in one service. The domain (accounts/domain-actions.ts) creates accounts, checks
 * credentials under a per-account log-in budget, keeps web sessions and issues, lists, verifies and
 * revokes API keys; the tool server asks `verifyApiKey` which account a Bearer key selects, and the
 * `auth` middleware asks `resolveSession` whose cookie a request carries. The pages
 * (accounts/page-actions.ts) are a thin layer over those actions: sign up, log in, settings and the
 * claim link, each a form a browser posts or a program posts as JSON. Claiming moves a sandbox
 * chatbot into an account through `chatbots.claim`, which succeeds once per link.
 */
import type Redis from "ioredis";
import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { AppConfig } from "../config";
import { ACCOUNT_LOGIN_POLICY, createLoginThrottle, LoginThrottlePolicy } from "../lib/accounts/login-throttle";
import { resolveSigningSecret } from "../lib/storage/signing-secret";
import { createDbMixin, DocumentCollection, openCollection } from "../mixins/db.mixin";
import type { AccountsVars } from "./accounts/context";
import { domainActions } from "./accounts/domain-actions";
import { PageMethods, pageActions, pageMethods } from "./accounts/page-actions";
import { AccountDoc, AccountStore, ApiKeyDoc, WebSessionDoc } from "./accounts/store";

export interface AccountsOptions {
	now?: () => number;
	/** The per-account log-in budget (tests shorten the window). */
	loginPolicy?: LoginThrottlePolicy;
}

export default function createAccountsService(config: Readonly<AppConfig>, opts: AccountsOptions = {}): ServiceSchema<ServiceSettingSchema, PageMethods, AccountsVars> {
	const now = opts.now ?? Date.now;

	return {
		name: "accounts",
		mixins: [createDbMixin(config, "accounts") as ServiceSchema],
		async started() {
			this.secret = resolveSigningSecret(config.signingSecret, config.dataDir);
			const keys = await openCollection<ApiKeyDoc>(config, "api_keys", this);
			const sessions = await openCollection<WebSessionDoc>(config, "web_sessions", this);
			this.closers = [keys.close, sessions.close];
			this.store = new AccountStore(this.documents as DocumentCollection<AccountDoc>, keys.collection, sessions.collection, now);
			// Log-in counters are shared by every accounts replica through Redis when there is one.
			// ioredis is required only with REDIS_URL.
			const redis = config.redisUrl ? new (require("ioredis") as typeof Redis)(config.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
			if (redis) {
				redis.on("error", (err: Error) => this.logger.warn("Redis:", err.message));
				this.closers.push(async () => redis.disconnect());
			}
			this.throttle = createLoginThrottle(opts.loginPolicy ?? ACCOUNT_LOGIN_POLICY, redis);
		},
		async stopped() {
			for (const close of this.closers ?? []) await close();
		},
		actions: { ...domainActions, ...pageActions(config.publicUrl) },
		methods: pageMethods(config.publicUrl)
	};
}
