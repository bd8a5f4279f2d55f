/**
 * The dashboard's source forms through their JSON twins, against the real services: a removed
 * source leaves the answers (its file deleted from storage, the chatbot retrained without it),
 * removing the last one deletes the vectors, a page fetched again picks up the site's change,
 * and caps refuse with nothing written, saying which.
 */
import type { Chatbot } from "../../lib/chatbots/model";
import { startApp, TestApp } from "../helpers/app";
import { newOwner, Owner, ownerPost } from "../helpers/channel-app";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { rawRequest } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";

let app: TestApp;
let site: LoopbackSite;
let owner: Owner;
let pageText = "The ferry to the island leaves at 8 every morning.";

beforeAll(async () => {
	site = await startSite({ "/ferry": (req, res, s) => html(`<html><head><title>Ferry</title></head><body><main><p>${pageText}</p></main></body></html>`)(req, res, s) });
	app = await startApp({ env: { SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,storage,extractor,crawler", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" } });
	owner = await newOwner(app.baseUrl);
}, 90_000);

afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

const base = (id: string) => `/account/chatbots/${id}`;
const get = async (path: string) => (await rawRequest(app.baseUrl + path, { headers: { Accept: "application/json", Cookie: owner.cookie } })).body as Record<string, unknown>;
const chatbotOf = async (id: string) => (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id, with_sources: false })).chatbot;
const search = (id: string, query: string) => app.broker.call<Array<{ chunk: { text: string } }>, object>("vectors.search", { chatbot_id: id, query, limit: 5 });

async function trained(id: string, after: number): Promise<Chatbot> {
	return eventually(async () => {
		const chatbot = await chatbotOf(id);
		return chatbot.training === null && chatbot.generation > after && !chatbot.train_pending ? chatbot : undefined;
	}, 60_000, "training to finish");
}

async function newChatbot(name: string): Promise<string> {
	const created = await ownerPost(app.baseUrl, owner, "/account/chatbots", { name, start: "content" });
	expect(created.status).toBe(201);
	return (created.body as { dashboard: { chatbot_id: string } }).dashboard.chatbot_id;
}

it("removes a source from the answers and deletes its file; removing the last deletes the vectors", async () => {
	const id = await newChatbot("Removal");
	const qa = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/qa`, { question: "Where do the seals sleep?", answer: "The seals sleep on the granite skerry north of the lighthouse." });
	expect(qa.status).toBe(201);
	const text = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/texts`, { text: "Picnic tables stand behind the visitor centre near the orchard." });
	// A file, through the upload grant and the PUT, as the page's script does.
	const tides = "High tide at the marina comes at half past four today.";
	const grant = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/uploads`, { filename: "tides.txt", content_type: "text/plain", size: Buffer.byteLength(tides) });
	expect(grant.status).toBe(200);
	const target = grant.body as { upload_url: string; s3_key: string; headers: Record<string, string> };
	const put = await rawRequest(target.upload_url, { method: "PUT", headers: target.headers, body: tides });
	expect(put.status).toBeLessThan(300);
	const file = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/files`, { file_name: "tides.txt", file_s3_key: target.s3_key });
	expect(file.status).toBe(201);
	const fileId = (file.body as { source: { id: string } }).source.id;
	await eventually(async () => ((await get(`${base(id)}/sources`)).sources as Array<{ status: string }>).every(s => s.status === "ready") || undefined, 30_000, "the file to be read");
	const { chatbot: fileChatbot, sources } = await app.broker.call<{ chatbot: Chatbot; sources: Array<{ _id: string; storage_key: string | null }> }, object>("chatbots.get", { id });
	const storedKey = sources.find(s => s._id === fileId)?.storage_key as string;
	expect(await app.broker.call("storage.head", { key: storedKey })).not.toBeNull();

	expect((await ownerPost(app.baseUrl, owner, `${base(id)}/training`)).status).toBe(202);
	let chatbot = await trained(id, fileChatbot.generation);
	expect((await search(id, "seals sleep skerry")).some(hit => hit.chunk.text.includes("granite skerry"))).toBe(true);

	// Without confirmation nothing is removed.
	const qaId = (qa.body as { source: { id: string } }).source.id;
	expect((await ownerPost(app.baseUrl, owner, `${base(id)}/sources/${qaId}/remove`)).status).toBe(400);
	const removed = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/${qaId}/remove`, { confirm: "yes" });
	expect(removed.status).toBe(200);
	expect(removed.body).toMatchObject({ ok: true, retraining: true, removed: { id: qaId, kind: "qa" } });
	chatbot = await trained(id, chatbot.generation);
	expect((await search(id, "seals sleep skerry")).some(hit => hit.chunk.text.includes("granite skerry"))).toBe(false);
	expect((await search(id, "picnic tables")).length).toBeGreaterThan(0);

	// The file: its stored object goes with it.
	expect((await ownerPost(app.baseUrl, owner, `${base(id)}/sources/${fileId}/remove`, { confirm: "yes" })).body).toMatchObject({ files: 1 });
	expect(await app.broker.call("storage.head", { key: storedKey })).toBeNull();
	chatbot = await trained(id, chatbot.generation);

	// The last source: nothing is left to answer from, so the vectors are deleted at once.
	const textId = (text.body as { source: { id: string } }).source.id;
	expect((await ownerPost(app.baseUrl, owner, `${base(id)}/sources/${textId}/remove`, { confirm: "yes" })).body).toMatchObject({ retraining: false, vectors_deleted: true });
	expect(await search(id, "picnic tables")).toEqual([]);
	const view = (await get(base(id))).dashboard as Record<string, unknown>;
	expect(view).toMatchObject({ can_answer: false, needs_retrain: false, usage: { chars_used: 0 }, sources: { qa: { total: 0 }, text: { total: 0 }, file: { total: 0 } } });
	expect((await chatbotOf(id)).counts).toMatchObject({ files: 0, chars: 0 });
}, 120_000);

it("fetches a page again and counts its new characters; the chatbot then needs retraining", async () => {
	const id = await newChatbot("Ferry");
	const added = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/pages`, { url: `${site.origin}/ferry` });
	expect(added.status).toBe(201);
	const source = (added.body as { source: { id: string; char_count: number } }).source;
	expect((await ownerPost(app.baseUrl, owner, `${base(id)}/training`)).status).toBe(202);
	await trained(id, 0);
	expect(((await get(base(id))).dashboard as { needs_retrain: boolean }).needs_retrain).toBe(false);

	pageText = "The ferry to the island leaves at 8 and at 14 every day, and costs 9 euros return.";
	const again = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/${source.id}/refetch`);
	expect(again.status).toBe(200);
	const after = (again.body as { source: { char_count: number } }).source.char_count;
	expect(after).toBeGreaterThan(source.char_count);
	const view = (await get(base(id))).dashboard as { needs_retrain: boolean; usage: { chars_used: number } };
	expect(view).toMatchObject({ needs_retrain: true, usage: { chars_used: after } });

	// A page that is gone now: refused with the cause; the source keeps its text.
	pageText = "";
	const gone = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/${source.id}/refetch`);
	expect(gone.status).toBe(422);
	expect(gone.body).toMatchObject({ ok: false, code: "empty" });
	expect(((await get(base(id))).dashboard as { usage: { chars_used: number } }).usage.chars_used).toBe(after);
}, 120_000);

it("refuses what does not fit with nothing written, and says which cap", async () => {
	const id = await newChatbot("Caps");
	const tooBig = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/uploads`, { filename: "big.pdf", content_type: "application/pdf", size: 20_000_000 });
	expect(tooBig.body).toMatchObject({ code: "file_size" });
	const wrongType = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/uploads`, { filename: "x.exe", content_type: "application/x-msdownload" });
	expect(wrongType.body).toMatchObject({ code: "file_type" });
	const empty = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/texts`, { text: "   " });
	expect(empty.status).toBe(400);
	const foreignKey = await ownerPost(app.baseUrl, owner, `${base(id)}/sources/files`, { file_name: "a.txt", file_s3_key: "account/someone-else/0000/a.txt" });
	expect(foreignKey.status).toBe(400);
	const trainEmpty = await ownerPost(app.baseUrl, owner, `${base(id)}/training`);
	expect(trainEmpty.status).toBe(422);
	expect(((await get(`${base(id)}/sources`)).sources as unknown[]).length).toBe(0);
	expect((await chatbotOf(id)).sources_version).toBe(0);
});

it("refuses a fourth chatbot on the Free plan with the reason", async () => {
	const other = await newOwner(app.baseUrl);
	for (let i = 0; i < 3; i++) expect((await ownerPost(app.baseUrl, other, "/account/chatbots", { name: `n${i}`, start: "content" })).status).toBe(201);
	const fourth = await ownerPost(app.baseUrl, other, "/account/chatbots", { name: "n4", start: "content" });
	expect(fourth.status).toBe(403);
	expect((fourth.body as { message: string }).message).toContain("allows 3 chatbots");
});
