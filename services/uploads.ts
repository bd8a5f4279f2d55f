/**
 * Files reach a chatbot the same way from the demo API and the dashboard's file form:
 * - `issueUpload`: type and size checked, a file slot pre-checked, a presigned PUT returned (the
 *   chatbot holds at most as many unexpired upload URLs as files it can still attach);
 * - `attachUpload`: the upload is sealed while it is attached (its URL can no longer change the
 *   bytes), checked for size and type, added as a pending source, then settled as attached, or
 *   unsealed when anything refused it. The chatbots service queues its extraction.
 */
import type { Context } from "moleculer";
import { newId } from "../lib/chatbots/ids";
import { appError } from "../lib/errors";
import { ACCEPTED_UPLOAD_TYPES, type Chatbot, MAX_UPLOAD_BYTES, type Source, UPLOAD_URL_TTL_SECONDS } from "../lib/chatbots/model";
import { storageKey } from "../lib/storage/object-store";
import { call } from "./call";

type Ctx = Context<unknown, Record<string, unknown>>;

export interface UploadRequest {
	filename: string;
	content_type: string;
	size?: number;
}

export interface UploadGrant {
	ok: true;
	upload_url: string;
	s3_key: string;
	expires_at: string;
	headers: Record<string, string>;
}

export async function issueUpload(ctx: Ctx, chatbot: Chatbot, request: UploadRequest): Promise<UploadGrant> {
	const contentType = request.content_type.trim().toLowerCase();
	if (!(ACCEPTED_UPLOAD_TYPES as readonly string[]).includes(contentType)) {
		throw appError("file_type", `Files of type "${request.content_type}" cannot be read. Upload a PDF, Word (DOCX or DOC), text or Markdown file.`);
	}
	if (request.size !== undefined && request.size > MAX_UPLOAD_BYTES) {
		throw appError("file_size", `The file is ${request.size} bytes; the maximum is ${MAX_UPLOAD_BYTES}.`);
	}
	await call(ctx, "chatbots.precheck", { id: chatbot._id, kind: "file", chars: 0 });
	const key = storageKey(chatbot.kind, chatbot._id, newId(), request.filename);
	const target = await call<{ url: string; headers: Record<string, string>; expiresAt: number }>(ctx, "storage.presignPut", {
		key,
		content_type: contentType,
		size: request.size,
		max_bytes: MAX_UPLOAD_BYTES,
		ttl_seconds: UPLOAD_URL_TTL_SECONDS,
		slots: Math.max(0, chatbot.limits.max_files - chatbot.counts.files)
	});
	return { ok: true, upload_url: target.url, s3_key: key, expires_at: new Date(target.expiresAt).toISOString(), headers: target.headers };
}

/** What the attach needs of a service's logger. */
type Warner = { warn(...args: unknown[]): void };

export interface AttachUpload {
	chatbotId: string;
	/** The key issued with the upload URL; the caller has checked it belongs to this chatbot. */
	key: string;
	fileName: string;
	/** The type the client declared; the type the store recorded at upload wins. */
	declaredType?: string;
}

export async function attachUpload(ctx: Ctx, logger: Warner, upload: AttachUpload): Promise<Source> {
	const stored = await call<{ stored_key: string; size: number; contentType: string | null }>(ctx, "storage.beginAttach", { key: upload.key });
	let source: Source;
	try {
		if (stored.size > MAX_UPLOAD_BYTES) throw appError("file_size", `The uploaded file is ${stored.size} bytes; the maximum is ${MAX_UPLOAD_BYTES}.`);
		const contentType = (stored.contentType ?? upload.declaredType ?? "").split(";")[0].trim().toLowerCase();
		if (!(ACCEPTED_UPLOAD_TYPES as readonly string[]).includes(contentType)) throw appError("file_type", `Content type "${contentType}" is not accepted.`);
		source = await call<Source>(ctx, "chatbots.addSource", {
			id: upload.chatbotId,
			kind: "file",
			status: "pending",
			file_name: upload.fileName,
			title: upload.fileName,
			storage_key: stored.stored_key,
			content_type: contentType
		});
	} catch (err) {
		await settle(ctx, logger, upload.key, stored.stored_key, false);
		throw err;
	}
	await settle(ctx, logger, upload.key, stored.stored_key, true);
	return source;
}

/** Ends the attach. A failure here is only logged: the source is already decided, and the upload sweep tidies what is left. */
async function settle(ctx: Ctx, logger: Warner, key: string, storedKey: string, attached: boolean): Promise<void> {
	try {
		await call(ctx, "storage.settleAttach", { key, stored_key: storedKey, attached });
	} catch (err) {
		logger.warn(`Upload ${key} not settled (${attached ? "attached" : "refused"}):`, (err as Error).message);
	}
}
