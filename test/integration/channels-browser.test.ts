/**
 * The channels page as a person uses it, in a real headless Chromium against the real app, at a
 * phone's and a desktop's width: log in, open a chatbot's dashboard from the account page and its Channels tab, paste a
 * wrong and then a right Telegram bot token, see the bot's @name, see a failed delivery on the
 * channel status, connect Crisp and copy the hook URL it shows, and disconnect both.
 *
 * Telegram and Crisp cannot be reached from here: their APIs are the loopback stand-ins of
 * test/helpers (which also deliver messages to the webhooks as the providers do). Screenshots go
 * to $TMPDIR/cbb-channels-screens.
 */
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page, Viewport } from "puppeteer-core";
import createChannelsService from "../../services/channels.service";
import { startApp, TestApp } from "../helpers/app";
import { newOwner, trainedChatbot } from "../helpers/channel-app";
import { Chromium, clickAndWait, DESKTOP, launchChromium, mainText, openPage as openChromiumPage, PHONE, postStatus, screenshot as takeScreenshot } from "../helpers/chromium";
import { newFingerprint, startCrispStandIn, CrispStandIn } from "../helpers/crisp-stand-in";
import { rawRequest } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";
import { startTelegramStandIn, TelegramStandIn, textUpdate } from "../helpers/telegram-stand-in";

const SCREENS = path.join(os.tmpdir(), "cbb-channels-screens");
const PASSWORD = "correct horse battery staple"; // signUp's default
const WEBSITE_ID = randomUUID();

let app: TestApp;
let telegram: TelegramStandIn;
let crisp: CrispStandIn;
let chromium: Chromium;

beforeAll(async () => {
	fs.mkdirSync(SCREENS, { recursive: true });
	telegram = await startTelegramStandIn();
	crisp = await startCrispStandIn(WEBSITE_ID);
	app = await startApp({
		env: { TRUST_PROXY: "1", SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,channels", TELEGRAM_API_URL: telegram.base, CRISP_API_URL: crisp.base },
		factories: { channels: config => createChannelsService(config, { retry: { attempts: 2, baseDelayMs: 50, maxDelayMs: 100, maxRetryAfterMs: 2_000, timeoutMs: 1_000 } }) }
	});
	chromium = await launchChromium();
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await app?.stop();
	await telegram?.stop();
	await crisp?.stop();
});

const openPage = (viewport: Viewport) => openChromiumPage(chromium, viewport);
const text = mainText;
const screenshot = (tab: Page, name: string, viewport: Viewport) => takeScreenshot(tab, SCREENS, name, viewport);

describe.each([
	["phone", PHONE],
	["desktop", DESKTOP]
])("on a %s", (name, viewport) => {
	it("connects Telegram and Crisp from the channels page, shows their state, and disconnects them", async () => {
		const owner = await newOwner(app.baseUrl);
		const chatbot = await trainedChatbot(app.broker, owner.accountId, { name: `Harbor helper (${name})` });
		const bot = telegram.addBot(`harbor_${name}_bot`);
		const plugin = crisp.addPlugin();
		const channelsPath = `/account/chatbots/${chatbot._id}/channels`;
		const { page: tab, responses, close } = await openPage(viewport);

		// Log in as a person does, then go from the account page to the chatbot's channels.
		await tab.goto(`${app.baseUrl}/account`);
		await tab.type("input[name=email]", owner.email);
		await tab.type("input[name=password]", PASSWORD);
		await clickAndWait(tab, "button[type=submit]");
		expect(tab.url()).toBe(`${app.baseUrl}/account`);
		await clickAndWait(tab, `a[href$='/account/chatbots/${chatbot._id}']`);
		await clickAndWait(tab, "nav.tabs a[data-tab=channels]");
		expect(new URL(tab.url()).pathname).toBe(channelsPath);
		expect(await text(tab)).toContain(`Let Harbor helper (${name}) answer on Telegram and in Crisp`);
		await screenshot(tab, "channels-empty", viewport);

		// A wrong token: the form again, with the reason.
		await tab.type("#telegram input[name=token]", "not a token");
		await clickAndWait(tab, "[data-action=connect-telegram]");
		expect(postStatus(responses, `${channelsPath}/telegram`)).toBe(400);
		expect(await text(tab)).toContain("A bot token looks like 123456789:AAE…");
		await screenshot(tab, "telegram-wrong-token", viewport);

		// The bot's token: connected, with its @name; the bot answers.
		await tab.type("#telegram input[name=token]", bot.token);
		await clickAndWait(tab, "[data-action=connect-telegram]");
		expect(postStatus(responses, `${channelsPath}/telegram`)).toBe(303);
		expect(new URL(tab.url()).pathname).toBe(channelsPath);
		expect(await text(tab)).toContain(`Connected to @harbor_${name}_bot`);
		expect(await tab.content()).not.toContain(bot.token);
		expect(bot.webhook?.url).toMatch(/\/webhooks\/telegram\/[0-9a-f-]{36}$/);
		expect((await telegram.deliver(bot.token, textUpdate(1, "How long is the warranty of the Zephyr-9 kettle?"))).status).toBe(200);
		await eventually(async () => (telegram.sent.some(m => m.token === bot.token && m.text.includes("37 months")) ? true : undefined), 30_000, "the bot's answer");

		// A reply Telegram keeps refusing shows on the channel status.
		telegram.failNext(bot.token, "sendMessage", [{ status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } }, { status: 500, body: { ok: false, error_code: 500, description: "Internal Server Error" } }]);
		expect((await telegram.deliver(bot.token, textUpdate(2, "When does the shop open?"))).status).toBe(200);
		await eventually(async () => {
			await tab.goto(`${app.baseUrl}${channelsPath}`);
			return (await text(tab)).includes("A reply could not be delivered") ? true : undefined;
		}, 30_000, "the failure on the page");
		expect(await text(tab)).toContain("Telegram answered 500: Internal Server Error (2 tries)");
		await screenshot(tab, "telegram-connected-failure", viewport);

		// Crisp: the website and plugin token; the page then shows the hook URL to paste into Crisp.
		await tab.type("#crisp input[name=website_id]", WEBSITE_ID);
		await tab.type("#crisp input[name=plugin_identifier]", plugin.identifier);
		await tab.type("#crisp input[name=plugin_key]", plugin.key);
		await clickAndWait(tab, "[data-action=connect-crisp]");
		expect(postStatus(responses, `${channelsPath}/crisp`)).toBe(303);
		expect(await text(tab)).toContain(`Connected to website ${WEBSITE_ID}`);
		expect(await tab.content()).not.toContain(plugin.key);
		const hookUrl = await tab.$eval("[data-field=hook-url]", el => (el as HTMLInputElement).value);
		expect(hookUrl).toMatch(new RegExp(`^${app.baseUrl}/webhooks/crisp/${chatbot._id}\\?key=`));
		await screenshot(tab, "crisp-connected", viewport);
		const session = `session_${randomUUID()}`;
		const hooked = await crisp.hook({ url: hookUrl }, "message:send", { session_id: session, type: "text", from: "user", origin: "chat", content: "What does a city bike cost?", fingerprint: newFingerprint() });
		expect(hooked.status).toBe(200);
		await eventually(async () => (crisp.messages.some(m => m.session_id === session && String(m.content).includes("12 euros")) ? true : undefined), 30_000, "the answer in Crisp");

		// Disconnect both: the forms come back, and the webhooks answer 404.
		const telegramHook = bot.webhook?.url as string;
		await clickAndWait(tab, "[data-action=disconnect-telegram]");
		expect(postStatus(responses, `${channelsPath}/telegram/disconnect`)).toBe(303);
		await clickAndWait(tab, "[data-action=disconnect-crisp]");
		expect(postStatus(responses, `${channelsPath}/crisp/disconnect`)).toBe(303);
		expect(await tab.$("[data-action=connect-telegram]")).not.toBeNull();
		expect(await tab.$("[data-action=connect-crisp]")).not.toBeNull();
		await screenshot(tab, "channels-disconnected", viewport);
		expect((await rawRequest(telegramHook, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(404);
		expect((await rawRequest(hookUrl, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(404);
		await close();
	});
});

it("shows another account's chatbot as not found", async () => {
	const owner = await newOwner(app.baseUrl);
	const chatbot = await app.broker.call<{ _id: string }, object>("chatbots.create", { kind: "account", locale: "en", limits: { max_urls: 1, max_files: 1, max_chars: 1000, max_messages: 1, max_pages: 1 }, account_id: owner.accountId });
	const stranger = await newOwner(app.baseUrl);
	const { page: tab, close } = await openPage(DESKTOP);
	await tab.setCookie({ name: stranger.cookie.split("=")[0], value: stranger.cookie.split("=")[1], url: app.baseUrl });
	const res = await tab.goto(`${app.baseUrl}/account/chatbots/${chatbot._id}/channels`);
	expect(res?.status()).toBe(404);
	expect(await text(tab)).toContain("No chatbot of your account has this address.");
	await close();
});
