/**
 * Upload grants: who may PUT which bytes, how many at once, and what happens to them afterwards.
 *
 * A grant belongs to the owner of the storage key (the chatbot: `<scope>/<owner>/<upload>/<name>`)
 * and sits in one of that owner's numbered slots. The caller says how many slots the owner may
 * use (for a chatbot, its `max_files` minus the files it already has), so an owner never holds
 * more unexpired, unattached upload URLs than files it could still attach. A slot is a document
 * whose id is `<owner>#<n>`: taking a free slot is an insert, taking over an expired one a
 * conditional update on what was read, so two requests can never take the same slot, on NeDB and
 * MongoDB alike.
 *
 * A grant moves `issued` → `uploading` → `uploaded` (embedded store: the gateway's PUT handler
 * reports each step, which makes every URL single-use) → `attaching` → attached. With S3 the PUT
 * goes straight to the bucket, so a grant stays `issued` until it is attached. An attached grant
 * leaves its slot (the chatbot's file count takes over) and is remembered under `attached:<key>`
 * until its URL has expired, so a second attach or PUT is refused as already used, and a second
 * PUT to an S3 URL (which S3 itself cannot refuse) is found and deleted.
 */

export type SlotState = "issued" | "uploading" | "uploaded" | "attaching";

export interface UploadSlotDoc {
	/** `<owner>#<slot>` */
	_id: string;
	kind: "slot";
	owner: string;
	slot: number;
	key: string;
	content_type: string;
	max_bytes: number;
	state: SlotState;
	/** When the upload URL stops being accepted (epoch ms). */
	expires_at: number;
	updated_at: number;
}

export interface AttachedUploadDoc {
	/** `attached:<key>` */
	_id: string;
	kind: "attached";
	owner: string;
	key: string;
	/** Where the attached bytes live: the key itself, or a copy no URL was issued for (S3). */
	stored_key: string;
	/** The upload URL's expiry: until then a PUT to it is possible, and is refused or cleaned up. */
	expires_at: number;
}

export type GrantDoc = UploadSlotDoc | AttachedUploadDoc;

/** An `uploading` or `attaching` step that has not finished in this long was interrupted. */
export const STALE_STEP_MS = 10 * 60_000;

/** Unattached uploads are deleted this long after their URL expired (a PUT may still be finishing). */
export const SWEEP_GRACE_MS = 5 * 60_000;

export function slotId(owner: string, slot: number): string {
	return `${owner}#${slot}`;
}

export function attachedId(key: string): string {
	return `attached:${key}`;
}

/** The owner (second segment) of a well-formed storage key. */
export function ownerOfKey(key: string): string {
	return key.split("/")[1] ?? "";
}

/** True when a slot may be taken over: its URL expired and no step is running on it. */
export function isReusable(doc: UploadSlotDoc, now: number): boolean {
	if (doc.expires_at > now) return false;
	if (doc.state === "issued" || doc.state === "uploaded") return true;
	return doc.updated_at <= now - STALE_STEP_MS;
}

/** A grant that still holds its slot. */
export function isLive(doc: UploadSlotDoc, now: number): boolean {
	return !isReusable(doc, now);
}

export type SlotChoice = { slot: number; replaces?: UploadSlotDoc } | { full: true; live: number };

/**
 * Which slot a new grant should take, from the owner's slot documents as just read: the first
 * empty slot below `slots`, else the first reusable one there. Full when `slots` grants are live
 * (live grants in slots at or above `slots`, left from when the owner had more room, count too).
 */
export function chooseSlot(docs: readonly UploadSlotDoc[], slots: number, now: number): SlotChoice {
	const live = docs.filter(doc => isLive(doc, now)).length;
	if (live >= slots) return { full: true, live };
	const bySlot = new Map(docs.map(doc => [doc.slot, doc]));
	for (let slot = 0; slot < slots; slot++) if (!bySlot.has(slot)) return { slot };
	for (let slot = 0; slot < slots; slot++) {
		const doc = bySlot.get(slot) as UploadSlotDoc;
		if (isReusable(doc, now)) return { slot, replaces: doc };
	}
	return { full: true, live };
}

/** Matches exactly the version of a document that was read: the conditional part of every step. */
export function unchanged(doc: UploadSlotDoc): Record<string, unknown> {
	return { _id: doc._id, key: doc.key, state: doc.state, updated_at: doc.updated_at };
}

/** Why a PUT to a URL with a valid signature is refused, from the grant documents of its key. */
export type PutRefusal = "in_progress" | "used" | "expired" | "unknown";

export function putRefusal(slot: UploadSlotDoc | null, attached: AttachedUploadDoc | null, now: number): PutRefusal {
	if (attached) return "used";
	if (!slot) return "unknown";
	if (slot.state === "uploading") return "in_progress";
	if (slot.state === "uploaded" || slot.state === "attaching") return "used";
	return slot.expires_at <= now ? "expired" : "unknown";
}

/**
 * The key attached S3 bytes are copied to: the upload's segment with `.attached`, a key no URL is
 * ever issued for (issued keys have a bare UUID there), under the same owner prefix so deleting
 * the chatbot's files deletes it too.
 */
export function sealedKey(key: string): string {
	const parts = key.split("/");
	return [parts[0], parts[1], `${parts[2]}.attached`, parts[3]].join("/");
}
