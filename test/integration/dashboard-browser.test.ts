/**
 * The owner's dashboard as a person uses it, in a real headless Chromium against the real app, at
 * a phone's and a desktop's width: log in, make a chatbot from a website (a loopback site with a
 * sitemap) and watch it read and train; add a Q&A pair and a text, see "needs retraining", retrain
 * and watch it; ask it in Try it; fetch a page again; remove a source through its confirmation;
 * make a second chatbot from files (uploaded with progress), train and ask it; find both in the
 * list with status, sources and messages; delete one after confirming. Tabs are reached by keyboard.
 *
 * Screenshots go to $TMPDIR/cbb-dashboard-screens.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page, Viewport } from "puppeteer-core";
import type { Chatbot } from "../../lib/chatbots/model";
import { startApp, TestApp } from "../helpers/app";
import { newOwner } from "../helpers/channel-app";
import { Chromium, clickAndWait, DESKTOP, launchChromium, mainText, openPage as openChromiumPage, PHONE, postStatus, screenshot as takeScreenshot } from "../helpers/chromium";
import { html, LoopbackSite, startSite, typed } from "../helpers/loopback-site";
import { eventually } from "../helpers/processes";

const SCREENS = path.join(os.tmpdir(), "cbb-dashboard-screens");
const FIXTURES = path.join(__dirname, "..", "fixtures");
const PASSWORD = "correct horse battery staple";

let app: TestApp;
let site: LoopbackSite;
let chromium: Chromium;

const page = (title: string, body: string, links: string[] = []) =>
	html(`<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}${links.map(l => `<p><a href="${l}">${l}</a></p>`).join("")}</main></body></html>`);

beforeAll(async () => {
	fs.mkdirSync(SCREENS, { recursive: true });
	site = await startSite({
		"/": page("Harbor Bikes", "<p>Harbor Bikes rents city bikes on the waterfront of the old harbour, every day of the week.</p>", ["/prices", "/hours", "/gone"]),
		"/prices": page("Prices", "<p>A city bike costs 12 euros for the first hour and 6 euros for each hour after that. Children's bikes cost half.</p>"),
		"/hours": page("Opening hours", "<p>The shop opens at nine in the morning and closes at six in the evening, Monday to Saturday.</p>"),
		"/repairs": page("Repairs", "<p>Flat tyres are repaired while you wait for 8 euros; brake checks are free for customers.</p>"),
		"/sitemap.xml": (req, res, s) => typed("application/xml", `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.origin}/repairs</loc></url></urlset>`)(req, res, s)
	});
	app = await startApp({
		env: { SERVICES: "gateway,chatbots,accounts,trainer,vectors,chat,storage,extractor,crawler", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" }
	});
	chromium = await launchChromium();
}, 90_000);

afterAll(async () => {
	await chromium?.close();
	await app?.stop();
	await site?.stop();
});

const text = mainText;
const screenshot = (tab: Page, name: string, viewport: Viewport) => takeScreenshot(tab, SCREENS, name, viewport);
const pathOf = (tab: Page) => new URL(tab.url()).pathname;
const statusOf = (tab: Page) => tab.$eval("[data-field=status]", el => (el as HTMLElement).innerText);

/** Waits until the page (reloaded by its own live script) shows the chatbot ready. */
async function waitReady(tab: Page, what: string): Promise<void> {
	await eventually(async () => ((await statusOf(tab).catch(() => "")) === "Ready" ? true : undefined), 90_000, what);
}

async function ask(tab: Page, question: string): Promise<string> {
	const before = (await tab.$$(".msg.bot")).length;
	await tab.type(".chatbox input[name=message]", question);
	await tab.keyboard.press("Enter");
	return eventually(
		async () => {
			const answers = await tab.$$eval(".msg.bot:not([data-pending])", els => els.map(e => (e as HTMLElement).innerText));
			return answers.length > before ? answers[answers.length - 1] : undefined;
		},
		30_000,
		"the answer"
	);
}

async function chatbotId(tab: Page): Promise<string> {
	const match = /^\/account\/chatbots\/([^/]+)/.exec(pathOf(tab));
	if (!match) throw new Error(`not on a dashboard: ${tab.url()}`);
	return decodeURIComponent(match[1]);
}

describe.each([
	["phone", PHONE],
	["desktop", DESKTOP]
])("on a %s", (name, viewport) => {
	it("builds a chatbot from a website and from files, retrains it, tries it, and manages its sources", async () => {
		const owner = await newOwner(app.baseUrl);
		const { page: tab, responses, close } = await openChromiumPage(chromium, viewport);

		await tab.goto(`${app.baseUrl}/account`);
		await tab.type("input[name=email]", owner.email);
		await tab.type("input[name=password]", PASSWORD);
		await clickAndWait(tab, "button[type=submit]");
		expect(pathOf(tab)).toBe("/account");

		// New chatbot from a website: it reads the site (the sitemap's page too), then trains.
		await clickAndWait(tab, "[data-action=new-chatbot]");
		expect(pathOf(tab)).toBe("/account/chatbots/new");
		await screenshot(tab, "new-chatbot", viewport);
		await tab.type("input[name=name]", `Harbor helper (${name})`);
		await tab.click("input[name=start][value=website]");
		await tab.type("input[name=website_url]", `${site.origin}/`);
		await clickAndWait(tab, "[data-action=create-chatbot]");
		expect(postStatus(responses, "/account/chatbots")).toBe(303);
		const siteBot = await chatbotId(tab);
		expect(pathOf(tab)).toBe(`/account/chatbots/${siteBot}`);
		expect(await text(tab)).toMatch(/Reading the website|Training|Ready/);
		await screenshot(tab, "overview-progress", viewport);
		await waitReady(tab, "the site chatbot to be ready");
		await screenshot(tab, "overview-ready", viewport);

		// The tabs are links a keyboard reaches: focus Overview, Tab to Sources, Enter.
		await tab.focus("nav.tabs a[data-tab=overview]");
		await tab.keyboard.press("Tab");
		expect(await tab.evaluate(() => document.activeElement?.getAttribute("data-tab"))).toBe("sources");
		await Promise.all([tab.waitForNavigation(), tab.keyboard.press("Enter")]);
		expect(pathOf(tab)).toBe(`/account/chatbots/${siteBot}/sources`);
		const pages = await tab.$$eval("tr[data-kind=url]", rows => rows.map(r => (r as HTMLElement).innerText));
		expect(pages.length).toBe(4);
		expect(pages.join("\n")).toContain(`${site.origin}/repairs`);
		expect(pages.every(row => row.includes("Ready"))).toBe(true);
		// The link to a page that does not exist is listed with the reason, not lost.
		expect(await tab.$eval("details.crawl-failures", el => (el as HTMLElement).innerText)).toContain("1 page of the website could not be added");
		await tab.click("details.crawl-failures summary");
		expect(await tab.$eval("details.crawl-failures", el => (el as HTMLElement).innerText)).toContain(`${site.origin}/gone`);
		expect(await tab.$("[data-state=needs-retrain]")).toBeNull();

		// A Q&A pair and a text: the tab says plainly that it needs retraining.
		await tab.type("#add-qa input[name=question]", "Can I bring my dog?");
		await tab.type("#add-qa textarea[name=answer]", "Dogs ride free in the front basket of a cargo bike.");
		await clickAndWait(tab, "[data-action=add-qa]");
		expect(postStatus(responses, `/account/chatbots/${siteBot}/sources/qa`)).toBe(303);
		await tab.type("#add-text input[name=title]", "Rain policy");
		await tab.type("#add-text textarea[name=text]", "On rainy days every rental comes with a free yellow rain poncho.");
		await clickAndWait(tab, "[data-action=add-text]");
		// An empty-looking page address is refused with the reason, the typed value kept.
		await tab.type("#add-page input[name=url]", `${site.origin}/missing`);
		await clickAndWait(tab, "[data-action=add-page]");
		expect(postStatus(responses, `/account/chatbots/${siteBot}/sources/pages`)).toBe(422);
		expect(await tab.$eval("#add-page .error", el => (el as HTMLElement).innerText)).toMatch(/gave nothing to train on|404/);
		expect(await tab.$eval("#add-page input[name=url]", el => (el as HTMLInputElement).value)).toBe(`${site.origin}/missing`);
		expect(await tab.$eval("[data-state=needs-retrain]", el => (el as HTMLElement).innerText)).toContain("Needs retraining");
		expect(await tab.$$eval("tr[data-kind=qa], tr[data-kind=text]", rows => rows.length)).toBe(2);
		await screenshot(tab, "sources-needs-retrain", viewport);

		// Retrain: the overview follows the run live and ends ready; Try it answers from the new pair.
		await clickAndWait(tab, "[data-action=retrain]");
		expect(postStatus(responses, `/account/chatbots/${siteBot}/training`)).toBe(303);
		await waitReady(tab, "the retrained chatbot");
		await clickAndWait(tab, "nav.tabs a[data-tab=try]");
		expect(await ask(tab, "Can I bring my dog on the bike?")).toContain("front basket");
		expect(await ask(tab, "How much does a city bike cost?")).toContain("12 euros");
		await screenshot(tab, "try-it", viewport);

		// Fetch a page again; remove the Q&A pair after confirming on its own page.
		await clickAndWait(tab, "nav.tabs a[data-tab=sources]");
		await clickAndWait(tab, "tr[data-kind=url] [data-action=refetch]");
		expect(postStatus(responses, /\/sources\/[^/]+\/refetch$/)).toBe(303);
		await clickAndWait(tab, "tr[data-kind=qa] [data-action=remove]");
		expect(await text(tab)).toContain("Remove this source?");
		expect(await text(tab)).toContain("Can I bring my dog?");
		await screenshot(tab, "remove-confirm", viewport);
		await clickAndWait(tab, "[data-action=confirm-remove]");
		expect(postStatus(responses, /\/sources\/[^/]+\/remove$/)).toBe(303);
		expect(pathOf(tab)).toBe(`/account/chatbots/${siteBot}/sources`);
		expect(await tab.$("tr[data-kind=qa]")).toBeNull();
		const { sources } = await app.broker.call<{ sources: Array<{ kind: string }> }, object>("chatbots.get", { id: siteBot });
		expect(sources.filter(s => s.kind === "qa")).toHaveLength(0);

		// A second chatbot from files: upload two, with a progress bar each; they are read, then trained.
		await tab.goto(`${app.baseUrl}/account/chatbots/new`);
		await tab.type("input[name=name]", `Kettle notes (${name})`);
		await tab.click("input[name=start][value=content]");
		await clickAndWait(tab, "[data-action=create-chatbot]");
		const fileBot = await chatbotId(tab);
		expect(pathOf(tab)).toBe(`/account/chatbots/${fileBot}/sources`);
		const input = (await tab.$("#add-file input[type=file]")) as import("puppeteer-core").ElementHandle<HTMLInputElement>;
		await input.uploadFile(path.join(FIXTURES, "notes.txt"), path.join(FIXTURES, "guide.md"));
		await tab.click("[data-action=upload]");
		await eventually(async () => ((await tab.$$("tr[data-kind=file]")).length === 2 ? true : undefined), 30_000, "two file rows after the upload");
		await eventually(
			async () => {
				await tab.reload();
				return (await tab.$$eval("tr[data-kind=file]", rows => rows.every(r => r.getAttribute("data-status") === "ready"))) ? true : undefined;
			},
			60_000,
			"the files to be read"
		);
		await screenshot(tab, "sources-files", viewport);
		await clickAndWait(tab, "[data-action=retrain]");
		await waitReady(tab, "the file chatbot");
		await clickAndWait(tab, "nav.tabs a[data-tab=try]");
		expect(await ask(tab, "How long is the warranty of the Zephyr-9 kettle?")).toContain("37 months");

		// The list: both chatbots with status, sources and messages against the plan.
		await tab.goto(`${app.baseUrl}/account`);
		const rows = await tab.$$eval("tr[data-chatbot]", trs => trs.map(tr => (tr as HTMLElement).innerText));
		expect(rows).toHaveLength(2);
		const siteRow = rows.find(r => r.includes(`Harbor helper (${name})`)) as string;
		expect(siteRow).toMatch(/Retraining|Ready/);
		expect(siteRow).toContain("4 pages, 1 text");
		expect(siteRow).toContain("2 / 100");
		expect(rows.find(r => r.includes(`Kettle notes (${name})`))).toContain("2 files");
		await screenshot(tab, "account-list", viewport);

		// Delete the file chatbot: the box must be ticked first.
		await tab.goto(`${app.baseUrl}/account/chatbots/${fileBot}`);
		await tab.click("input[name=confirm]");
		await clickAndWait(tab, "[data-action=delete-chatbot]");
		expect(postStatus(responses, `/account/chatbots/${fileBot}/delete`)).toBe(303);
		expect(pathOf(tab)).toBe("/account");
		expect(await tab.$$("tr[data-chatbot]")).toHaveLength(1);
		await expect(app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id: fileBot })).rejects.toMatchObject({ type: "expired" });
		await close();
	}, 300_000);
});
