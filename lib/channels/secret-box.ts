/**
 * Provider credentials at rest (Telegram bot tokens, Crisp plugin keys and hook secrets): sealed
 * with AES-256-GCM under CHANNELS_KEY, each with a fresh 96-bit nonce. The record's id and field name
 * are bound in as associated data, so a sealed value copied into another record or field does not
 * open. Only the channels service holds the key; nothing else ever sees these values in the clear.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
export const CHANNELS_KEY_BYTES = 32;

export interface SecretBox {
	/** Seals `plain` for the record and field named by `context`. */
	seal(plain: string, context: string): string;
	/** Opens a sealed value; throws when it was tampered with, sealed for another context or another key. */
	open(sealed: string, context: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
	if (key.length !== CHANNELS_KEY_BYTES) throw new Error(`the channels key must be ${CHANNELS_KEY_BYTES} bytes`);
	return {
		seal(plain, context) {
			const nonce = randomBytes(12);
			const cipher = createCipheriv(ALGORITHM, key, nonce);
			cipher.setAAD(Buffer.from(context, "utf8"));
			const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
			return [VERSION, nonce.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
		},
		open(sealed, context) {
			const [version, nonce, body, tag] = sealed.split(".");
			if (version !== VERSION || nonce === undefined || body === undefined || tag === undefined) throw new Error("not a sealed value");
			const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(nonce, "base64url"));
			decipher.setAAD(Buffer.from(context, "utf8"));
			decipher.setAuthTag(Buffer.from(tag, "base64url"));
			return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
		}
	};
}

export interface ChannelsKeySource {
	/** CHANNELS_KEY as base64, when configured. */
	configured: string | undefined;
	dataDir: string;
	/**
	 * The documents live where several machines reach them (MONGO_URI): a key generated on one
	 * machine would not open what another sealed, so one must be configured.
	 */
	sharedDocuments: boolean;
}

/**
 * The key that seals channel credentials: the configured one, or (one machine, embedded documents)
 * one generated on first use and kept in `DATA_DIR/channels-key`, readable by its owner only.
 */
export function resolveChannelsKey(source: ChannelsKeySource): Buffer {
	if (source.configured) return Buffer.from(source.configured, "base64");
	if (source.sharedDocuments) {
		throw new Error(
			"CHANNELS_KEY is required when MONGO_URI is set: every channels replica must open the credentials the others stored. Generate one with `openssl rand -base64 32`."
		);
	}
	const file = path.join(source.dataDir, "channels-key");
	fs.mkdirSync(source.dataDir, { recursive: true });
	try {
		// `wx`: the first process writes it; any other sharing the directory reads the same key.
		fs.writeFileSync(file, randomBytes(CHANNELS_KEY_BYTES).toString("hex"), { flag: "wx", mode: 0o600 });
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
	}
	const key = Buffer.from(fs.readFileSync(file, "utf8").trim(), "hex");
	if (key.length !== CHANNELS_KEY_BYTES) throw new Error(`${file} does not hold a ${CHANNELS_KEY_BYTES}-byte key; remove it only if no channel is connected`);
	return key;
}
