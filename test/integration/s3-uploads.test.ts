/**
 * The S3 path of the two-step file flow against a real S3-protocol server on loopback (s3rver):
 * createDemoSessionUpload returns an AWS SigV4 presigned PUT (Content-Type signed, 10 minutes), the
 * client PUTs the bytes straight to the bucket, addDemoSessionFile checks the object with HeadObject,
 * the extractor reads it with GetObject, and the janitor deletes it with the expired demo.
 *
 * s3rver does not verify V4 signatures (it accepts any signature from a known access key, though it
 * does enforce X-Amz-Expires), so refusals of a bad signature or a different Content-Type are proved
 * on the embedded store instead (demo-api.test.ts, demo-sources-files.test.ts).
 *
 * A presigned S3 PUT cannot be made single-use without the client's help: S3 refuses an overwrite
 * only for a PUT carrying `If-None-Match: *`, and signing that header would make every client send
 * it. (s3rver could not show it either: it honours If-None-Match on GET only, and accepts a second
 * PUT.) So attaching moves the bytes to a key no URL reaches; the test below proves a second PUT
 * cannot change what was attached, and that the upload sweep deletes what that PUT left.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import { startApp, TestApp } from "../helpers/app";
import { demoClient, DemoClient } from "../helpers/demo-client";

interface S3rverInstance {
	run(): Promise<AddressInfo>;
	close(): Promise<void>;
}
type S3rverConstructor = new (options: {
	address: string;
	port: number;
	silent: boolean;
	directory: string;
	configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;
// s3rver ships no type declarations; the two methods used are typed above.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require("s3rver") as S3rverConstructor;

const BUCKET = "chatbot-uploads";
const PDF = "application/pdf";

let s3: S3rverInstance;
let s3Dir: string;
let endpoint: string;
let app: TestApp;
let client: DemoClient;

beforeAll(async () => {
	s3Dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-s3rver-"));
	s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir, configureBuckets: [{ name: BUCKET }] });
	const address = await s3.run();
	endpoint = `http://127.0.0.1:${address.port}`;
	app = await startApp({
		env: {
			TRUST_PROXY: "1",
			SERVICES: "gateway,chatbots,demo-session,storage,extractor,janitor",
			S3_BUCKET: BUCKET,
			S3_ENDPOINT: endpoint,
			S3_ACCESS_KEY_ID: "S3RVER",
			S3_SECRET_ACCESS_KEY: "S3RVER",
			S3_FORCE_PATH_STYLE: "true"
		}
	});
	client = demoClient(app.baseUrl, "100.64.7");
});

afterAll(async () => {
	await app?.stop();
	await s3?.close();
	fs.rmSync(s3Dir, { recursive: true, force: true });
});

describe("uploads to an S3-compatible store", () => {
	it("runs the whole file flow through a presigned PUT, and the janitor deletes the object with its demo", async () => {
		const demo = await client.newSession();
		const bytes = fs.readFileSync(path.join(__dirname, "..", "fixtures", "facts.pdf"));
		const target = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "facts.pdf", content_type: PDF, size: bytes.length } });
		expect(target.status).toBe(200);
		const key: string = target.body.s3_key;
		const url = new URL(target.body.upload_url);
		// A real SigV4 presigned PUT to the bucket, path style, valid 10 minutes, Content-Type signed.
		expect(`${url.origin}${decodeURIComponent(url.pathname)}`).toBe(`${endpoint}/${BUCKET}/${key}`);
		expect(url.searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
		expect(url.searchParams.get("X-Amz-Expires")).toBe("600");
		expect(url.searchParams.get("X-Amz-SignedHeaders")?.split(";")).toEqual(expect.arrayContaining(["content-type", "host"]));
		expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^S3RVER\//);

		const put = await fetch(url, { method: "PUT", headers: { "Content-Type": PDF }, body: new Uint8Array(bytes) });
		expect(put.status).toBe(200);
		expect(await app.broker.call("storage.head", { key })).toEqual({ size: bytes.length, contentType: PDF });

		const attached = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "facts.pdf", file_s3_key: key } });
		expect(attached.status).toBe(200);
		const settled = await client.settledFile(demo.session_id, attached.body.demo.sources.files[0].id);
		expect(settled).toMatchObject({ status: "ready", file_name: "facts.pdf", failure: null });
		expect(settled.char_count).toBeGreaterThan(200);
		expect((await client.get(demo.session_id)).chars_used).toBe(settled.char_count);

		const report = (await app.broker.call("janitor.sweep", { now: Date.now() + 73 * 3_600_000 })) as { filesRemoved: number; chatbotsRemoved: number };
		expect(report.filesRemoved).toBeGreaterThanOrEqual(1);
		expect(await app.broker.call("storage.head", { key })).toBeNull();
		expect((await client.api(`/api/tools/sessions/${demo.session_id}`)).body.code).toBe("expired");
	});

	it("a second PUT after attaching cannot change the attached bytes; the upload sweep deletes what it left", async () => {
		const demo = await client.newSession();
		const bytes = fs.readFileSync(path.join(__dirname, "..", "fixtures", "facts.pdf"));
		const target = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "facts.pdf", content_type: PDF } });
		const key: string = target.body.s3_key;
		expect((await fetch(target.body.upload_url, { method: "PUT", headers: { "Content-Type": PDF }, body: new Uint8Array(bytes) })).status).toBe(200);
		const attached = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "facts.pdf", file_s3_key: key } });
		expect(attached.status).toBe(200);
		const settled = await client.settledFile(demo.session_id, attached.body.demo.sources.files[0].id);
		expect(settled.status).toBe("ready");

		// The URL is still within its 10 minutes, and S3 takes the PUT ...
		const replacement = new TextEncoder().encode("Replaced: nothing true here.");
		expect((await fetch(target.body.upload_url, { method: "PUT", headers: { "Content-Type": PDF }, body: replacement })).status).toBe(200);
		// ... but the attached bytes were moved where no URL reaches: the source still reads the PDF.
		const chatbot = (await app.broker.call("chatbots.findBySlug", { slug: demo.slug })) as { _id: string };
		const { sources } = (await app.broker.call("chatbots.trainingInput", { id: chatbot._id })) as { sources: Array<{ storage_key: string; text: string }> };
		expect(sources[0].storage_key).not.toBe(key);
		expect(await app.broker.call("storage.head", { key: sources[0].storage_key })).toEqual({ size: bytes.length, contentType: PDF });
		expect(sources[0].text).toContain("4,812 units");
		const again = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "facts.pdf", file_s3_key: key } });
		expect([again.status, again.body.code]).toEqual([409, "conflict"]);

		// After the URL expired, the sweep deletes the object the second PUT left; the attached copy stays.
		expect(await app.broker.call("storage.head", { key })).toMatchObject({ size: replacement.length });
		const report = (await app.broker.call("janitor.sweep", { now: Date.now() + 20 * 60_000 })) as { uploadsRemoved: number };
		expect(report.uploadsRemoved).toBeGreaterThanOrEqual(1);
		expect(await app.broker.call("storage.head", { key })).toBeNull();
		expect(await app.broker.call("storage.head", { key: sources[0].storage_key })).toEqual({ size: bytes.length, contentType: PDF });
	});

	it("a chatbot holds at most max_files unattached upload URLs", async () => {
		const demo = await client.newSession();
		const ask = (name: string) => client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: name, content_type: "text/plain" } });
		for (const name of ["a.txt", "b.txt", "c.txt"]) expect((await ask(name)).status).toBe(200);
		const fourth = await ask("d.txt");
		expect([fourth.status, fourth.body.code]).toEqual([422, "file_cap"]);
	});

	it("a key that was issued but never uploaded cannot be attached", async () => {
		const demo = await client.newSession();
		const target = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "notes.txt", content_type: "text/plain" } });
		const attach = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: target.body.s3_key } });
		expect([attach.status, attach.body.code]).toEqual([422, "empty"]);
		expect((await client.get(demo.session_id)).sources.files).toEqual([]);
	});
});
