/** The gateway-local handlers, by the names the route table uses. */
import type { AppConfig } from "../../config";
import type { GatewayHandlerName } from "../../lib/http/routes/types";
import { createLocalStore } from "../../lib/storage";
import type { LocalObjectStore } from "../../lib/storage/local-store";
import { chatMessageHandler, chatPageHandler, createStaticAssetHandler } from "./chat";
import type { GatewayHandler } from "./context";
import { createHealthHandler } from "./health";
import { mcpGet, mcpPost } from "./mcp";
import { stripeWebhook } from "./stripe-webhook";
import { createUploadHandler } from "./upload";
import { crispWebhook, telegramWebhook } from "./webhooks";

export function gatewayHandlers(config: Readonly<AppConfig>): Partial<Record<GatewayHandlerName, GatewayHandler>> {
	let localStore: LocalObjectStore | undefined;
	// Created on first upload: only a gateway serving embedded uploads touches DATA_DIR.
	const store = () => (localStore ??= createLocalStore(config));
	return {
		health: createHealthHandler(),
		mcpPost,
		mcpGet,
		uploadPut: createUploadHandler(store),
		chatMessage: chatMessageHandler,
		chatPage: chatPageHandler,
		staticAsset: createStaticAssetHandler(),
		telegramWebhook,
		crispWebhook,
		stripeWebhook
	};
}
