/**
 * Local-disk object store. Upload URLs point at the gateway (`PUT /uploads/<key>`) and carry an
 * HMAC over method, key, content type, size limit and expiry, so the gateway can refuse a PUT with
 * another Content-Type, after expiry, with a bad signature or over the size — with no state.
 */
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { isWellFormedKey, ObjectInfo, ObjectStore, PresignedPut } from "./object-store";

/** Uploaded files are readable by the service's user only (they are other people's documents). */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

export interface UploadGrant {
	key: string;
	contentType: string;
	maxBytes: number;
	expires: number;
}

export class LocalObjectStore implements ObjectStore {
	readonly kind = "local" as const;

	constructor(
		private readonly root: string,
		private readonly secret: string,
		private readonly publicUrl: string
	) {}

	private signature(grant: UploadGrant): string {
		const payload = ["PUT", grant.key, grant.contentType, grant.maxBytes, grant.expires].join("\n");
		return createHmac("sha256", this.secret).update(payload).digest("base64url");
	}

	pathOf(key: string): string {
		if (!isWellFormedKey(key)) throw new Error("malformed storage key");
		const full = path.resolve(this.root, key);
		if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error("storage key escapes the root");
		return full;
	}

	async presignPut(key: string, contentType: string, opts: { maxBytes: number; size?: number; ttlSeconds: number; now?: number }): Promise<PresignedPut> {
		const expires = Math.floor((opts.now ?? Date.now()) / 1000) + opts.ttlSeconds;
		const grant: UploadGrant = { key, contentType, maxBytes: opts.size ?? opts.maxBytes, expires };
		const query = new URLSearchParams({ ct: contentType, max: String(grant.maxBytes), expires: String(expires), sig: this.signature(grant) });
		return { url: `${this.publicUrl}/uploads/${Buffer.from(key, "utf8").toString("base64url")}?${query}`, headers: { "Content-Type": contentType }, expiresAt: expires * 1000 };
	}

	/**
	 * Checks a PUT against its signed grant. Returns the grant, or the reason it is refused.
	 * `contentType` is the request's header; parameters such as `; charset=utf-8` must match too.
	 */
	verifyPut(key: string, query: URLSearchParams, contentType: string | undefined, nowMs = Date.now()): UploadGrant | { refused: "signature" | "expired" | "content_type" | "key" } {
		if (!isWellFormedKey(key)) return { refused: "key" };
		const grant: UploadGrant = {
			key,
			contentType: query.get("ct") ?? "",
			maxBytes: Number(query.get("max")),
			expires: Number(query.get("expires"))
		};
		const given = Buffer.from(query.get("sig") ?? "");
		const expected = Buffer.from(this.signature(grant));
		if (!Number.isFinite(grant.maxBytes) || !Number.isFinite(grant.expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
			return { refused: "signature" };
		}
		if (grant.expires * 1000 < nowMs) return { refused: "expired" };
		if ((contentType ?? "").trim().toLowerCase() !== grant.contentType.toLowerCase()) return { refused: "content_type" };
		return grant;
	}

	/**
	 * Stores bytes under a key: written to a temporary file, then renamed, so readers never see half
	 * a file. Each write has its own temporary name, so concurrent writes never share one.
	 */
	async write(key: string, data: AsyncIterable<Buffer>, contentType: string, maxBytes: number): Promise<number> {
		const full = this.pathOf(key);
		await fs.promises.mkdir(path.dirname(full), { recursive: true, mode: DIR_MODE });
		const tmp = `${full}.${randomUUID()}.part`;
		const handle = await fs.promises.open(tmp, "wx", FILE_MODE);
		let size = 0;
		try {
			for await (const chunk of data) {
				size += chunk.length;
				if (size > maxBytes) throw Object.assign(new Error("too large"), { tooLarge: true });
				await handle.write(chunk);
			}
			await handle.close();
			await fs.promises.writeFile(`${full}.meta.json`, JSON.stringify({ contentType, size }), { mode: FILE_MODE });
			await fs.promises.rename(tmp, full);
			return size;
		} catch (err) {
			await handle.close().catch(() => undefined);
			await fs.promises.rm(tmp, { force: true });
			throw err;
		}
	}

	async head(key: string): Promise<ObjectInfo | null> {
		try {
			const full = this.pathOf(key);
			const stat = await fs.promises.stat(full);
			const meta = JSON.parse(await fs.promises.readFile(`${full}.meta.json`, "utf8")) as { contentType?: string };
			return { size: stat.size, contentType: meta.contentType ?? null };
		} catch {
			return null;
		}
	}

	get(key: string): Promise<Buffer> {
		return fs.promises.readFile(this.pathOf(key));
	}

	async delete(key: string): Promise<void> {
		const full = this.pathOf(key);
		await fs.promises.rm(full, { force: true });
		await fs.promises.rm(`${full}.meta.json`, { force: true });
	}

	/** Embedded upload URLs are single-use (the PUT handler refuses a second upload): nothing to move. */
	async seal(key: string): Promise<string> {
		return key;
	}

	async unseal(): Promise<void> {}

	async deletePrefix(prefix: string): Promise<number> {
		const dir = path.resolve(this.root, prefix);
		if (!dir.startsWith(path.resolve(this.root) + path.sep)) return 0;
		let count = 0;
		const walk = async (d: string): Promise<void> => {
			const entries = await fs.promises.readdir(d, { withFileTypes: true }).catch(() => []);
			for (const e of entries) {
				if (e.isDirectory()) await walk(path.join(d, e.name));
				else if (!e.name.endsWith(".meta.json")) count++;
			}
		};
		await walk(dir);
		await fs.promises.rm(dir, { recursive: true, force: true });
		return count;
	}
}
