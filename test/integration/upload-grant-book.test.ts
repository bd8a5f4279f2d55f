/**
 * The upload-grant ledger (lib/storage/grant-book.ts) on a real NeDB collection and the real local
 * object store in a temporary directory, with its clock moved by the test: slots per owner under
 * concurrency, expiry freeing slots (and deleting what an expired grant left), single use, the
 * attach lock, and the sweep. The slot choice itself is checked as a pure function first.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Readable } from "node:stream";
import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../config";
import { GrantBook, GrantCollection } from "../../lib/storage/grant-book";
import { LocalObjectStore } from "../../lib/storage/local-store";
import { chooseSlot, GrantDoc, putRefusal, sealedKey, STALE_STEP_MS, SWEEP_GRACE_MS, UploadSlotDoc } from "../../lib/storage/upload-grants";
import { DocumentCollection, openCollection } from "../../mixins/db.mixin";

const slotDoc = (slot: number, state: UploadSlotDoc["state"], expires_at: number, updated_at = 0): UploadSlotDoc => ({
	_id: `o#${slot}`,
	kind: "slot",
	owner: "o",
	slot,
	key: `demo/o/u${slot}/f.txt`,
	content_type: "text/plain",
	max_bytes: 10,
	state,
	expires_at,
	updated_at
});

describe("chooseSlot", () => {
	const now = 1_000_000;
	it("takes the first empty slot, then the first expired one, and is full at `slots` live grants", () => {
		expect(chooseSlot([], 3, now)).toEqual({ slot: 0 });
		expect(chooseSlot([slotDoc(0, "issued", now + 1)], 3, now)).toEqual({ slot: 1 });
		const expired = slotDoc(1, "uploaded", now - 1);
		expect(chooseSlot([slotDoc(0, "issued", now + 1), expired, slotDoc(2, "issued", now + 1)], 3, now)).toEqual({ slot: 1, replaces: expired });
		expect(chooseSlot([slotDoc(0, "issued", now + 1), slotDoc(1, "issued", now + 1)], 2, now)).toEqual({ full: true, live: 2 });
		expect(chooseSlot([], 0, now)).toEqual({ full: true, live: 0 });
	});
	it("counts live grants left in slots above the current room (the owner attached files since)", () => {
		// Room shrank to 1 while slots 1 and 2 still hold live grants: full, although slot 0 is empty.
		expect(chooseSlot([slotDoc(1, "issued", now + 1), slotDoc(2, "issued", now + 1)], 1, now)).toMatchObject({ full: true });
	});
	it("a step under way holds its slot past expiry until it is stale", () => {
		expect(chooseSlot([slotDoc(0, "uploading", now - 1, now - 1000)], 1, now)).toMatchObject({ full: true });
		expect(chooseSlot([slotDoc(0, "uploading", now - 1, now - STALE_STEP_MS)], 1, now)).toMatchObject({ slot: 0 });
	});
});

describe("putRefusal and sealedKey", () => {
	it("says why a PUT with a valid signature is refused", () => {
		expect(putRefusal(slotDoc(0, "uploading", 10), null, 5)).toBe("in_progress");
		expect(putRefusal(slotDoc(0, "uploaded", 10), null, 5)).toBe("used");
		expect(putRefusal(null, { _id: "attached:k", kind: "attached", owner: "o", key: "k", stored_key: "k", expires_at: 10 }, 5)).toBe("used");
		expect(putRefusal(slotDoc(0, "issued", 4), null, 5)).toBe("expired");
		expect(putRefusal(null, null, 5)).toBe("unknown");
	});
	it("seals S3 bytes under a key no URL is issued for, under the same owner", () => {
		expect(sealedKey("demo/c1/0b7c6a52-5a43-4c36-9d1e-6f1f0e3a9b11/a.pdf")).toBe("demo/c1/0b7c6a52-5a43-4c36-9d1e-6f1f0e3a9b11.attached/a.pdf");
	});
});

describe("GrantBook on NeDB and the local store", () => {
	let dataDir: string;
	let broker: ServiceBroker;
	let grants: DocumentCollection<GrantDoc>;
	let close: () => Promise<void>;
	let store: LocalObjectStore;
	let clock = 10_000_000;
	let book: GrantBook;
	let n = 0;

	beforeAll(async () => {
		dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-grants-"));
		const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" });
		broker = new ServiceBroker({ logger: false });
		await broker.start();
		const opened = await openCollection<GrantDoc>(config, "upload_grants", { broker });
		grants = opened.collection;
		close = opened.close;
		store = new LocalObjectStore(path.join(dataDir, "uploads"), "s".repeat(32), "http://x.invalid");
		book = new GrantBook(grants as unknown as GrantCollection, store, () => clock);
	});
	afterAll(async () => {
		await close?.();
		await broker?.stop();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	const keyOf = (owner: string) => `demo/${owner}/u-${++n}/notes.txt`;
	const grant = (key: string, slots: number, ttlMs = 600_000) => book.grant({ key, contentType: "text/plain", maxBytes: 100, expiresAt: clock + ttlMs, slots });
	const outcome = (p: Promise<unknown>) => p.then(() => "ok", (err: { type?: string }) => err.type);
	const upload = async (key: string, text: string) => {
		expect(await book.beginPut(key)).toEqual({ ok: true });
		await store.write(key, Readable.from([Buffer.from(text)]), "text/plain", 100);
		await book.endPut(key, true);
	};

	it("8 simultaneous grants against 3 slots: exactly 3", async () => {
		const owner = "burst";
		const outcomes = await Promise.all(Array.from({ length: 8 }, () => outcome(grant(keyOf(owner), 3))));
		expect(outcomes.filter(o => o === "ok")).toHaveLength(3);
		expect(outcomes.filter(o => o === "file_cap")).toHaveLength(5);
		expect(await grants.count({ kind: "slot", owner })).toBe(3);
	});

	it("an expired grant frees its slot, and what it left uploaded goes with it", async () => {
		const owner = "expiry";
		const first = keyOf(owner);
		await grant(first, 1);
		await upload(first, "never attached");
		expect(await outcome(grant(keyOf(owner), 1))).toBe("file_cap");
		clock += 600_001;
		expect(await outcome(grant(keyOf(owner), 1))).toBe("ok");
		expect(await store.head(first)).toBeNull();
		expect(await book.beginPut(first)).toEqual({ ok: false, reason: "unknown" });
	});

	it("each grant takes one upload; a failed upload may be retried", async () => {
		const key = keyOf("once");
		await grant(key, 1);
		expect(await book.beginPut(key)).toEqual({ ok: true });
		expect(await book.beginPut(key)).toEqual({ ok: false, reason: "in_progress" });
		await book.endPut(key, false);
		await upload(key, "second try");
		expect(await book.beginPut(key)).toEqual({ ok: false, reason: "used" });
	});

	it("attach: locked once, released on refusal, recorded when done; the slot is handed to the file count", async () => {
		const owner = "attach";
		const key = keyOf(owner);
		await grant(key, 1);
		expect(await outcome(book.beginAttach(key))).toBe("empty"); // nothing uploaded yet
		await upload(key, "hello");
		const attached = await book.beginAttach(key);
		expect(attached).toMatchObject({ size: 5, contentType: "text/plain", storedKey: key });
		expect(await outcome(book.beginAttach(key))).toBe("conflict");
		await book.settleAttach(key, attached.storedKey, false); // the chatbot refused the file
		const again = await book.beginAttach(key);
		await book.settleAttach(key, again.storedKey, true);
		expect(await outcome(book.beginAttach(key))).toBe("conflict");
		expect(await book.beginPut(key)).toEqual({ ok: false, reason: "used" });
		expect(await grants.count({ kind: "slot", owner })).toBe(0);
		expect(await outcome(grant(keyOf(owner), 1))).toBe("ok");
	});

	it("the sweep deletes unattached uploads after expiry and keeps attached bytes", async () => {
		const owner = "sweep";
		await grants.remove({ owner: { $ne: owner } }); // earlier tests' grants would be swept too
		const [kept, dropped, neverSent] = [keyOf(owner), keyOf(owner), keyOf(owner)];
		for (const key of [kept, dropped, neverSent]) await grant(key, 3);
		await upload(kept, "attached");
		await upload(dropped, "left behind");
		const attached = await book.beginAttach(kept);
		await book.settleAttach(kept, attached.storedKey, true);
		expect(await book.sweep(clock)).toEqual({ deleted: 0, released: 0 });
		const result = await book.sweep(clock + 600_000 + SWEEP_GRACE_MS);
		expect(result.deleted).toBe(1);
		expect(result.released).toBe(3); // two grants and the record of the attached one
		expect(await store.head(dropped)).toBeNull();
		expect(await store.head(kept)).toMatchObject({ size: 8 });
		expect(await outcome(book.beginAttach(dropped))).toBe("empty");
	});
});
