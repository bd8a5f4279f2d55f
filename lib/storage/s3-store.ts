/**
 * S3-compatible object store. Uploads are real presigned PUTs that sign the Content-Type (and the
 * Content-Length when the client declared a size), so S3 itself refuses a mismatching PUT.
 */
import { CopyObjectCommand, DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { ObjectInfo, ObjectStore, PresignedPut } from "./object-store";
import { sealedKey } from "./upload-grants";

/** Where the S3-compatible store is and how to reach it. */
export interface S3StoreOptions {
	endpoint: string | undefined;
	region: string;
	bucket: string;
	accessKeyId: string;
	secretAccessKey: string;
	forcePathStyle: boolean;
}

export class S3ObjectStore implements ObjectStore {
	readonly kind = "s3" as const;
	private readonly client: S3Client;

	constructor(private readonly cfg: S3StoreOptions) {
		this.client = new S3Client({
			region: cfg.region,
			endpoint: cfg.endpoint,
			forcePathStyle: cfg.forcePathStyle,
			credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey }
		});
	}

	async presignPut(key: string, contentType: string, opts: { maxBytes: number; size?: number; ttlSeconds: number; now?: number }): Promise<PresignedPut> {
		const command = new PutObjectCommand({ Bucket: this.cfg.bucket, Key: key, ContentType: contentType, ContentLength: opts.size });
		const signed = new Set(["content-type"]);
		if (opts.size !== undefined) signed.add("content-length");
		const url = await getSignedUrl(this.client, command, { expiresIn: opts.ttlSeconds, signableHeaders: signed });
		return { url, headers: { "Content-Type": contentType }, expiresAt: (opts.now ?? Date.now()) + opts.ttlSeconds * 1000 };
	}

	async head(key: string): Promise<ObjectInfo | null> {
		try {
			const res = await this.client.send(new HeadObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
			return { size: Number(res.ContentLength ?? 0), contentType: res.ContentType ?? null };
		} catch (err) {
			const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
			if (status === 404 || (err as Error).name === "NotFound") return null;
			throw err;
		}
	}

	async get(key: string): Promise<Buffer> {
		const res = await this.client.send(new GetObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
		const bytes = await res.Body?.transformToByteArray();
		return Buffer.from(bytes ?? new Uint8Array());
	}

	async delete(key: string): Promise<void> {
		await this.client.send(new DeleteObjectCommand({ Bucket: this.cfg.bucket, Key: key }));
	}

	/**
	 * A presigned PUT cannot be revoked, and S3 refuses a second PUT to a key only when the client
	 * sends `If-None-Match: *` — a header signing would make mandatory for every client. So the
	 * attached bytes move to a key no URL was issued for; a later PUT to the old URL lands on an
	 * unattached object that the upload sweep deletes.
	 */
	async seal(key: string): Promise<string> {
		const target = sealedKey(key);
		await this.move(key, target);
		return target;
	}

	async unseal(key: string, storedKey: string): Promise<void> {
		if (storedKey !== key) await this.move(storedKey, key);
	}

	private async move(from: string, to: string): Promise<void> {
		// CopySource is `<bucket>/<key>`, URL-encoded per segment.
		const source = `${this.cfg.bucket}/${from.split("/").map(encodeURIComponent).join("/")}`;
		await this.client.send(new CopyObjectCommand({ Bucket: this.cfg.bucket, Key: to, CopySource: source }));
		await this.delete(from);
	}

	async deletePrefix(prefix: string): Promise<number> {
		let count = 0;
		let token: string | undefined;
		do {
			const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.cfg.bucket, Prefix: prefix.endsWith("/") ? prefix : `${prefix}/`, ContinuationToken: token }));
			const keys = (page.Contents ?? []).map(o => ({ Key: o.Key as string }));
			if (keys.length) {
				await this.client.send(new DeleteObjectsCommand({ Bucket: this.cfg.bucket, Delete: { Objects: keys } }));
				count += keys.length;
			}
			token = page.IsTruncated ? page.NextContinuationToken : undefined;
		} while (token);
		return count;
	}
}
