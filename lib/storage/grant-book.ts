/**
 * The ledger of upload grants (see upload-grants.ts for the rules), over any document collection
 * that runs Mongo-style query documents (NeDB or MongoDB through the db mixin). Every step is a
 * conditional write on the version of the document that was read, so concurrent requests for one
 * slot or one key cannot both succeed.
 */
import { appError } from "../errors";
import type { ObjectInfo, ObjectStore } from "./object-store";
import {
	AttachedUploadDoc,
	attachedId,
	chooseSlot,
	GrantDoc,
	isReusable,
	ownerOfKey,
	PutRefusal,
	putRefusal,
	SlotState,
	slotId,
	STALE_STEP_MS,
	SWEEP_GRACE_MS,
	unchanged,
	UploadSlotDoc
} from "./upload-grants";

/** The operations of the db mixin's DocumentCollection that the ledger uses. */
export interface GrantCollection {
	findOne(query: object): Promise<GrantDoc | null>;
	find(query: object, opts?: { limit?: number }): Promise<GrantDoc[]>;
	insert(doc: GrantDoc): Promise<unknown>;
	update(query: object, update: object): Promise<number>;
	remove(query: object): Promise<number>;
}

export interface GrantRequest {
	key: string;
	contentType: string;
	maxBytes: number;
	/** When the URL stops being accepted (epoch ms). */
	expiresAt: number;
	/** How many unexpired, unattached grants the key's owner may hold, this one included. */
	slots: number;
}

export interface AttachedObject extends ObjectInfo {
	/** Where to read the bytes from from now on. */
	storedKey: string;
}

export interface SweepResult {
	/** Objects deleted: uploads never attached, and S3 uploads sent again after attaching. */
	deleted: number;
	/** Grant records dropped. */
	released: number;
}

/** A conflict between two requests for one slot: retried this many times before giving up. */
const SLOT_ATTEMPTS = 4;
const SWEEP_BATCH = 500;

interface SlotDocWithResume extends UploadSlotDoc {
	/** The state an interrupted attach returns to. */
	resume_state?: SlotState;
}

export class GrantBook {
	constructor(
		private readonly grants: GrantCollection,
		private readonly store: ObjectStore,
		private readonly now: () => number = Date.now,
		private readonly onCleanupError: (key: string, err: unknown) => void = () => undefined
	) {}

	private async slotOf(key: string): Promise<SlotDocWithResume | null> {
		return (await this.grants.findOne({ kind: "slot", key })) as SlotDocWithResume | null;
	}

	private async attachedOf(key: string): Promise<AttachedUploadDoc | null> {
		return (await this.grants.findOne({ _id: attachedId(key) })) as AttachedUploadDoc | null;
	}

	private async deleteObject(key: string): Promise<boolean> {
		try {
			const existed = (await this.store.head(key)) !== null;
			await this.store.delete(key);
			return existed;
		} catch (err) {
			this.onCleanupError(key, err);
			return false;
		}
	}

	/** Records a grant in a free slot of the key's owner; `file_cap` when every slot is taken. */
	async grant(request: GrantRequest): Promise<void> {
		const owner = ownerOfKey(request.key);
		if ((await this.slotOf(request.key)) || (await this.attachedOf(request.key))) {
			throw appError("conflict", "An upload was already granted for this storage key.");
		}
		for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt++) {
			const now = this.now();
			const docs = (await this.grants.find({ kind: "slot", owner })) as UploadSlotDoc[];
			const choice = chooseSlot(docs, request.slots, now);
			if ("full" in choice) {
				throw appError("file_cap", `Upload URLs for ${Math.max(0, request.slots)} more file(s) are already out and not attached yet.`, {
					hint: "Attach the files already uploaded (or let their URLs expire, 10 minutes after issue), then ask for a new upload URL."
				});
			}
			const doc: UploadSlotDoc = {
				_id: slotId(owner, choice.slot),
				kind: "slot",
				owner,
				slot: choice.slot,
				key: request.key,
				content_type: request.contentType,
				max_bytes: request.maxBytes,
				state: "issued",
				expires_at: request.expiresAt,
				updated_at: now
			};
			if (choice.replaces) {
				if ((await this.grants.update(unchanged(choice.replaces), { $set: doc })) === 1) {
					// The slot's previous upload expired unattached: its bytes go with it.
					await this.deleteObject(choice.replaces.key);
					return;
				}
				continue;
			}
			try {
				await this.grants.insert(doc);
				return;
			} catch (err) {
				// Another request took this slot first; anything else is a storage failure.
				if (!(await this.grants.findOne({ _id: doc._id }))) throw err;
			}
		}
		throw appError("conflict", "Too many upload URLs were requested for this chatbot at once; retry.");
	}

	/** Starts the one PUT a grant allows (embedded store). Refused: why. */
	async beginPut(key: string): Promise<{ ok: true } | { ok: false; reason: PutRefusal }> {
		const now = this.now();
		if ((await this.grants.update({ kind: "slot", key, state: "issued", expires_at: { $gt: now } }, { $set: { state: "uploading", updated_at: now } })) >= 1) {
			return { ok: true };
		}
		return { ok: false, reason: putRefusal(await this.slotOf(key), await this.attachedOf(key), now) };
	}

	/** Ends a PUT: the grant is used when the bytes were stored, and may be retried when not. */
	async endPut(key: string, stored: boolean): Promise<void> {
		await this.grants.update({ kind: "slot", key, state: "uploading" }, { $set: { state: stored ? "uploaded" : "issued", updated_at: this.now() } });
	}

	/**
	 * Starts attaching an upload: the grant is locked, the object checked and sealed. Throws
	 * `conflict` (already attached, or another request is on it) or `empty` (nothing uploaded).
	 * Every call must be followed by `settleAttach`.
	 */
	async beginAttach(key: string): Promise<AttachedObject> {
		const slot = await this.slotOf(key);
		if (!slot) {
			if (await this.attachedOf(key)) throw appError("conflict", "This upload is already attached.");
			throw appError("empty", "Nothing was uploaded under this key; PUT the file to upload_url first.");
		}
		if (slot.state === "uploading" || slot.state === "attaching") {
			throw appError("conflict", slot.state === "uploading" ? "The upload to this key has not finished yet." : "This upload is being attached by another request.");
		}
		const lockedAt = this.now();
		const locked = await this.grants.update(unchanged(slot), { $set: { state: "attaching", resume_state: slot.state, updated_at: lockedAt } });
		if (locked !== 1) throw appError("conflict", "This upload changed while it was being attached; retry.");
		const release = () => this.grants.update({ _id: slot._id, key, state: "attaching" }, { $set: { state: slot.state, updated_at: this.now() } });
		try {
			const info = await this.store.head(key);
			if (!info) throw appError("empty", "Nothing was uploaded under this key; PUT the file to upload_url first.");
			return { ...info, storedKey: await this.store.seal(key) };
		} catch (err) {
			await release();
			throw err;
		}
	}

	/** Finishes an attach begun with `beginAttach`: recorded as attached, or undone. */
	async settleAttach(key: string, storedKey: string, attached: boolean): Promise<void> {
		const slot = (await this.grants.findOne({ kind: "slot", key, state: "attaching" })) as SlotDocWithResume | null;
		if (!slot) return;
		if (!attached) {
			await this.store.unseal(key, storedKey);
			await this.grants.update(unchanged(slot), { $set: { state: slot.resume_state ?? "issued", updated_at: this.now() } });
			return;
		}
		const record: AttachedUploadDoc = { _id: attachedId(key), kind: "attached", owner: slot.owner, key, stored_key: storedKey, expires_at: slot.expires_at };
		try {
			await this.grants.insert(record);
		} catch (err) {
			if (!(await this.attachedOf(key))) throw err;
		}
		// The chatbot's file count now holds what the slot held.
		await this.grants.remove(unchanged(slot));
	}

	/**
	 * Deletes what expired: uploads never attached (with their grants), interrupted steps, and the
	 * records of attached uploads whose URLs can no longer be used — deleting first any object a
	 * later PUT left under an S3 key whose bytes were moved away when attached.
	 */
	async sweep(now: number): Promise<SweepResult> {
		const result: SweepResult = { deleted: 0, released: 0 };
		const cutoff = now - SWEEP_GRACE_MS;
		const slots = (await this.grants.find({ kind: "slot", expires_at: { $lte: cutoff } }, { limit: SWEEP_BATCH })) as UploadSlotDoc[];
		for (const slot of slots) {
			if (!isReusable(slot, now)) continue;
			if ((await this.grants.remove(unchanged(slot))) !== 1) continue;
			result.released++;
			// An interrupted attach may have attached the bytes already: leave them (they go with the chatbot).
			const attachInterrupted = slot.state === "attaching" && slot.updated_at <= now - STALE_STEP_MS;
			if (!attachInterrupted && (await this.deleteObject(slot.key))) result.deleted++;
		}
		const attached = (await this.grants.find({ kind: "attached", expires_at: { $lte: cutoff } }, { limit: SWEEP_BATCH })) as AttachedUploadDoc[];
		for (const record of attached) {
			if (record.stored_key !== record.key && (await this.deleteObject(record.key))) result.deleted++;
			result.released += await this.grants.remove({ _id: record._id });
		}
		return result;
	}

	/** Drops every grant of an owner (its files are being deleted). */
	forgetOwner(owner: string): Promise<number> {
		return this.grants.remove({ owner });
	}
}
