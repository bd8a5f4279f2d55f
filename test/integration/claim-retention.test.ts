/**
 * Sandbox retention with an injected clock: the janitor deletes an unclaimed sandbox (its chatbot,
 * its stored files and its vectors) 8 days after creation, and leaves a claimed one alone. Real
 * services throughout: the crawler reads a loopback site, the trainer indexes it into the real
 * vector index, and files go through the gateway's signed upload URL into the embedded store.
 */
import type { Chatbot } from "../../lib/chatbots/model";
import { createObjectStore } from "../../lib/storage";
import { startApp, TestApp } from "../helpers/app";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { callTool, nextIp, rawRequest, signUp } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";

const DAY_MS = 86_400_000;

let app: TestApp;
let site: LoopbackSite;

beforeAll(async () => {
	site = await startSite({
		"/": html("<!doctype html><html><head><title>Lighthouse Museum</title></head><body><main><h1>Lighthouse Museum</h1><p>The museum in the old lighthouse tells the story of the keepers who lived there for two centuries. Tickets cost 9 euros.</p></main></body></html>")
	});
	app = await startApp({
		env: {
			TRUST_PROXY: "1",
			SERVICES: "gateway,chatbots,accounts,mcp,storage,crawler,trainer,vectors,janitor",
			CRAWL_ALLOW_PRIVATE: "true",
			CRAWL_USE_BROWSER: "false"
		}
	});
});
afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

/** Creates a sandbox over MCP and waits until it is crawled and trained. */
async function builtSandbox(): Promise<{ id: string; claimUrl: string }> {
	const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/` }, { ip: nextIp() });
	const id = created.data?.chatbot_id as string;
	await eventually(async () => {
		const got = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id });
		return (got.data?.pages as { crawled: number }).crawled === 1 && got.data?.ready === true ? true : undefined;
	}, 60_000, "crawl and training");
	return { id, claimUrl: created.data?.claim_url as string };
}

/** Stores a file under the chatbot's storage prefix, through the presigned PUT of the real gateway, and attaches it. */
async function storeFile(chatbotId: string): Promise<string> {
	const key = `sandbox/${chatbotId}/upload-1/notes.txt`;
	const target = await app.broker.call<{ url: string; headers: Record<string, string> }, object>("storage.presignPut", { key, content_type: "text/plain", max_bytes: 1000, ttl_seconds: 60 });
	const put = await rawRequest(target.url, { method: "PUT", headers: target.headers, body: "Opening hours: 10 to 17." });
	expect(put.status).toBe(200);
	// Attached, as a file source is: an upload never attached is deleted once its URL expires.
	const attached = await app.broker.call<{ stored_key: string }, object>("storage.beginAttach", { key });
	await app.broker.call("storage.settleAttach", { key, stored_key: attached.stored_key, attached: true });
	return attached.stored_key;
}

async function exists(id: string): Promise<boolean> {
	try {
		await app.broker.call("chatbots.get", { id });
		return true;
	} catch (err) {
		if ((err as { type?: string }).type === "expired") return false;
		throw err;
	}
}

it("deletes an unclaimed sandbox after 8 days with its files and vectors; a claimed one survives", async () => {
	const unclaimed = await builtSandbox();
	const claimed = await builtSandbox();
	const { cookie } = await signUp(app.baseUrl, "keeper@lighthouse.example");
	const claim = await rawRequest(claimed.claimUrl, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: "{}" });
	expect(claim.status).toBe(200);

	const store = createObjectStore(app.config);
	const unclaimedFile = await storeFile(unclaimed.id);
	const claimedFile = await storeFile(claimed.id);
	const search = async (id: string) => app.broker.call<unknown[], object>("vectors.search", { chatbot_id: id, query: "lighthouse keepers tickets", limit: 5 });
	expect((await search(unclaimed.id)).length).toBeGreaterThan(0);
	expect((await search(claimed.id)).length).toBeGreaterThan(0);

	// Seven days on, nothing is due.
	const early = await app.broker.call<{ chatbotsRemoved: number }, object>("janitor.sweep", { now: Date.now() + 7 * DAY_MS });
	expect(early.chatbotsRemoved).toBe(0);
	expect(await exists(unclaimed.id)).toBe(true);

	// Eight days (and a minute) on, the unclaimed sandbox goes, with everything stored for it.
	const sweep = await app.broker.call<{ chatbotsRemoved: number; filesRemoved: number; errors: string[] }, object>("janitor.sweep", { now: Date.now() + 8 * DAY_MS + 60_000 });
	expect(sweep.errors).toEqual([]);
	expect(sweep.chatbotsRemoved).toBe(1);
	expect(sweep.filesRemoved).toBe(1);
	expect(await exists(unclaimed.id)).toBe(false);
	expect(await store.head(unclaimedFile)).toBeNull();
	expect(await search(unclaimed.id)).toEqual([]);
	expect((await callTool(app.baseUrl, "get_chatbot", { chatbot_id: unclaimed.id })).text).toMatch(/^Error \(not_found\)/);
	expect((await rawRequest(unclaimed.claimUrl, { headers: { Accept: "text/html" } })).status).toBe(404);

	// The claimed chatbot left sandbox retention: it, its file and its vectors stay.
	expect(await exists(claimed.id)).toBe(true);
	const kept = (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: claimed.id })).chatbot;
	expect(kept.expires_at).toBeNull();
	expect(await store.head(claimedFile)).not.toBeNull();
	expect((await search(claimed.id)).length).toBeGreaterThan(0);
});
