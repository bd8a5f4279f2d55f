/**
 * The Billing page as a person uses it, in a real headless Chromium against the real app, at a
 * phone's and a desktop's width: from the account page to Billing, the plans side by side (stacked
 * on a phone), "Upgrade to Pro" clicked through to Stripe's Checkout page; once Stripe's webhook
 * says the subscription is active, Pro is the current plan and "Manage billing" opens the portal;
 * a failed payment shows its notice; and after a downgrade the owner picks, with checkboxes, which
 * chatbots keep answering.
 *
 * Stripe cannot run here: its API and its hosted pages are a loopback stand-in
 * (test/helpers/stripe-stand-in.ts), and webhook deliveries are signed with the `stripe` package's
 * own test helper. Screenshots go to $TMPDIR/cbb-billing-screens.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page, Viewport } from "puppeteer-core";
import { chatbotLimitsFromPlan } from "../../lib/accounts/chatbot-limits";
import { PLANS } from "../../lib/accounts/plans";
import type { AccountView } from "../../lib/accounts/views";
import type { Chatbot } from "../../lib/chatbots/model";
import { startApp, TestApp } from "../helpers/app";
import { Chromium, clickAndWait, DESKTOP, launchChromium, openChatPage, openPage as openTab, OpenedPage as Tab, PHONE, screenshot as screenshotFits } from "../helpers/chromium";
import { signUp } from "../helpers/mcp-http";
import { billingEnv, deliverEvent, StripeStandIn, startStripeStandIn, stripeEvent, stripeInvoice, stripeSubscription, TEST_PRICES } from "../helpers/stripe-stand-in";

const SCREENS = path.join(os.tmpdir(), "cbb-billing-screens");
const DAY = 86_400;

let app: TestApp;
let standIn: StripeStandIn;
let chromium: Chromium;

beforeAll(async () => {
	fs.mkdirSync(SCREENS, { recursive: true });
	standIn = await startStripeStandIn();
	app = await startApp({ env: { SERVICES: "gateway,accounts,chatbots,billing,chat", ...billingEnv(standIn) } });
	chromium = await launchChromium();
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await app?.stop();
	await standIn?.stop();
});

/** A tab logged in with the session cookie. */
async function openPage(viewport: Viewport, cookie: string): Promise<Tab> {
	const tab = await openTab(chromium, viewport);
	const [name, value] = cookie.split("=");
	await tab.page.setCookie({ name, value, url: app.baseUrl });
	return tab;
}

const text = (tab: Page) => tab.$eval("main", main => (main as HTMLElement).innerText);
const screenshot = (tab: Page, name: string, viewport: Viewport) => screenshotFits(tab, SCREENS, name, viewport);

/** The top edge of each plan card: equal when side by side, increasing when stacked. */
const cardTops = (tab: Page) => tab.$$eval(".plans .card", cards => cards.map(card => Math.round(card.getBoundingClientRect().top)));

describe.each([
	["phone", PHONE],
	["desktop", DESKTOP]
])("on a %s", (name, viewport) => {
	it("goes from the account page to Billing, upgrades through Checkout, then manages billing in the portal", async () => {
		const { cookie, account } = await signUp(app.baseUrl, `billing-${name}@example.com`);
		const accountId = (account as { id: string }).id;
		const limits = chatbotLimitsFromPlan(PLANS.free.limits);
		await app.broker.call("chatbots.create", { kind: "account", locale: "en", name: "Harbor Bikes", limits, account_id: accountId, max_chatbots: 3 });
		const { page: tab, responses, close } = await openPage(viewport, cookie);

		await tab.goto(`${app.baseUrl}/account`);
		await clickAndWait(tab, "::-p-text(Billing and plans)");
		expect(tab.url()).toBe(`${app.baseUrl}/account/billing`);
		const page = await text(tab);
		expect(page).toContain("Free plan. Messages are counted per calendar month (UTC)");
		for (const words of ["Free", "Pro", "€19 / month", "Business", "€99 / month", "Messages this period", "Training characters", "Harbor Bikes"]) expect(page).toContain(words);
		expect(page).toMatch(/Chatbots\s+1 of 3/);
		expect(await tab.$$eval(".plans .card.current h3", h => h.map(e => e.textContent))).toEqual(["Free"]);
		const tops = await cardTops(tab);
		expect(tops).toHaveLength(3);
		if (name === "desktop") expect(new Set(tops).size).toBe(1);
		else expect(tops[0] < tops[1] && tops[1] < tops[2]).toBe(true);
		expect(await tab.$("::-p-text(Manage billing)")).toBeNull();
		await screenshot(tab, "billing-free", viewport);

		// Upgrade: the form posts, and the browser follows the 303 to Stripe's (stand-in) Checkout page.
		const checkout = await clickAndWait(tab, "::-p-text(Upgrade to Pro)");
		const post = responses.find(r => r.request().method() === "POST" && new URL(r.url()).pathname === "/account/billing/checkout");
		expect(post?.status()).toBe(303);
		expect(tab.url()).toMatch(new RegExp(`^${standIn.url}/checkout/cs_test_`));
		expect(checkout?.status()).toBe(200);
		expect(await text(tab)).toContain("Checkout (Stripe stand-in)");
		const sent = standIn.requests.filter(r => r.path === "/v1/checkout/sessions").at(-1);
		expect(sent?.form.get("client_reference_id")).toBe(accountId);
		expect(sent?.form.get("line_items[0][price]")).toBe(TEST_PRICES.pro);
		expect(sent?.form.get("success_url")).toBe(`${app.baseUrl}/account/billing?checkout=done`);
		await screenshot(tab, "stand-in-checkout", viewport);

		// Stripe reports the payment; Checkout sends the person back.
		const at = Math.floor(Date.now() / 1000);
		const customer = `cus_browser_${name}`;
		const session = { id: `cs_${name}`, object: "checkout.session", mode: "subscription", client_reference_id: accountId, customer, subscription: `sub_${name}` };
		expect((await deliverEvent(app.baseUrl, stripeEvent("checkout.session.completed", session, at))).status).toBe(200);
		const subscription = stripeSubscription({ id: `sub_${name}`, customer, status: "active", price: TEST_PRICES.pro, start: at, end: at + 30 * DAY, accountId });
		expect((await deliverEvent(app.baseUrl, stripeEvent("customer.subscription.created", subscription, at))).status).toBe(200);
		await tab.goto(`${app.baseUrl}/account/billing?checkout=done`);
		expect(await text(tab)).toContain("Thank you.");
		expect(await tab.$$eval(".plans .card.current h3", h => h.map(e => e.textContent))).toEqual(["Pro"]);
		expect(await text(tab)).toContain("Pro plan. This billing period:");
		expect(await tab.$("::-p-text(Upgrade to Business)")).toBeNull();
		await screenshot(tab, "billing-pro", viewport);

		await clickAndWait(tab, "::-p-text(Manage billing)");
		expect(tab.url()).toMatch(new RegExp(`^${standIn.url}/portal/bps_test_`));
		expect(standIn.requests.filter(r => r.path === "/v1/billing_portal/sessions").at(-1)?.form.get("customer")).toBe(customer);

		// A payment fails: the notice says until when the plan holds.
		const invoice = stripeInvoice({ id: `in_${name}`, customer, subscription: `sub_${name}`, start: at, end: at + 30 * DAY });
		expect((await deliverEvent(app.baseUrl, stripeEvent("invoice.payment_failed", invoice, at + 1))).status).toBe(200);
		await tab.goto(`${app.baseUrl}/account/billing`);
		expect(await tab.$eval("[role=alert]", el => (el as HTMLElement).innerText)).toContain("Your last payment failed. Your Pro plan stays until");
		await screenshot(tab, "billing-past-due", viewport);
		await close();
	});

	it("after a downgrade, the owner picks which chatbots keep answering", async () => {
		const { cookie, account } = await signUp(app.baseUrl, `downgrade-${name}@example.com`);
		const accountId = (account as { id: string }).id;
		const at = Math.floor(Date.now() / 1000);
		const customer = `cus_down_${name}`;
		const sub = (status: string) => stripeSubscription({ id: `sub_down_${name}`, customer, status, price: TEST_PRICES.business, start: at, end: at + 30 * DAY, accountId });
		await deliverEvent(app.baseUrl, stripeEvent("customer.subscription.created", sub("active"), at));
		const bots: Chatbot[] = [];
		for (const botName of ["Front desk", "Bike rentals", "Repairs", "Tours"]) {
			bots.push(
				await app.broker.call<Chatbot, object>("chatbots.create", {
					kind: "account",
					locale: "en",
					name: botName,
					limits: chatbotLimitsFromPlan(PLANS.business.limits),
					account_id: accountId,
					max_chatbots: PLANS.business.limits.chatbots
				})
			);
			await new Promise(resolve => setTimeout(resolve, 5)); // distinct creation times: "newest" is well defined
		}
		await deliverEvent(app.baseUrl, stripeEvent("customer.subscription.deleted", sub("canceled"), at + 1));
		expect((await app.broker.call<AccountView, object>("accounts.getAccount", { account_id: accountId })).plan).toBe("free");

		const { page: tab, responses, close } = await openPage(viewport, cookie);
		await tab.goto(`${app.baseUrl}/account/billing`);
		expect(await text(tab)).toContain("Your plan lets 3 chatbots answer and the account holds 4.");
		const checked = () => tab.$$eval(".choice input[type=checkbox]", boxes => boxes.filter(b => (b as HTMLInputElement).checked).map(b => (b.parentElement as HTMLElement).innerText.trim()));
		expect(await checked()).toEqual(["Repairs", "Bike rentals", "Front desk"]);
		await screenshot(tab, "billing-choose", viewport);

		// Keep Tours answering instead of Bike rentals.
		await tab.click(`.choice input[value="${bots[1]._id}"]`);
		await tab.click(`.choice input[value="${bots[3]._id}"]`);
		await clickAndWait(tab, "::-p-text(Keep these answering)");
		const post = responses.find(r => r.request().method() === "POST" && new URL(r.url()).pathname === "/account/billing/chatbots");
		expect(post?.status()).toBe(303);
		expect(tab.url()).toBe(`${app.baseUrl}/account/billing`);
		expect(await checked()).toEqual(["Tours", "Repairs", "Front desk"]);
		const stored = await app.broker.call<Chatbot[], object>("chatbots.listByAccount", { account_id: accountId });
		expect(stored.filter(b => b.paused).map(b => b.name)).toEqual(["Bike rentals"]);

		// A visitor of the paused chatbot's chat link is told, in the widget, that it is paused.
		const visitor = await openTab(chromium, viewport);
		await openChatPage(visitor.page, `${app.baseUrl}/c/${bots[1].slug}`);
		await visitor.page.type("pierce/.input", "Can I rent a bike tomorrow?");
		await visitor.page.keyboard.press("Enter");
		const said = await visitor.page.waitForFunction(
			() => {
				const host = Array.from(document.querySelectorAll("*")).find(el => el.shadowRoot)?.shadowRoot;
				const last = host ? Array.from(host.querySelectorAll(".msg.bot")).pop() : undefined;
				return last && !last.classList.contains("pending") ? (last.textContent ?? "") : false;
			},
			{ timeout: 10_000 }
		);
		expect(await said.jsonValue()).toContain("This chatbot is paused and cannot answer right now.");
		await screenshot(visitor.page, "widget-paused", viewport);
		await visitor.close();

		// Choosing all four is refused with the reason, on the same page.
		await tab.click(`.choice input[value="${bots[1]._id}"]`);
		await clickAndWait(tab, "::-p-text(Keep these answering)");
		expect(responses.filter(r => r.request().method() === "POST").at(-1)?.status()).toBe(400);
		expect(await text(tab)).toContain("4 chatbots were chosen; the plan allows 3.");
		await screenshot(tab, "billing-choose-refused", viewport);
		await close();
	});
});
