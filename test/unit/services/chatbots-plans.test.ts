/**
 * The chatbots service under an account's plan, on a real broker with the real service (its
 * documents in a temporary directory) and an injected clock: messages counted per period and reset
 * at the first message of the next one (UTC calendar months for free accounts, the paid period for
 * subscribers), a burst at the limit (exactly the limit passes, also across the month boundary), a
 * plan change reaching every chatbot, a downgrade that pauses the chatbots over the count until the
 * owner chooses, and sources over a smaller character limit blocking retraining but not answering.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Context, ServiceBroker } from "moleculer";
import { loadConfig } from "../../../config";
import { chatbotLimitsFromPlan } from "../../../lib/accounts/chatbot-limits";
import { PLANS } from "../../../lib/accounts/plans";
import { messageGate } from "../../../lib/chatbots/gates";
import type { MessagePeriod } from "../../../lib/chatbots/message-period";
import type { Chatbot, ChatbotLimits } from "../../../lib/chatbots/model";
import createChatbotsService from "../../../services/chatbots.service";

const FREE = chatbotLimitsFromPlan(PLANS.free.limits);
const PRO = chatbotLimitsFromPlan(PLANS.pro.limits);
const SMALL: ChatbotLimits = { ...FREE, max_messages: 5 };

let dataDir: string;
let broker: ServiceBroker;
/** The injected clock: starts mid-March 2031 (UTC). */
let clock = Date.UTC(2031, 2, 14, 12, 0, 0);
let trainerStarts: string[] = [];
let accounts = 0;

const call = <T>(action: string, params: object = {}) => broker.call(action, params) as Promise<T>;
const load = async (id: string) => (await call<{ chatbot: Chatbot }>("chatbots.get", { id, with_sources: false })).chatbot;
const count = (id: string) => call<{ messages_used: number; max_messages: number }>("chatbots.countMessage", { id });
async function outcome(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
		return "counted";
	} catch (err) {
		return String((err as { type?: string }).type);
	}
}
const burst = async (id: string, n: number) => {
	const outcomes = await Promise.all(Array.from({ length: n }, () => outcome(count(id))));
	return { counted: outcomes.filter(o => o === "counted").length, refused: outcomes.filter(o => o !== "counted") };
};

function newAccount(): string {
	return `account-${++accounts}`;
}

async function accountChatbot(accountId: string, limits: ChatbotLimits = FREE, max_chatbots = 3): Promise<Chatbot> {
	const created = await call<Chatbot>("chatbots.create", { kind: "account", locale: "en", limits, account_id: accountId, max_chatbots });
	clock += 1000; // distinct creation times: "oldest first" is well defined
	return created;
}

function applyPlan(accountId: string, plan: "free" | "pro" | "business", revision: number, period: MessagePeriod | null = null, limits?: ChatbotLimits) {
	return call<{ applied: boolean; paused: string[] }>("chatbots.applyPlan", {
		account_id: accountId,
		limits: limits ?? chatbotLimitsFromPlan(PLANS[plan].limits),
		max_chatbots: PLANS[plan].limits.chatbots,
		period,
		revision
	});
}

beforeAll(async () => {
	dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-plans-"));
	broker = new ServiceBroker({ logger: false, validator: true });
	broker.createService(createChatbotsService(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "error" }), { now: () => clock }));
	// A trainer that only records what it is asked to start.
	broker.createService({
		name: "trainer",
		actions: {
			start(ctx: Context<{ chatbot_id: string }>) {
				trainerStarts.push(ctx.params.chatbot_id);
				return { started: true };
			}
		}
	});
	await broker.start();
});

afterAll(async () => {
	await broker?.stop();
	fs.rmSync(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
	trainerStarts = [];
});

describe("messages per period", () => {
	it("a free account's chatbot counts per UTC calendar month and starts again at the first message of the next", async () => {
		clock = Date.UTC(2031, 2, 14, 12, 0, 0);
		const chatbot = await accountChatbot(newAccount(), SMALL);
		expect(chatbot.message_period).toEqual({ anchor: "calendar", start: Date.UTC(2031, 2, 1), end: Date.UTC(2031, 3, 1) });
		for (let i = 1; i <= 5; i++) expect((await count(chatbot._id)).messages_used).toBe(i);
		expect(await outcome(count(chatbot._id))).toBe("message_cap");

		// One millisecond before April (UTC): still March, still refused.
		clock = Date.UTC(2031, 3, 1) - 1;
		expect(await outcome(count(chatbot._id))).toBe("message_cap");
		// The first message of April starts April's period in the same write that counts it.
		clock = Date.UTC(2031, 3, 1);
		expect(await count(chatbot._id)).toEqual({ messages_used: 1, max_messages: 5 });
		const stored = await load(chatbot._id);
		expect(stored.message_period).toEqual({ anchor: "calendar", start: Date.UTC(2031, 3, 1), end: Date.UTC(2031, 4, 1) });
		expect(stored.counts.messages).toBe(1);
	});

	it("a burst at the limit: exactly the limit passes, within a period and across the month boundary", async () => {
		clock = Date.UTC(2031, 4, 20);
		const chatbot = await accountChatbot(newAccount(), SMALL);
		const first = await burst(chatbot._id, 12);
		expect(first.counted).toBe(5);
		expect(new Set(first.refused)).toEqual(new Set(["message_cap"]));

		// The month turns while the cap is reached: twelve callers at once, five pass, one reset.
		clock = Date.UTC(2031, 5, 1, 0, 0, 1);
		const second = await burst(chatbot._id, 12);
		expect(second.counted).toBe(5);
		expect(new Set(second.refused)).toEqual(new Set(["message_cap"]));
		const stored = await load(chatbot._id);
		expect(stored.counts.messages).toBe(5);
		expect(stored.message_period?.start).toBe(Date.UTC(2031, 5, 1));
	});

	it("a demo chatbot keeps its lifetime count", async () => {
		const demo = await call<Chatbot>("chatbots.create", { kind: "demo", locale: "en", limits: { ...SMALL, max_messages: 2 }, ttl_ms: 100 * 86_400_000 });
		expect(demo.message_period).toBeNull();
		await count(demo._id);
		await count(demo._id);
		clock += 40 * 86_400_000; // a month boundary passes
		expect(await outcome(count(demo._id))).toBe("message_cap");
	});

	it("a subscriber counts per paid period: the upgrade starts one, invoice.paid the next; a late invoice is covered", async () => {
		clock = Date.UTC(2031, 6, 10);
		const accountId = newAccount();
		const chatbot = await accountChatbot(accountId, SMALL);
		await count(chatbot._id);
		await count(chatbot._id);

		// The upgrade: a paid period from July 15 to August 15.
		clock = Date.UTC(2031, 6, 15, 9);
		const july: MessagePeriod = { anchor: "paid", start: Date.UTC(2031, 6, 15, 9), end: Date.UTC(2031, 7, 15, 9) };
		await applyPlan(accountId, "pro", 1, july, { ...PRO, max_messages: 3 });
		let stored = await load(chatbot._id);
		expect(stored.limits.max_messages).toBe(3);
		expect(stored.message_period).toEqual(july);
		expect(stored.counts.messages).toBe(0);
		expect((await burst(chatbot._id, 6)).counted).toBe(3);

		// The renewal's invoice is late: the next period starts where July's ended, at the first message.
		clock = Date.UTC(2031, 7, 15, 10);
		expect((await count(chatbot._id)).messages_used).toBe(1);
		stored = await load(chatbot._id);
		expect(stored.message_period?.start).toBe(july.end);
		// invoice.paid then tells the exact period: same start, so the count holds (no second allowance).
		const august: MessagePeriod = { anchor: "paid", start: july.end, end: Date.UTC(2031, 8, 15, 9) };
		await applyPlan(accountId, "pro", 2, august, { ...PRO, max_messages: 3 });
		stored = await load(chatbot._id);
		expect(stored.message_period).toEqual(august);
		expect(stored.counts.messages).toBe(1);

		// An older plan change delivered late changes nothing.
		expect((await applyPlan(accountId, "free", 1)).applied).toBe(false);
		expect((await load(chatbot._id)).limits.max_messages).toBe(3);

		// Back to free mid-period: the count of this period is kept against the free allowance.
		clock = Date.UTC(2031, 7, 20);
		await applyPlan(accountId, "free", 3, null, SMALL);
		stored = await load(chatbot._id);
		expect(stored.message_period).toEqual({ anchor: "calendar", start: Date.UTC(2031, 7, 1), end: Date.UTC(2031, 8, 1) });
		expect(stored.counts.messages).toBe(1);
	});
});

describe("the message gate", () => {
	it("an account's chatbot stored before periods (lifetime count) starts its first calendar month at its next message", () => {
		const now = Date.UTC(2031, 0, 10);
		const legacy = { _id: "c1", kind: "account", limits: SMALL, counts: { urls: 0, files: 0, chars: 0, messages: 5 }, expires_at: null } as unknown as Chatbot;
		const decision = messageGate(legacy, now);
		expect(decision.ok).toBe(true);
		if (!decision.ok) return;
		expect(decision.messagesUsed).toBe(1);
		expect(decision.gate.query).toMatchObject({ "counts.messages": 5, "message_period.start": { $exists: false } });
		expect(decision.gate.update).toEqual({ $set: { "counts.messages": 1, updated_at: now, message_period: { anchor: "calendar", start: Date.UTC(2031, 0, 1), end: Date.UTC(2031, 1, 1) } } });
		// A sandbox keeps its lifetime count.
		const sandbox = { ...legacy, kind: "sandbox", message_period: null } as Chatbot;
		expect(messageGate(sandbox, now).ok).toBe(false);
	});
});

describe("a plan change", () => {
	it("reaches every chatbot of the account, and chatbots created or claimed later start under it", async () => {
		clock = Date.UTC(2031, 9, 3);
		const accountId = newAccount();
		const a = await accountChatbot(accountId);
		const b = await accountChatbot(accountId);
		await applyPlan(accountId, "pro", 1);
		for (const id of [a._id, b._id]) expect((await load(id)).limits).toEqual(PRO);
		// A caller that read the old plan still gets the applied one.
		const c = await accountChatbot(accountId, FREE, 3);
		expect(c.limits).toEqual(PRO);
		expect(c.plan_revision).toBe(1);
		// The applied plan's count governs the reservation too: Pro allows 10, not the 3 passed.
		for (let i = 0; i < 7; i++) await accountChatbot(accountId, FREE, 3);
		expect(await outcome(accountChatbot(accountId, FREE, 3))).toBe("forbidden");

		const sandbox = await call<Chatbot>("chatbots.create", { kind: "sandbox", locale: "en", limits: SMALL, ttl_ms: 3_600_000, claim_hash: "a".repeat(64) });
		await count(sandbox._id);
		const other = newAccount();
		await applyPlan(other, "business", 4);
		const claimed = await call<Chatbot>("chatbots.claim", { id: sandbox._id, claim_hash: "a".repeat(64), account_id: other, limits: FREE, max_chatbots: 3 });
		expect(claimed).toMatchObject({ kind: "account", limits: chatbotLimitsFromPlan(PLANS.business.limits), plan_revision: 4, paused: false });
		expect(claimed.counts.messages).toBe(0);
		expect(claimed.message_period?.anchor).toBe("calendar");
	});

	it("a downgrade with too many chatbots deletes nothing: the newest over the count pause until the owner chooses", async () => {
		clock = Date.UTC(2031, 10, 3);
		const accountId = newAccount();
		await applyPlan(accountId, "business", 1);
		const made: Chatbot[] = [];
		for (let i = 0; i < 5; i++) made.push(await accountChatbot(accountId, FREE, 50));

		const downgrade = await applyPlan(accountId, "free", 2);
		expect(downgrade.applied).toBe(true);
		expect(new Set(downgrade.paused)).toEqual(new Set([made[3]._id, made[4]._id]));
		const list = await call<Chatbot[]>("chatbots.listByAccount", { account_id: accountId });
		expect(list).toHaveLength(5);
		expect(list.filter(c => c.paused).map(c => c._id).sort()).toEqual([made[3]._id, made[4]._id].sort());
		expect(await outcome(count(made[4]._id))).toBe("chatbot_paused");
		expect(await outcome(count(made[0]._id))).toBe("counted");
		// No room for a new one while the account holds more than the plan allows.
		expect(await outcome(accountChatbot(accountId, FREE, 3))).toBe("forbidden");

		// The owner keeps the two newest and the oldest answering.
		const chosen = [made[0]._id, made[3]._id, made[4]._id];
		expect(await outcome(call("chatbots.chooseAnswering", { account_id: accountId, ids: [...chosen, made[1]._id], max_chatbots: 3 }))).toBe("validation_failed");
		expect(await outcome(call("chatbots.chooseAnswering", { account_id: accountId, ids: ["not-theirs"], max_chatbots: 3 }))).toBe("not_found");
		const after = await call<Chatbot[]>("chatbots.chooseAnswering", { account_id: accountId, ids: chosen, max_chatbots: 3 });
		expect(after.filter(c => c.paused).map(c => c._id).sort()).toEqual([made[1]._id, made[2]._id].sort());
		expect(await outcome(count(made[4]._id))).toBe("counted");
		expect(await outcome(count(made[1]._id))).toBe("chatbot_paused");

		// Applying the same plan again keeps the owner's choice.
		await applyPlan(accountId, "free", 3);
		expect((await call<Chatbot[]>("chatbots.listByAccount", { account_id: accountId })).filter(c => c.paused).map(c => c._id).sort()).toEqual([made[1]._id, made[2]._id].sort());

		// Removing chatbots until the account fits lets every one answer again.
		await call("chatbots.remove", { id: made[0]._id });
		await call("chatbots.remove", { id: made[3]._id });
		expect((await call<Chatbot[]>("chatbots.listByAccount", { account_id: accountId })).every(c => !c.paused)).toBe(true);

		// A downgrade that fits pauses nothing.
		expect((await applyPlan(accountId, "free", 4)).paused).toEqual([]);
	});

	it("sources over a smaller character limit block retraining, not answering", async () => {
		clock = Date.UTC(2031, 11, 3);
		const accountId = newAccount();
		await applyPlan(accountId, "pro", 1);
		const chatbot = await accountChatbot(accountId);
		await call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text: "x".repeat(30_000) });
		await applyPlan(accountId, "free", 2, null, { ...FREE, max_chars: 20_000 });

		expect(await outcome(call("chatbots.train", { id: chatbot._id }))).toBe("char_cap");
		// A training request (an agent adding knowledge) waits instead of starting a run.
		await call("chatbots.addSource", { id: chatbot._id, kind: "qa", status: "ready", question: "q", answer: "a", text: "", train: true });
		expect(trainerStarts).toEqual([]);
		// Answering is not blocked.
		expect(await outcome(count(chatbot._id))).toBe("counted");
	});
});
