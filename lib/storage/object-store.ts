/**
 * Object storage behind one interface: local disk with HMAC-signed, expiring PUT URLs served by
 * the gateway (embedded default), or an S3-compatible store with presigned PUTs.
 */
export interface PresignedPut {
	url: string;
	/** Headers the PUT must carry: the signed Content-Type. */
	headers: Record<string, string>;
	expiresAt: number;
}

export interface ObjectInfo {
	size: number;
	contentType: string | null;
}

export interface ObjectStore {
	readonly kind: "local" | "s3";
	presignPut(key: string, contentType: string, opts: { maxBytes: number; size?: number; ttlSeconds: number; now?: number }): Promise<PresignedPut>;
	head(key: string): Promise<ObjectInfo | null>;
	get(key: string): Promise<Buffer>;
	delete(key: string): Promise<void>;
	/**
	 * Makes the bytes under an upload key immutable once they are attached, and returns the key to
	 * read them from. The embedded store already refuses a second PUT (its URLs are single-use), so
	 * the key stays; a presigned S3 URL keeps working until it expires, so the object is copied to
	 * a key no URL was issued for.
	 */
	seal(key: string): Promise<string>;
	/** Undoes `seal` when the attach that sealed the object failed. */
	unseal(key: string, storedKey: string): Promise<void>;
	/** Removes every object whose key starts with the prefix. */
	deletePrefix(prefix: string): Promise<number>;
}

/** Storage keys: `<scope>/<owner id>/<upload id>/<file name>`, with a sanitised file name. */
export function storageKey(scope: string, ownerId: string, uploadId: string, fileName: string): string {
	return `${scope}/${ownerId}/${uploadId}/${sanitizeFileName(fileName)}`;
}

/**
 * A file name safe in a key and on disk: no directories, no dot-dot, no control characters, no
 * leading dots, at most 120 characters, the extension kept.
 */
export function sanitizeFileName(name: string): string {
	const base = name.split(/[\\/]/).pop() ?? "";
	const cleaned = base
		.normalize("NFKC")
		.replace(/[^\p{L}\p{N}._ -]+/gu, "_")
		.replace(/\s+/g, "_")
		.replace(/\.{2,}/g, ".")
		.replace(/^[._-]+/, "")
		.slice(-120);
	return cleaned || "file";
}

/** True for a key this service could have issued (no traversal, no absolute paths). */
export function isWellFormedKey(key: string): boolean {
	if (key.length === 0 || key.length > 400) return false;
	const parts = key.split("/");
	return parts.length === 4 && parts.every(p => p.length > 0 && p !== "." && p !== ".." && /^[\p{L}\p{N}._ -]+$/u.test(p));
}
