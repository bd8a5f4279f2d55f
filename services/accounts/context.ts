/** What the accounts service's actions see on `this`. */
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import type { LoginThrottle } from "../../lib/accounts/login-throttle";
import type { DocumentCollection } from "../../mixins/db.mixin";
import type { PageMethods } from "./page-actions";
import type { AccountDoc, AccountStore } from "./store";

export interface AccountsVars {
	documents?: DocumentCollection<AccountDoc>;
	store: AccountStore;
	/** Signs the CSRF tokens of the anonymous forms the pages render. */
	secret: string;
	throttle: LoginThrottle;
	closers: Array<() => Promise<void>>;
}

export type AccountsThis = Service<ServiceSettingSchema> & AccountsVars & PageMethods;

/** The actions of the service, with `this` typed. */
export type AccountsActions = NonNullable<ServiceSchema<ServiceSettingSchema, PageMethods, AccountsVars>["actions"]>;
