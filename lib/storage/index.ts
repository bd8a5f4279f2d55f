import * as path from "node:path";
import { LocalObjectStore } from "./local-store";
import type { ObjectStore } from "./object-store";
import type { S3ObjectStore, S3StoreOptions } from "./s3-store";
import { resolveSigningSecret } from "./signing-secret";

/** What choosing and opening a store needs (the service passes its configuration). */
export interface StoreOptions {
	/** An S3-compatible store, or undefined for local disk under `dataDir`. */
	s3: S3StoreOptions | undefined;
	dataDir: string;
	/** Signs the local store's upload URLs; generated and kept under `dataDir` when undefined. */
	signingSecret: string | undefined;
	/** Base of the local store's upload URLs. */
	publicUrl: string;
}

/** The store the options select: S3 when configured, else local disk. */
export function createObjectStore(config: Readonly<StoreOptions>): ObjectStore {
	if (config.s3) {
		// The AWS SDK is required only when S3 is configured (some 30 MB once loaded).
		const { S3ObjectStore: Store } = require("./s3-store") as { S3ObjectStore: typeof S3ObjectStore };
		return new Store(config.s3);
	}
	return createLocalStore(config);
}

export function createLocalStore(config: Readonly<Omit<StoreOptions, "s3">>): LocalObjectStore {
	return new LocalObjectStore(path.join(config.dataDir, "uploads"), resolveSigningSecret(config.signingSecret, config.dataDir), config.publicUrl);
}

export type { ObjectStore } from "./object-store";
