/**
 * Billing end to end over real HTTP: Stripe's webhook moves an account between plans, and the plan
 * reaches its chatbots. Stripe cannot run here, so a loopback stand-in of its API answers the
 * Checkout and portal calls the official `stripe` package makes (test/helpers/stripe-stand-in.ts),
 * and webhook deliveries are signed with the package's own `webhooks.generateTestHeaderString`.
 *
 * Covered: every handled event (checkout.session.completed, customer.subscription.created /
 * updated / deleted, invoice.paid, invoice.payment_failed) and an ignored one; a replayed event id;
 * out-of-order delivery; a tampered body, a missing and a stale signature (400 JSON, nothing
 * written); unknown customers and accounts (200, logged); the grace period of a failed payment
 * with an injected clock; a downgrade with too many chatbots (the chat API answers 422
 * `chatbot_paused` until the owner chooses); Checkout, the portal and a Stripe outage through the
 * JSON forms; and a deployment without Stripe (404 JSON, the page says billing is off).
 */
import { chatbotLimitsFromPlan } from "../../lib/accounts/chatbot-limits";
import { PLANS } from "../../lib/accounts/plans";
import type { AccountView } from "../../lib/accounts/views";
import type { Chatbot } from "../../lib/chatbots/model";
import createBillingService from "../../services/billing.service";
import createChatbotsService from "../../services/chatbots.service";
import { startApp, TestApp } from "../helpers/app";
import { ask } from "../helpers/chat-client";
import { rawRequest, signUp } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";
import {
	billingEnv,
	Delivery,
	deliverEvent,
	StripeStandIn,
	startStripeStandIn,
	stripeEvent,
	stripeInvoice,
	stripeSignature,
	stripeSubscription,
	TEST_PRICES,
	TEST_WEBHOOK_SECRET
} from "../helpers/stripe-stand-in";

const DAY = 86_400;
let app: TestApp;
let standIn: StripeStandIn;
/** The injected clock of the billing and chatbots services: real time moved by `offsetMs`. */
let offsetMs = 0;
const now = () => Date.now() + offsetMs;
const nowSeconds = () => Math.floor(now() / 1000);

beforeAll(async () => {
	standIn = await startStripeStandIn();
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,accounts,chatbots,billing,chat,trainer,vectors,storage", ...billingEnv(standIn) },
		factories: {
			billing: cfg => createBillingService(cfg, { now }),
			chatbots: cfg => createChatbotsService(cfg, { now })
		}
	});
}, 60_000);

afterAll(async () => {
	await app?.stop();
	await standIn?.stop();
});

function deliver(event: Record<string, unknown>, opts: Delivery = {}) {
	return deliverEvent(app.baseUrl, event, { timestamp: nowSeconds(), ...opts });
}

async function delivered(event: Record<string, unknown>): Promise<{ outcome: string; duplicate?: boolean }> {
	const reply = await deliver(event);
	expect({ status: reply.status, body: reply.body }).toMatchObject({ status: 200, body: { ok: true, event_id: event.id } });
	return reply.body as { outcome: string; duplicate?: boolean };
}

const account = async (id: string) => app.broker.call<AccountView, object>("accounts.getAccount", { account_id: id });
const chatbot = async (id: string) => (await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id, with_sources: false })).chatbot;

let people = 0;
async function newAccount(): Promise<{ id: string; cookie: string }> {
	const signed = await signUp(app.baseUrl, `payer-${++people}@example.com`);
	return { id: (signed.account as { id: string }).id, cookie: signed.cookie };
}

async function accountChatbot(accountId: string, name: string, text?: string): Promise<Chatbot> {
	const limits = chatbotLimitsFromPlan(PLANS.free.limits);
	const created = await app.broker.call<Chatbot, object>("chatbots.create", { kind: "account", locale: "en", name, limits, account_id: accountId, max_chatbots: PLANS.free.limits.chatbots });
	if (text) await app.broker.call("chatbots.addSource", { id: created._id, kind: "text", status: "ready", text, train: true });
	return created;
}

const subscription = (fields: { id: string; customer: string; status: string; plan: "pro" | "business"; start: number; accountId?: string }) =>
	stripeSubscription({ ...fields, price: TEST_PRICES[fields.plan], end: fields.start + 30 * DAY });

describe("signatures", () => {
	it("a tampered body, a missing signature and a stale one are refused with 400 JSON, and nothing is written", async () => {
		const { id } = await newAccount();
		const start = nowSeconds();
		const upgrade = stripeEvent("customer.subscription.created", subscription({ id: "sub_sig", customer: "cus_sig", status: "active", plan: "pro", start, accountId: id }), start);

		const tampered = await deliver(upgrade, { tamper: body => body.replace(TEST_PRICES.pro, TEST_PRICES.business) });
		expect(tampered.status).toBe(400);
		expect(tampered.headers.get("content-type")).toMatch(/^application\/json/);
		expect(tampered.body).toMatchObject({ ok: false, code: "invalid_signature", status: 400 });

		expect((await deliver(upgrade, { signature: null })).body).toMatchObject({ code: "invalid_signature", message: "The Stripe-Signature header is missing." });
		expect((await deliver(upgrade, { signature: stripeSignature(JSON.stringify(upgrade), nowSeconds(), "whsec_someone_else") })).status).toBe(400);
		const stale = await deliver(upgrade, { timestamp: nowSeconds() - 301 });
		expect(stale.body).toMatchObject({ code: "invalid_signature", message: "The webhook's signature is older than 300 seconds." });
		expect((await deliver(upgrade, { tamper: () => "not json", signature: stripeSignature("not json") })).body).toMatchObject({ code: "invalid_json", status: 400 });
		expect((await account(id)).plan).toBe("free");

		// None of them recorded the event id: the genuine delivery is processed.
		expect(await delivered(upgrade)).toEqual(expect.objectContaining({ outcome: "applied" }));
		expect((await account(id)).plan).toBe("pro");
		expect(TEST_WEBHOOK_SECRET).toMatch(/^whsec_/);
	});
});

describe("the subscription lifecycle", () => {
	it("moves the account and its chatbots through checkout, subscription, invoices, a failed payment and cancellation", async () => {
		const { id, cookie } = await newAccount();
		const bot = await accountChatbot(id, "Lifecycle bot");
		const start = nowSeconds();

		// Checkout completes: the customer is remembered, the plan waits for the subscription.
		const checkout = stripeEvent("checkout.session.completed", { id: "cs_1", object: "checkout.session", mode: "subscription", client_reference_id: id, customer: "cus_life", subscription: "sub_life" }, start);
		expect((await delivered(checkout)).outcome).toBe("applied");
		expect((await account(id)).plan).toBe("free");

		// The subscription, found by its customer (no metadata): Pro, with its paid period.
		const created = stripeEvent("customer.subscription.created", subscription({ id: "sub_life", customer: "cus_life", status: "active", plan: "pro", start }), start + 1);
		expect((await delivered(created)).outcome).toBe("applied");
		expect((await account(id)).plan).toBe("pro");
		let stored = await chatbot(bot._id);
		expect(stored.limits).toEqual(chatbotLimitsFromPlan(PLANS.pro.limits));
		expect(stored.message_period).toEqual({ anchor: "paid", start: start * 1000, end: (start + 30 * DAY) * 1000 });

		// Business, then Pro again, in the same second; then the Business event is delivered again.
		const business = stripeEvent("customer.subscription.updated", subscription({ id: "sub_life", customer: "cus_life", status: "active", plan: "business", start }), start + 10);
		const proAgain = stripeEvent("customer.subscription.updated", subscription({ id: "sub_life", customer: "cus_life", status: "active", plan: "pro", start }), start + 10);
		await delivered(business);
		await delivered(proAgain);
		const revision = (await chatbot(bot._id)).plan_revision;
		expect(await delivered(business)).toMatchObject({ duplicate: true, outcome: "applied" });
		expect((await account(id)).plan).toBe("pro");
		expect((await chatbot(bot._id)).plan_revision).toBe(revision);

		// Out of order: an older event (Business, created before the last one) arrives late and changes nothing.
		const older = stripeEvent("customer.subscription.updated", subscription({ id: "sub_life", customer: "cus_life", status: "active", plan: "business", start }), start + 5);
		expect((await delivered(older)).outcome).toBe("unchanged");
		expect((await account(id)).plan).toBe("pro");

		// Messages of this period, then invoice.paid for the next one: the count starts again.
		await app.broker.call("chatbots.countMessage", { id: bot._id });
		await app.broker.call("chatbots.countMessage", { id: bot._id });
		expect((await chatbot(bot._id)).counts.messages).toBe(2);
		const next = start + 30 * DAY;
		offsetMs = 30 * DAY * 1000 + 60_000;
		const paid = stripeEvent("invoice.paid", stripeInvoice({ id: "in_2", customer: "cus_life", subscription: "sub_life", start: next, end: next + 31 * DAY }), next + 60);
		expect((await delivered(paid)).outcome).toBe("applied");
		stored = await chatbot(bot._id);
		expect(stored.message_period).toEqual({ anchor: "paid", start: next * 1000, end: (next + 31 * DAY) * 1000 });
		expect(stored.counts.messages).toBe(0);

		// A payment fails: the plan holds through the grace period (7 days), with a notice on the Billing page.
		const failed = stripeEvent("invoice.payment_failed", stripeInvoice({ id: "in_3", customer: "cus_life", subscription: "sub_life", start: next, end: next + 31 * DAY }), next + 120);
		expect((await delivered(failed)).outcome).toBe("applied");
		expect((await account(id)).plan).toBe("pro");
		const billingPage = await rawRequest(`${app.baseUrl}/account/billing`, { headers: { Cookie: cookie } });
		expect(billingPage.status).toBe(200);
		expect(billingPage.text).toContain("Your last payment failed.");
		offsetMs += 6 * DAY * 1000;
		expect(await app.broker.call("billing.sweep", {})).toMatchObject({ downgraded: 0 });
		expect((await account(id)).plan).toBe("pro");
		offsetMs += 2 * DAY * 1000;
		expect(await app.broker.call("billing.sweep", {})).toMatchObject({ downgraded: 1 });
		expect((await account(id)).plan).toBe("free");
		expect((await chatbot(bot._id)).limits).toEqual(chatbotLimitsFromPlan(PLANS.free.limits));

		// The retry succeeds: Pro again. Then the subscription is cancelled: Free for good.
		const recovered = stripeEvent("invoice.paid", stripeInvoice({ id: "in_3", customer: "cus_life", subscription: "sub_life", start: next, end: next + 31 * DAY }), nowSeconds());
		expect((await delivered(recovered)).outcome).toBe("applied");
		expect((await account(id)).plan).toBe("pro");
		const deleted = stripeEvent("customer.subscription.deleted", subscription({ id: "sub_life", customer: "cus_life", status: "canceled", plan: "pro", start: next }), nowSeconds());
		expect((await delivered(deleted)).outcome).toBe("applied");
		expect((await account(id)).plan).toBe("free");
		// A late update of the ended subscription does not bring it back.
		const late = stripeEvent("customer.subscription.updated", subscription({ id: "sub_life", customer: "cus_life", status: "active", plan: "business", start: next }), nowSeconds() + 5);
		expect((await delivered(late)).outcome).toBe("unchanged");
		expect((await account(id)).plan).toBe("free");
		offsetMs = 0;
	});

	it("answers 200 to other event types and to unknown customers and accounts, changing nothing", async () => {
		const at = nowSeconds();
		expect((await delivered(stripeEvent("customer.created", { id: "cus_new", object: "customer" }, at))).outcome).toBe("ignored");
		const stranger = stripeEvent("customer.subscription.updated", subscription({ id: "sub_x", customer: "cus_nobody", status: "active", plan: "business", start: at }), at);
		expect((await delivered(stranger)).outcome).toBe("unknown_customer");
		const gone = stripeEvent("checkout.session.completed", { id: "cs_x", object: "checkout.session", mode: "subscription", client_reference_id: "no-such-account", customer: "cus_gone" }, at);
		expect((await delivered(gone)).outcome).toBe("unknown_account");
		// Replays of those are answered from the record, too.
		expect(await delivered(stranger)).toMatchObject({ duplicate: true, outcome: "unknown_customer" });
	});
});

describe("a downgrade with too many chatbots", () => {
	it("pauses the newest over the new count; the chat API says so until the owner chooses which answer", async () => {
		const { id, cookie } = await newAccount();
		const at = nowSeconds();
		await delivered(stripeEvent("customer.subscription.created", subscription({ id: "sub_many", customer: "cus_many", status: "active", plan: "business", start: at, accountId: id }), at));
		expect((await account(id)).plan).toBe("business");
		const bots: Chatbot[] = [];
		for (let i = 1; i <= 4; i++) bots.push(await accountChatbot(id, `Shop bot ${i}`, `Shop ${i} opens at ${i + 7} o'clock every weekday morning.`));
		await eventually(async () => ((await Promise.all(bots.map(b => chatbot(b._id)))).every(b => b.generation > 0) ? true : undefined), 30_000, "the four chatbots to be trained");

		await delivered(stripeEvent("customer.subscription.deleted", subscription({ id: "sub_many", customer: "cus_many", status: "canceled", plan: "business", start: at, accountId: id }), at + 1));
		expect((await account(id)).plan).toBe("free");
		const list = await app.broker.call<Chatbot[], object>("chatbots.listByAccount", { account_id: id });
		expect(list).toHaveLength(4);
		expect(list.filter(b => b.paused).map(b => b.name)).toEqual(["Shop bot 4"]);

		const paused = await ask(app.baseUrl, bots[3].slug, "When does the shop open?");
		expect(paused.status).toBe(422);
		expect(paused.body).toMatchObject({ ok: false, code: "chatbot_paused" });
		expect(String((paused.body as unknown as { message: string }).message)).toContain("This chatbot is paused");
		expect((await ask(app.baseUrl, bots[0].slug, "When does the shop open?")).status).toBe(200);
		const info = await rawRequest(`${app.baseUrl}/api/chat/${bots[3].slug}`, {});
		expect(info.body).toMatchObject({ paused: true });

		// The Billing page asks the owner to choose; the owner keeps bots 2, 3 and 4.
		const page = await rawRequest(`${app.baseUrl}/account/billing`, { headers: { Cookie: cookie } });
		expect(page.text).toContain("Choose which chatbots answer");
		const choose = (ids: string[]) =>
			rawRequest(`${app.baseUrl}/account/billing/chatbots`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify({ chatbot_ids: ids }) });
		const tooMany = await choose(bots.map(b => b._id));
		expect(tooMany.body).toMatchObject({ code: "validation_failed", status: 400 });
		const chosen = await choose([bots[1]._id, bots[2]._id, bots[3]._id]);
		expect(chosen.status).toBe(200);
		expect((chosen.body as { chatbots: Array<{ name: string; paused: boolean }> }).chatbots.filter(c => c.paused).map(c => c.name)).toEqual(["Shop bot 1"]);
		expect((await ask(app.baseUrl, bots[3].slug, "When does the shop open?")).status).toBe(200);
		expect((await ask(app.baseUrl, bots[0].slug, "When does the shop open?")).body).toMatchObject({ code: "chatbot_paused" });
	}, 60_000);
});

describe("checkout and the portal through the JSON forms", () => {
	const post = (path: string, cookie: string, body: unknown = {}) =>
		rawRequest(`${app.baseUrl}${path}`, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });

	it("opens a Checkout Session for the account, then the portal once Stripe knows the customer; an outage is a 503", async () => {
		const { id, cookie } = await newAccount();
		expect((await post("/account/billing/portal", cookie)).body).toMatchObject({ code: "conflict", status: 409 });

		const opened = await post("/account/billing/checkout", cookie, { plan: "pro" });
		expect(opened.status).toBe(200);
		const { url } = opened.body as { url: string };
		expect(url).toMatch(new RegExp(`^${standIn.url}/checkout/cs_test_`));
		const sent = standIn.requests.filter(r => r.path === "/v1/checkout/sessions").at(-1);
		expect(sent?.form.get("mode")).toBe("subscription");
		expect(sent?.form.get("client_reference_id")).toBe(id);
		expect(sent?.form.get("line_items[0][price]")).toBe(TEST_PRICES.pro);
		expect(sent?.form.get("subscription_data[metadata][account_id]")).toBe(id);
		expect(sent?.form.get("customer_email")).toBe(`payer-${people}@example.com`);

		expect((await post("/account/billing/checkout", cookie, { plan: "gold" })).body).toMatchObject({ code: "validation_failed" });
		standIn.failNext(10);
		const outage = await post("/account/billing/checkout", cookie, { plan: "business" });
		expect(outage.body).toMatchObject({ code: "unavailable", status: 503 });
		standIn.failNext(0);

		const at = nowSeconds();
		await delivered(stripeEvent("checkout.session.completed", { id: "cs_p", object: "checkout.session", mode: "subscription", client_reference_id: id, customer: "cus_portal", subscription: "sub_portal" }, at));
		await delivered(stripeEvent("customer.subscription.created", subscription({ id: "sub_portal", customer: "cus_portal", status: "active", plan: "pro", start: at, accountId: id }), at));
		// A standing subscription changes plans in the portal, not through a second checkout.
		expect((await post("/account/billing/checkout", cookie, { plan: "business" })).body).toMatchObject({ code: "conflict" });
		const portal = await post("/account/billing/portal", cookie);
		expect(portal.status).toBe(200);
		expect((portal.body as { url: string }).url).toMatch(new RegExp(`^${standIn.url}/portal/bps_test_`));
		expect(standIn.requests.filter(r => r.path === "/v1/billing_portal/sessions").at(-1)?.form.get("customer")).toBe("cus_portal");
	});
});

describe("without Stripe configuration", () => {
	it("answers 404 JSON on the webhook, and the Billing page says billing is off", async () => {
		const plain = await startApp({ env: { SERVICES: "gateway,accounts,chatbots,billing" } });
		try {
			const reply = await rawRequest(`${plain.baseUrl}/webhooks/stripe`, { method: "POST", headers: { "Content-Type": "application/json", "Stripe-Signature": "t=1,v1=x" }, body: "{}" });
			expect(reply.status).toBe(404);
			expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
			expect(reply.body).toMatchObject({ ok: false, code: "not_found" });
			const { cookie } = await signUp(plain.baseUrl, "nobilling@example.com");
			const page = await rawRequest(`${plain.baseUrl}/account/billing`, { headers: { Cookie: cookie } });
			expect(page.status).toBe(200);
			expect(page.text).toContain("Billing is off on this service");
			expect(page.text).not.toContain("Upgrade to");
		} finally {
			await plain.stop();
		}
	});
});
