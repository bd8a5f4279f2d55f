/**
 * chatbots: owner of chatbots, their sources and Q&A pairs (the knowledge model).
 */
import type { ServiceSchema } from "moleculer";
import type { AppConfig } from "../config";
import { createDbMixin } from "../mixins/db.mixin";

export default function createChatbotsService(config: Readonly<AppConfig>): ServiceSchema {
	return {
		name: "chatbots",
		mixins: [createDbMixin(config, "chatbots") as ServiceSchema]
	};
}
