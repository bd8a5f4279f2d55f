import * as path from "node:path";
import type { AppConfig } from "../../config";
import { LocalObjectStore } from "./local-store";
import type { ObjectStore } from "./object-store";
import { S3ObjectStore } from "./s3-store";
import { resolveSigningSecret } from "./signing-secret";

/** The store the configuration selects: S3 when `S3_BUCKET` is set, else local disk. */
export function createObjectStore(config: Readonly<AppConfig>): ObjectStore {
	if (config.s3) return new S3ObjectStore(config.s3);
	return createLocalStore(config);
}

export function createLocalStore(config: Readonly<AppConfig>): LocalObjectStore {
	return new LocalObjectStore(path.join(config.dataDir, "uploads"), resolveSigningSecret(config.signingSecret, config.dataDir), config.publicUrl);
}

export type { ObjectStore } from "./object-store";
