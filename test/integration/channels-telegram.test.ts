/**
 * Telegram, end to end over real HTTP: the owner connects a bot (JSON form), Telegram delivers
 * updates to the webhook, the reply comes from a durable job through the chat service, and goes out
 * through the Bot API.
 *
 * Telegram cannot be reached from here, so its Bot API is a loopback stand-in
 * (test/helpers/telegram-stand-in.ts) that checks tokens, secret tokens and message lengths, records
 * every call and can answer 429/5xx or hang; it also delivers updates the way Telegram does. The
 * answering model is the loopback OpenAI-compatible stand-in, so the test can hold an answer halfway.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { RATE_POLICIES } from "../../lib/http/rate-policies";
import createChannelsService from "../../services/channels.service";
import { startApp, TestApp } from "../helpers/app";
import { channelsOf, channelsPath, channelsRecords, conversations, finishedJob, HANDBOOK_URL, newOwner, Owner, ownerPost, trainedChatbot } from "../helpers/channel-app";
import { rawRequest } from "../helpers/mcp-http";
import { startStandInModel, StandInModel } from "../helpers/openai-stand-in";
import { eventually } from "../helpers/processes";
import { newUpdateId, startTelegramStandIn, StandInBot, TelegramStandIn, textUpdate, update } from "../helpers/telegram-stand-in";

const FAST_RETRY = { attempts: 4, baseDelayMs: 50, maxDelayMs: 200, maxRetryAfterMs: 5_000, timeoutMs: 1_000 };

let app: TestApp;
let telegram: TelegramStandIn;
let model: StandInModel;
let owner: Owner;
let chatbotId: string;
let bot: StandInBot;
let nextChat = 9_000;

/** Messages the bot sent to one chat, in order. */
const sentTo = (chatId: number) => telegram.sent.filter(m => m.chat_id === String(chatId) && m.token === bot.token).map(m => m.text);

async function ask(chatId: number, text: string): Promise<string[]> {
	const before = sentTo(chatId).length;
	const delivered = await telegram.deliver(bot.token, textUpdate(chatId, text));
	expect(delivered).toEqual({ status: 200, body: { ok: true, queued: true } });
	return eventually(async () => (sentTo(chatId).length > before ? sentTo(chatId).slice(before) : undefined), 30_000, `a reply to "${text}"`);
}

beforeAll(async () => {
	telegram = await startTelegramStandIn();
	model = await startStandInModel();
	app = await startApp({
		env: {
			TRUST_PROXY: "1",
			SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,channels",
			TELEGRAM_API_URL: telegram.base,
			LLM_URL: model.base,
			LLM_MODEL: "stand-in-chat",
			LLM_API_KEY: model.apiKey
		},
		factories: { channels: config => createChannelsService(config, { retry: FAST_RETRY }) },
		gateway: { ratePolicies: { webhooks: { ...RATE_POLICIES.webhooks, limit: 200 } } }
	});
	owner = await newOwner(app.baseUrl);
	chatbotId = (await trainedChatbot(app.broker, owner.accountId))._id;
	bot = telegram.addBot("harbor_helper_bot");
	const connected = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/telegram`, { token: bot.token });
	expect(connected.status).toBe(201);
}, 90_000);

afterAll(async () => {
	await app?.stop();
	await telegram?.stop();
	await model?.stop();
});

describe("connecting a bot", () => {
	it("checks the token with getMe, points the webhook here with a secret token, and shows the bot's @name", async () => {
		expect(telegram.callsOf("getMe", bot.token)).toHaveLength(1);
		const [set] = telegram.callsOf("setWebhook", bot.token);
		const params = set.body as { url: string; secret_token: string; allowed_updates: string[] };
		expect(params.url).toMatch(new RegExp(`^${app.baseUrl}/webhooks/telegram/[0-9a-f-]{36}$`));
		expect(params.allowed_updates).toEqual(["message"]);
		expect(params.secret_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		const channels = await channelsOf(app.baseUrl, owner, chatbotId);
		expect(channels.telegram).toMatchObject({ bot_username: "harbor_helper_bot", bot_url: "https://t.me/harbor_helper_bot", last_failure: null });
		expect(channels.crisp).toBeNull();
		expect(JSON.stringify(channels)).not.toContain(bot.token);
	});

	it("stores the token and the secret token only sealed or hashed", () => {
		const secret = (bot.webhook as { secret_token: string }).secret_token;
		const files = fs.readdirSync(app.dataDir, { recursive: true }).map(f => path.join(app.dataDir, String(f)));
		const stored = files.filter(f => fs.statSync(f).isFile()).map(f => fs.readFileSync(f, "utf8"));
		expect(stored.join("\n")).toContain("harbor_helper_bot"); // the connection is there…
		for (const value of [bot.token, bot.token.split(":")[1], secret]) expect(stored.some(text => text.includes(value))).toBe(false); // …its secrets are not
	});

	it("refuses what is not a token, a token Telegram rejects, another account and a foreign origin, changing nothing", async () => {
		const path_ = `${channelsPath(chatbotId)}/telegram`;
		const notAToken = await ownerPost(app.baseUrl, owner, path_, { token: "my bot" });
		expect(notAToken.status).toBe(400);
		expect(notAToken.body).toMatchObject({ ok: false, code: "validation_failed", errors: { fields: [{ field: "token" }] } });
		const rejected = await ownerPost(app.baseUrl, owner, path_, { token: "123456789:AAHunknowntokenunknowntoken1234" });
		expect(rejected.status).toBe(400);
		expect((rejected.body as { message: string }).message).toBe("Telegram did not accept the token.");
		const stranger = await newOwner(app.baseUrl);
		expect((await ownerPost(app.baseUrl, stranger, path_, { token: bot.token })).body).toMatchObject({ status: 404, code: "not_found" });
		const anonymous = await rawRequest(`${app.baseUrl}${path_}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: bot.token }) });
		expect(anonymous.body).toMatchObject({ status: 401, code: "unauthorized" });
		const forged = await rawRequest(`${app.baseUrl}${path_}`, {
			method: "POST",
			headers: { "Content-Type": "application/json", Cookie: owner.cookie, Origin: "https://evil.example" },
			body: JSON.stringify({ token: bot.token })
		});
		expect(forged.body).toMatchObject({ status: 403, code: "forbidden" });
		expect(telegram.callsOf("setWebhook")).toHaveLength(1);
		expect((await channelsOf(app.baseUrl, owner, chatbotId)).telegram?.bot_username).toBe("harbor_helper_bot");
	});

	it("puts the previous bot back when Telegram refuses the webhook, and says when Telegram cannot be reached", async () => {
		const other = telegram.addBot("other_bot");
		telegram.failNext(other.token, "setWebhook", [{ status: 400, body: { ok: false, error_code: 400, description: "Bad Request: bad webhook: An HTTPS URL must be provided for webhook" } }]);
		const refused = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/telegram`, { token: other.token });
		expect(refused.status).toBe(503);
		expect(refused.body).toMatchObject({
			code: "unavailable",
			message: "Telegram refused this service's webhook address (Telegram answered 400: Bad Request: bad webhook: An HTTPS URL must be provided for webhook). Nothing was changed.",
			hint: "The service's PUBLIC_URL must be a public https address Telegram can reach; ask its operator."
		});
		const down = telegram.addBot("down_bot");
		telegram.failNext(down.token, "getMe", [{ status: 502, body: { ok: false, description: "Bad Gateway" } }, { status: 502, body: { ok: false, description: "Bad Gateway" } }]);
		const unreachable = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/telegram`, { token: down.token });
		expect(unreachable.body).toMatchObject({ status: 503, code: "unavailable", message: "Telegram answered 502: Bad Gateway (2 tries). Nothing was changed; try again in a minute." });
		expect((await channelsOf(app.baseUrl, owner, chatbotId)).telegram?.bot_username).toBe("harbor_helper_bot");
		// The bot still answers at its address.
		expect((await telegram.deliver(bot.token, update({ edited_message: {} }))).status).toBe(200);
	});

	it("goes with its chatbot: a removed chatbot's bot is told to stop and its address answers 404", async () => {
		const doomed = await trainedChatbot(app.broker, owner.accountId, { name: "Doomed" });
		const doomedBot = telegram.addBot("doomed_bot");
		expect((await ownerPost(app.baseUrl, owner, `${channelsPath(doomed._id)}/telegram`, { token: doomedBot.token })).status).toBe(201);
		const url = (doomedBot.webhook as { url: string }).url;
		await app.broker.call("chatbots.remove", { id: doomed._id });
		await eventually(async () => (doomedBot.webhook === null ? true : undefined), 10_000, "deleteWebhook");
		expect((await rawRequest(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(404);
	});
});

describe("answering", () => {
	it("acknowledges the update at once and answers from the job, citing the source as a link", async () => {
		const chatId = nextChat++;
		let release!: () => void;
		const held = new Promise<void>(resolve => (release = resolve));
		let started!: () => void;
		const answering = new Promise<void>(resolve => (started = resolve));
		model.beforeToken = async index => {
			if (index === 0) started();
			await held;
		};
		try {
			const delivered = await telegram.deliver(bot.token, textUpdate(chatId, "How long is the warranty of the Zephyr-9 kettle?"));
			expect(delivered).toEqual({ status: 200, body: { ok: true, queued: true } });
			await answering; // the answer is being written, and the webhook was answered before it
			expect(sentTo(chatId)).toEqual([]);
			release();
			const [reply] = await eventually(async () => (sentTo(chatId).length ? sentTo(chatId) : undefined), 30_000, "the reply");
			expect(reply).toContain("37 months");
			expect(reply).toContain(`Sources:\n• Harbor handbook: ${HANDBOOK_URL}`);
		} finally {
			model.beforeToken = undefined;
			release();
		}
		// Plain text only: no parse mode that markup in an answer could break.
		for (const call of telegram.callsOf("sendMessage")) expect((call.body as Record<string, unknown>).parse_mode).toBeUndefined();

		// The chat keeps one conversation, marked as Telegram's, for the conversation log.
		const [second] = await ask(chatId, "What does a city bike cost for the first hour?");
		expect(second).toContain("12 euros");
		const kept = await conversations(app.broker).find({ chatbot_id: chatbotId, channel_key: String(chatId) });
		expect(kept).toHaveLength(1);
		expect(kept[0]).toMatchObject({ channel: "telegram" });
		expect(kept[0].turns.map(t => t.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});

	it("answers an update Telegram delivers again, or twice at once, only once", async () => {
		const chatId = nextChat++;
		const first = textUpdate(chatId, "When does the shop open?");
		const [once, twice] = await Promise.all([telegram.deliver(bot.token, first), telegram.deliver(bot.token, first)]);
		expect([once.status, twice.status]).toEqual([200, 200]);
		expect([once.body.queued, twice.body.queued].sort()).toEqual([false, true]);
		await finishedJob(app.broker, `telegram:${bot.id}:${first.update_id}`);
		expect(await telegram.deliver(bot.token, first)).toEqual({ status: 200, body: { ok: true, queued: false } });
		expect(sentTo(chatId)).toHaveLength(1);
		expect(sentTo(chatId)[0]).toContain("nine");
	});

	it("welcomes /start, and says only text is understood for photos, voice notes and stickers", async () => {
		const chatId = nextChat++;
		expect(await ask(chatId, "/start")).toEqual(["Hi! Ask me anything about this content."]);
		for (const media of [{ photo: [{ file_id: "p", width: 1, height: 1 }] }, { voice: { file_id: "v", duration: 2 } }, { sticker: { file_id: "s" } }]) {
			const before = sentTo(chatId).length;
			const message = { message_id: 1, from: { id: chatId, is_bot: false, first_name: "Ana" }, chat: { id: chatId, type: "private" }, date: 0, ...media };
			expect((await telegram.deliver(bot.token, update({ message }))).body).toMatchObject({ queued: true });
			const [reply] = await eventually(async () => (sentTo(chatId).length > before ? sentTo(chatId).slice(before) : undefined), 30_000, "the reply to media");
			expect(reply).toBe("I can only read text messages. Please type your question.");
		}
	});

	it("splits an answer over 4,096 characters at paragraph breaks into messages Telegram accepts", async () => {
		const paragraphs = Array.from({ length: 6 }, (_, i) => `Part ${i + 1}: ${"Every rental includes a helmet, a lock and a city map. ".repeat(25).trim()}`);
		model.replyFor = messages => (messages.some(m => m.content.includes("everything about city bikes")) ? paragraphs.join("\n\n") : undefined);
		try {
			const chatId = nextChat++;
			await ask(chatId, "Tell me everything about city bikes");
			await finishedJob(app.broker, (await channelsRecords(app.broker).jobs().findOne({ chat_key: String(chatId) }))?._id ?? "");
			const parts = sentTo(chatId);
			expect(parts.length).toBeGreaterThanOrEqual(3);
			for (const part of parts) {
				expect(part.length).toBeLessThanOrEqual(4096);
				expect(part).toMatch(/^Part \d: /);
			}
			expect(parts.join("\n\n").startsWith(paragraphs.join("\n\n"))).toBe(true);
			const refused = telegram.callsOf("sendMessage", bot.token).filter(call => call.status !== 200 && call.outcome === "handled");
			expect(refused).toEqual([]);
		} finally {
			model.replyFor = undefined;
		}
	});

	it("acknowledges updates it does not use with 200 and stores nothing for them", async () => {
		const chatId = nextChat++;
		const jobsBefore = await channelsRecords(app.broker).jobs().count({});
		const text = textUpdate(chatId, "hello").message as Record<string, unknown>;
		const unusable = [
			update({ edited_message: text }),
			update({ channel_post: { message_id: 3, chat: { id: -1001, type: "channel" }, date: 0, text: "news" } }),
			update({ message: { ...text, chat: { id: -42, type: "group" } } }),
			update({ message: { message_id: 4, chat: { id: chatId, type: "private" }, date: 0, new_chat_members: [{ id: 5, is_bot: false }] } }),
			update({ callback_query: { id: "1", data: "x" } }),
			{ hello: "world" }
		];
		for (const body of unusable) {
			const delivered = await telegram.deliver(bot.token, body);
			expect(delivered.status).toBe(200);
			expect(delivered.body).toMatchObject({ ok: true, queued: false });
		}
		expect(await channelsRecords(app.broker).jobs().count({})).toBe(jobsBefore);
		expect(sentTo(chatId)).toEqual([]);
	});

	it("tells a person once, politely, that the chatbot's message limit is reached", async () => {
		const limited = await trainedChatbot(app.broker, owner.accountId, { limits: { max_messages: 1 }, name: "Limited" });
		const limitedBot = telegram.addBot("limited_bot");
		expect((await ownerPost(app.baseUrl, owner, `${channelsPath(limited._id)}/telegram`, { token: limitedBot.token })).status).toBe(201);
		const chatId = nextChat++;
		const to = () => telegram.sent.filter(m => m.token === limitedBot.token && m.chat_id === String(chatId)).map(m => m.text);
		const updates = ["How long is the warranty?", "And the price of a bike?", "Hello?"].map(text => textUpdate(chatId, text));
		for (const u of updates) {
			expect((await telegram.deliver(limitedBot.token, u)).body).toMatchObject({ queued: true });
			await finishedJob(app.broker, `telegram:${limitedBot.id}:${u.update_id}`);
		}
		const replies = to();
		expect(replies).toHaveLength(2);
		expect(replies[0]).toContain("37 months");
		expect(replies[1]).toBe("This chatbot has reached its limit of 1 message, so it can't answer more questions.");
	});
});

describe("bad input", () => {
	const webhook = () => (bot.webhook as { url: string }).url;
	const post = (url: string, body: string | Buffer, headers: Record<string, string> = {}) =>
		rawRequest(url, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: typeof body === "string" ? body : new Uint8Array(body) });

	it("answers JSON errors with the right status, never a 5xx, and writes nothing", async () => {
		const jobsBefore = await channelsRecords(app.broker).jobs().count({});
		const sentBefore = telegram.sent.length;
		const secret = { "X-Telegram-Bot-Api-Secret-Token": (bot.webhook as { secret_token: string }).secret_token };
		const valid = JSON.stringify(textUpdate(nextChat++, "How long is the warranty?"));
		const cases: Array<[string, Promise<{ status: number; body: unknown; headers: Headers }>, number, string]> = [
			["unknown uuid", post(`${app.baseUrl}/webhooks/telegram/0b9a34cf-4a47-4a2e-9f71-5a0c7a2f6f11`, valid, secret), 404, "not_found"],
			["no secret token", post(webhook(), valid), 401, "unauthorized"],
			["wrong secret token", post(webhook(), valid, { "X-Telegram-Bot-Api-Secret-Token": "wrong" }), 403, "forbidden"],
			["invalid JSON", post(webhook(), "{not json", secret), 400, "invalid_json"],
			["empty body", post(webhook(), "", secret), 400, "invalid_json"],
			["not UTF-8", post(webhook(), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), secret), 400, "invalid_json"],
			["too large", post(webhook(), `{"pad":"${"x".repeat(1_100_000)}"}`, secret), 413, "payload_too_large"]
		];
		for (const [what, reply, status, code] of cases) {
			const res = await reply;
			expect([what, res.status]).toEqual([what, status]);
			expect(res.headers.get("content-type")).toContain("application/json");
			expect([what, res.body]).toMatchObject([what, { ok: false, status, code }]);
		}
		expect(await channelsRecords(app.broker).jobs().count({})).toBe(jobsBefore);
		expect(telegram.sent.length).toBe(sentBefore);
	});

	it("budgets each webhook path on its own", async () => {
		const flooded = `${app.baseUrl}/webhooks/telegram/flood-${newUpdateId()}`;
		const statuses: number[] = [];
		for (let i = 0; i < 201; i++) statuses.push((await post(flooded, "{}")).status);
		expect(statuses.slice(0, 200).every(s => s === 404)).toBe(true);
		const refused = await post(flooded, "{}");
		expect(refused.status).toBe(429);
		expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
		expect(refused.headers.get("ratelimit-policy")).toBe('"webhooks"; q=200; w=60');
		// The bot's own path has its own budget.
		expect((await telegram.deliver(bot.token, update({ edited_message: {} }))).status).toBe(200);
	});
});

describe("delivery", () => {
	it("waits the retry_after Telegram asks for, retries 5xx and hangs, and delivers once", async () => {
		const chatId = nextChat++;
		telegram.failNext(bot.token, "sendMessage", [
			{ status: 429, body: { ok: false, error_code: 429, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } } },
			{ status: 502, body: { ok: false, error_code: 502, description: "Bad Gateway" } },
			"hang"
		]);
		const [reply] = await ask(chatId, "When does the shop close?");
		expect(reply).toContain("six");
		const attempts = telegram.callsOf("sendMessage", bot.token).filter(c => (c.body as { chat_id: string }).chat_id === String(chatId));
		expect(attempts.map(a => a.status ?? a.outcome)).toEqual([429, 502, "hung", 200]);
		expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(950);
		expect(sentTo(chatId)).toHaveLength(1);
	});

	it("records a reply it could not deliver after the last try, and shows it on the channel status", async () => {
		const chatId = nextChat++;
		telegram.failNext(bot.token, "sendMessage", [500, 500, 500, 500].map(status => ({ status, body: { ok: false, error_code: status, description: "Internal Server Error" } })));
		const u = textUpdate(chatId, "How long is the warranty?");
		expect((await telegram.deliver(bot.token, u)).body).toMatchObject({ queued: true });
		expect(await finishedJob(app.broker, `telegram:${bot.id}:${u.update_id}`)).toMatchObject({ status: "failed", sent: 0 });
		const { telegram: status } = await channelsOf(app.baseUrl, owner, chatbotId);
		expect(status?.last_failure?.message).toBe("Telegram answered 500: Internal Server Error (4 tries)");
		expect(sentTo(chatId)).toEqual([]);
	});
});

describe("disconnecting", () => {
	it("deletes the webhook at Telegram and makes the path answer 404", async () => {
		const url = (bot.webhook as { url: string }).url;
		const secret = (bot.webhook as { secret_token: string }).secret_token;
		const reply = await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/telegram/disconnect`);
		expect(reply.status).toBe(200);
		expect(reply.body).toEqual({ ok: true, channel: "telegram", disconnected: true, webhook_deleted: true });
		expect(telegram.callsOf("deleteWebhook", bot.token)).toHaveLength(1);
		expect(bot.webhook).toBeNull();
		const late = await rawRequest(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret }, body: JSON.stringify(textUpdate(1, "hi")) });
		expect(late.status).toBe(404);
		expect(late.body).toMatchObject({ ok: false, code: "not_found" });
		expect((await channelsOf(app.baseUrl, owner, chatbotId)).telegram).toBeNull();
		expect((await ownerPost(app.baseUrl, owner, `${channelsPath(chatbotId)}/telegram/disconnect`)).status).toBe(404);
	});
});
