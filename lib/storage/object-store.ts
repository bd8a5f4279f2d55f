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
