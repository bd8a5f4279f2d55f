/**
 * S3-compatible object store. Uploads are real presigned PUTs that sign the Content-Type (and the
 * Content-Length when the client declared a size), so S3 itself refuses a mismatching PUT.
 */
import { DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { S3Config } from "../../config";
import type { ObjectInfo, ObjectStore, PresignedPut } from "./object-store";

export class S3ObjectStore implements ObjectStore {
	readonly kind = "s3" as const;
	private readonly client: S3Client;

	constructor(private readonly cfg: S3Config) {
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
