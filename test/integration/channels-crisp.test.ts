/**
 * Crisp, end to end over real HTTP: the owner connects a website (JSON form) and gets the hook URL;
 * Crisp's web hooks (keyed or signed) bring visitor messages, operator messages and the end of
 * sessions; replies come from durable jobs through the chat service and go out through the REST API.
 *
 * Crisp cannot be reached from here, so its REST API is a loopback stand-in
 * (test/helpers/crisp-stand-in.ts) that checks the plugin's Basic credentials and tier header,
 * records every message, can answer 429/5xx or hang, sends hooks the way Crisp does (signed with the
 * hook secret, or with the URL's key) and echoes accepted messages back as `message:received`.
 */
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { CrispView } from "../../lib/channels/views";
import createChannelsService from "../../services/channels.service";
import { startApp, TestApp } from "../helpers/app";
import { channelsOf, channelsPath, channelsRecords, conversations, finishedJob, HANDBOOK_URL, newOwner, Owner, ownerPost, trainedChatbot } from "../helpers/channel-app";
import { CrispPlugin, CrispStandIn, newFingerprint, startCrispStandIn } from "../helpers/crisp-stand-in";
import { rawRequest } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";

const WEBSITE_ID = randomUUID();
const HOOK_SECRET = "crisp-hook-secret-0123456789";
const FAST_RETRY = { attempts: 4, baseDelayMs: 50, maxDelayMs: 200, maxRetryAfterMs: 5_000, timeoutMs: 1_000 };

let app: TestApp;
let crisp: CrispStandIn;
let plugin: CrispPlugin;
let owner: Owner;
let chatbotId: string;
let channel: CrispView;

const newSession = () => `session_${randomUUID()}`;
const keyed = () => ({ url: channel.hook_url });
const signed = () => ({ url: `${app.baseUrl}/webhooks/crisp/${chatbotId}`, secret: HOOK_SECRET });
const repliesIn = (session: string) => crisp.messages.filter(m => m.session_id === session);

/** A visitor's text message, as Crisp's `message:send` hook carries it. */
function visitor(session: string, content: unknown, fingerprint = newFingerprint(), type = "text") {
	return { session_id: session, type, from: "user", origin: "chat", content, fingerprint, user: { nickname: "visitor", user_id: "v1" }, timestamp: Date.now() };
}

async function say(session: string, text: string, via = keyed()): Promise<string> {
	const before = repliesIn(session).length;
	expect(await crisp.hook(via, "message:send", visitor(session, text))).toEqual({ status: 200, body: { ok: true, queued: true } });
	return eventually(async () => repliesIn(session)[before]?.content as string | undefined, 30_000, `a reply to "${text}"`);
}

beforeAll(async () => {
	crisp = await startCrispStandIn(WEBSITE_ID);
	plugin = crisp.addPlugin();
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,channels", CRISP_API_URL: crisp.base, CRISP_HANDOFF_QUIET_SECONDS: "2" },
		factories: { channels: config => createChannelsService(config, { retry: FAST_RETRY }) }
	});
	owner = await newOwner(app.baseUrl);
	chatbotId = (await trainedChatbot(app.broker, owner.accountId))._id;
	const connected = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/crisp`, {
		website_id: WEBSITE_ID,
		plugin_identifier: plugin.identifier,
		plugin_key: plugin.key,
		hook_secret: HOOK_SECRET
	});
	expect(connected.status).toBe(201);
	channel = (connected.body as { channel: CrispView }).channel;
	crisp.echoTo = keyed();
}, 90_000);

afterAll(async () => {
	await app?.stop();
	await crisp?.stop();
});

describe("connecting a website", () => {
	it("gives the hook URL with its key, and keeps the plugin key and hook secret sealed", async () => {
		expect(channel.hook_url).toMatch(new RegExp(`^${app.baseUrl}/webhooks/crisp/${chatbotId}\\?key=[A-Za-z0-9_-]{32}$`));
		expect(channel).toMatchObject({ website_id: WEBSITE_ID, plugin_identifier: plugin.identifier, plugin_key_hint: `…${plugin.key.slice(-4)}`, signed_hooks: true, last_failure: null });
		expect((await channelsOf(app.baseUrl, owner, chatbotId)).crisp).toEqual(channel);
		const files = fs.readdirSync(app.dataDir, { recursive: true }).map(f => path.join(app.dataDir, String(f)));
		const stored = files.filter(f => fs.statSync(f).isFile()).map(f => fs.readFileSync(f, "utf8")).join("\n");
		expect(stored).toContain(WEBSITE_ID);
		for (const secret of [plugin.key, HOOK_SECRET, new URL(channel.hook_url).searchParams.get("key") as string]) expect(stored).not.toContain(secret);
	});

	it("refuses fields that are not what Crisp issues, and keeps the hook URL when connecting again", async () => {
		const url = `${channelsPath(chatbotId)}/crisp`;
		const bad = await ownerPost(app.baseUrl, owner, url, { website_id: "my site", plugin_identifier: plugin.identifier, plugin_key: plugin.key });
		expect(bad.status).toBe(400);
		expect(bad.body).toMatchObject({ code: "validation_failed", errors: { fields: [{ field: "website_id" }] } });
		const again = await ownerPost(app.baseUrl, owner, url, { website_id: WEBSITE_ID, plugin_identifier: plugin.identifier, plugin_key: plugin.key, hook_secret: HOOK_SECRET });
		expect(again.status).toBe(201);
		expect((again.body as { channel: CrispView }).channel.hook_url).toBe(channel.hook_url);
	});
});

describe("answering", () => {
	it("answers a visitor through the plugin API, citing the source as a link, and records the conversation as Crisp's", async () => {
		const session = newSession();
		const reply = await say(session, "How long is the warranty of the Zephyr-9 kettle?");
		expect(reply).toContain("37 months");
		expect(reply).toContain(`Sources:\n• Harbor handbook: ${HANDBOOK_URL}`);
		const [sent] = repliesIn(session);
		expect(sent).toMatchObject({ website_id: WEBSITE_ID, type: "text", from: "operator", origin: "chat" });
		expect(typeof sent.fingerprint).toBe("number");
		const [call] = crisp.calls.filter(c => c.path === `/v1/website/${WEBSITE_ID}/conversation/${session}/message`);
		expect(call.headers.authorization).toBe(`Basic ${Buffer.from(`${plugin.identifier}:${plugin.key}`).toString("base64")}`);
		expect(call.headers["x-crisp-tier"]).toBe("plugin");

		// The bot's own reply came back as message:received and was known as its own: the next
		// question is answered (no handoff), in the same conversation.
		await eventually(async () => ((await channelsRecords(app.broker).threads.findOne({ chat_key: session }))?.echoed_fingerprints.includes(String(sent.fingerprint)) ? true : undefined), 10_000, "the echo");
		expect(await say(session, "What does a city bike cost?", signed())).toContain("12 euros");
		const kept = await conversations(app.broker).find({ chatbot_id: chatbotId, channel_key: session });
		expect(kept).toHaveLength(1);
		expect(kept[0]).toMatchObject({ channel: "crisp" });
		expect(kept[0].turns).toHaveLength(4);
	});

	it("answers a message Crisp sends again only once, and says only text is understood for files", async () => {
		const session = newSession();
		const message = visitor(session, "When does the shop open?");
		expect((await crisp.hook(keyed(), "message:send", message)).body).toMatchObject({ queued: true });
		await finishedJob(app.broker, `crisp:${WEBSITE_ID}:${session}:${message.fingerprint}`);
		expect(await crisp.hook(signed(), "message:send", message)).toEqual({ status: 200, body: { ok: true, queued: false } });
		expect(repliesIn(session)).toHaveLength(1);

		const file = visitor(session, { name: "photo.jpg", url: "https://files.example/photo.jpg", type: "image/jpeg" }, newFingerprint(), "file");
		expect((await crisp.hook(keyed(), "message:send", file)).body).toMatchObject({ queued: true });
		await finishedJob(app.broker, `crisp:${WEBSITE_ID}:${session}:${file.fingerprint}`);
		expect(repliesIn(session).map(m => m.content)[1]).toBe("I can only read text messages. Please type your question.");
	});

	it("stays quiet in a session a human operator writes in, for the configured time", async () => {
		const session = newSession();
		expect(await say(session, "When does the shop close?")).toContain("six");
		const operator = { session_id: session, type: "text", from: "operator", origin: "chat", content: "Hi, Eva here. Let me help you.", fingerprint: newFingerprint(), user: { nickname: "Eva", user_id: "op-1" } };
		expect(await crisp.hook(keyed(), "message:received", operator)).toEqual({ status: 200, body: { ok: true, queued: false, ignored: "a human operator took over" } });
		const during = visitor(session, "Can I bring my dog?");
		expect((await crisp.hook(keyed(), "message:send", during)).body).toMatchObject({ queued: true });
		expect(await finishedJob(app.broker, `crisp:${WEBSITE_ID}:${session}:${during.fingerprint}`)).toMatchObject({ status: "done", reply: { parts: [] } });
		expect(repliesIn(session)).toHaveLength(1);

		const thread = await channelsRecords(app.broker).threads.findOne({ chat_key: session });
		await eventually(async () => (Date.now() > (thread?.quiet_until ?? 0) ? true : undefined), 5_000, "the quiet time to pass");
		expect(await say(session, "How long is the warranty?")).toContain("37 months");
	});

	it("ends the conversation when Crisp removes the session", async () => {
		const session = newSession();
		await say(session, "When does the shop open?");
		const [first] = await conversations(app.broker).find({ chatbot_id: chatbotId, channel_key: session });
		expect(await crisp.hook(signed(), "session:removed", { session_id: session })).toEqual({ status: 200, body: { ok: true, queued: false, ignored: "the conversation ended" } });
		expect(await conversations(app.broker).findOne({ _id: first._id })).toMatchObject({ channel: "crisp", channel_key: null });
		expect(await channelsRecords(app.broker).threads.findOne({ chat_key: session })).toBeNull();
		await say(session, "How long is the warranty?");
		const [second] = await conversations(app.broker).find({ chatbot_id: chatbotId, channel_key: session });
		expect(second._id).not.toBe(first._id);
		expect(second.turns).toHaveLength(2);
	});
});

describe("bad input", () => {
	it("answers JSON errors with the right status, never a 5xx, and writes nothing", async () => {
		const other = await trainedChatbot(app.broker, owner.accountId, { name: "Not on Crisp" });
		const jobsBefore = await channelsRecords(app.broker).jobs().count({});
		const threadsBefore = await channelsRecords(app.broker).threads.count({});
		const session = newSession();
		const body = JSON.stringify({ website_id: WEBSITE_ID, event: "message:send", data: visitor(session, "Hello?") });
		const key = new URL(channel.hook_url).searchParams.get("key") as string;
		const post = (url: string, raw: string, headers: Record<string, string> = {}) => rawRequest(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: raw });
		const base = `${app.baseUrl}/webhooks/crisp`;
		const cases: Array<[string, Promise<{ status: number; body: unknown }>, number, string]> = [
			["unknown chatbot", post(`${base}/${randomUUID()}?key=${key}`, body), 404, "not_found"],
			["chatbot without Crisp", post(`${base}/${other._id}?key=${key}`, body), 404, "not_found"],
			["no key or signature", post(`${base}/${chatbotId}`, body), 401, "unauthorized"],
			["wrong key", post(`${base}/${chatbotId}?key=${key.slice(1)}x`, body), 403, "forbidden"],
			["wrong signature", post(`${base}/${chatbotId}`, body, { "X-Crisp-Request-Timestamp": "1", "X-Crisp-Signature": "ab".repeat(32) }), 403, "forbidden"],
			["signature over another body", crisp.hook(signed(), "message:send", visitor(session, "x"), { raw: body.replace("Hello", "Hi"), headers: { "X-Crisp-Signature": "00" } }), 403, "forbidden"],
			["invalid JSON", post(`${base}/${chatbotId}?key=${key}`, "{not json"), 400, "invalid_json"]
		];
		for (const [what, reply, status, code] of cases) {
			const res = await reply;
			expect([what, res.status]).toEqual([what, status]);
			expect([what, res.body]).toMatchObject([what, { ok: false, status, code }]);
		}
		for (const [event, data, opts] of [
			["message:updated", { session_id: session, from: "user", content: "x" }, {}],
			["session:set_email", { session_id: session, email: "a@example.com" }, {}],
			["message:send", { ...visitor(session, "x"), from: "operator" }, {}],
			["message:send", visitor(session, "From another website"), { websiteId: randomUUID() }]
		] as const) {
			const res = await crisp.hook(keyed(), event, data, opts);
			expect([event, res.status, res.body.queued]).toEqual([event, 200, false]);
		}
		expect(await channelsRecords(app.broker).jobs().count({})).toBe(jobsBefore);
		expect(await channelsRecords(app.broker).threads.count({})).toBe(threadsBefore);
		expect(repliesIn(session)).toEqual([]);
	});
});

describe("delivery", () => {
	it("waits the Retry-After Crisp asks for and delivers once", async () => {
		const session = newSession();
		crisp.failNext([{ status: 429, headers: { "Retry-After": "1" }, body: { error: true, reason: "rate_limited" } }, { status: 503, body: { error: true, reason: "unavailable" } }]);
		expect(await say(session, "When does the shop open?")).toContain("nine");
		const attempts = crisp.calls.filter(c => c.path.includes(session));
		expect(attempts.map(a => a.status)).toEqual([429, 503, 200]);
		expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(950);
		expect(repliesIn(session)).toHaveLength(1);
	});

	it("does not send again a message Crisp accepted but whose answer was lost, once Crisp has echoed it", async () => {
		const session = newSession();
		crisp.failNext(["hang-after-accept"]);
		const message = visitor(session, "How long is the warranty?");
		expect((await crisp.hook(keyed(), "message:send", message)).body).toMatchObject({ queued: true });
		expect(await finishedJob(app.broker, `crisp:${WEBSITE_ID}:${session}:${message.fingerprint}`)).toMatchObject({ status: "done", sent: 1 });
		// Accepted once (the request that never got its answer); the retry saw the echo and sent nothing.
		expect(crisp.calls.filter(c => c.path.includes(session)).map(c => c.outcome)).toEqual(["hung"]);
		expect(repliesIn(session)).toHaveLength(1);
	});

	it("records a reply it could not deliver after the last try, and shows it on the channel status", async () => {
		const session = newSession();
		crisp.failNext([503, 503, 503, 503].map(status => ({ status, body: { error: true, reason: "overloaded" } })));
		const message = visitor(session, "When does the shop close?");
		expect((await crisp.hook(keyed(), "message:send", message)).body).toMatchObject({ queued: true });
		expect(await finishedJob(app.broker, `crisp:${WEBSITE_ID}:${session}:${message.fingerprint}`)).toMatchObject({ status: "failed" });
		expect((await channelsOf(app.baseUrl, owner, chatbotId)).crisp?.last_failure?.message).toBe("Crisp answered 503: overloaded (4 tries)");
		expect(repliesIn(session)).toEqual([]);
	});
});

describe("disconnecting", () => {
	it("makes the hook URL answer 404", async () => {
		const reply = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/crisp/disconnect`);
		expect(reply.body).toEqual({ ok: true, channel: "crisp", disconnected: true });
		const late = await crisp.hook(keyed(), "message:send", visitor(newSession(), "Hello?"));
		expect(late).toMatchObject({ status: 404, body: { ok: false, code: "not_found" } });
		expect((await channelsOf(app.baseUrl, owner, chatbotId)).crisp).toBeNull();
	});
});
