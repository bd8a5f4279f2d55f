/**
 * The secret that signs embedded upload URLs. Configured (SIGNING_SECRET) for multi-host
 * deployments; otherwise generated once and kept under DATA_DIR, so every process sharing the
 * directory signs alike and URLs survive restarts.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export function resolveSigningSecret(configured: string | undefined, dataDir: string): string {
	if (configured) return configured;
	const file = path.join(dataDir, "signing-secret");
	fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
	try {
		// `wx`: only the first process creates it; the others read what it wrote.
		fs.writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
	} catch (err) {
		if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
	}
	return fs.readFileSync(file, "utf8").trim();
}
