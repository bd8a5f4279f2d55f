/**
 * The S3 path of the two-step file flow against a real S3-protocol server on loopback (s3rver):
 * createDemoSessionUpload returns an AWS SigV4 presigned PUT (Content-Type signed, 10 minutes), the
 * client PUTs the bytes straight to the bucket, addDemoSessionFile checks the object with HeadObject,
 * the extractor reads it with GetObject, and the janitor deletes it with the expired demo.
 *
 * s3rver does not verify V4 signatures (it accepts any signature from a known access key, though it
 * does enforce X-Amz-Expires), so refusals of a bad signature or a different Content-Type are proved
 * on the embedded store instead (demo-api.test.ts, demo-sources-files.test.ts).
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

	it("a key that was issued but never uploaded cannot be attached", async () => {
		const demo = await client.newSession();
		const target = await client.api(`/api/tools/sessions/${demo.session_id}/uploads`, { body: { filename: "notes.txt", content_type: "text/plain" } });
		const attach = await client.api(`/api/tools/sessions/${demo.session_id}/files`, { body: { file_name: "notes.txt", file_s3_key: target.body.s3_key } });
		expect([attach.status, attach.body.code]).toEqual([422, "empty"]);
		expect((await client.get(demo.session_id)).sources.files).toEqual([]);
	});
});
