/**
 * addDemoSessionUrl end to end: HTTP → demo-session → crawler (real Chromium, real loopback site)
 * → chatbots' cap gate. One app lets the crawler reach loopback (CRAWL_ALLOW_PRIVATE=true, as an
 * intranet deployment would); a second app keeps the SSRF guard on and must refuse every private
 * target without writing anything.
 *
 * In the second app 127.0.0.2 plays "the public internet": its crawler gets an injected address
 * rule that allows exactly that address (and a DNS answer for `public.test`), so a redirect from a
 * "public" page to a private one can be shown; every other address keeps the real rule, and
 * `localhost` is resolved by the system resolver. It renders statically, so the file runs one
 * Chromium (the first app's).
 */
import * as dns from "node:dns";
import createCrawlerService from "../../services/crawler.service";
import type { Chatbot, Source } from "../../lib/chatbots/model";
import type { LookupFn } from "../../lib/crawl/ssrf";
import { startApp, TestApp } from "../helpers/app";
import { demoClient, DemoClient } from "../helpers/demo-client";
import { html, LoopbackSite, redirect, startSite, typed } from "../helpers/loopback-site";

const FACT = "The Zephyr-9 kettle warranty lasts 37 months.";
const BOILERPLATE = ["Careers at Zephyr", "Press room", "Free shipping", "Cookie settings", "Loading facts"];

const chrome = `<nav><a href="/">Home</a> <a href="/careers">Careers at Zephyr</a> <a href="/press">Press room</a></nav>
	<header><p>Free shipping on all orders this week</p></header>`;
const footer = `<footer><p>Copyright Zephyr Appliances. Cookie settings. Imprint.</p></footer>`;

/** The key fact arrives by fetch() after load, as on a single-page app. */
const jsPage = `<!doctype html><html><head><title>Zephyr-9 kettle</title></head><body>${chrome}
	<main><article><h1>Zephyr-9 kettle</h1>
		<p>The Zephyr-9 is our quietest kettle, built in Tromsø and tested for a decade of daily use.</p>
		<section><h2>Warranty and care</h2><div id="facts"><p>Loading facts…</p></div></section>
	</article></main>${footer}
	<script>
		fetch("/api/facts").then(r => r.json()).then(data => {
			document.getElementById("facts").innerHTML = data.facts.map(f => "<p>" + f + "</p>").join("");
		});
	</script></body></html>`;

function articlePage(title: string, paragraphs: string[]): string {
	return `<!doctype html><html><head><title>${title}</title></head><body>${chrome}<main><article><h1>${title}</h1>
		${paragraphs.map(p => `<p>${p}</p>`).join("\n")}</article></main>${footer}</body></html>`;
}

/** About 8,000 characters of readable text. */
const longParagraphs = Array.from({ length: 80 }, (_, i) => `Paragraph ${i + 1} of the Zephyr service history explains one more repair in careful detail.`);

let site: LoopbackSite;
let app: TestApp;
let client: DemoClient;

beforeAll(async () => {
	site = await startSite({
		"/": html(jsPage),
		"/api/facts": typed("application/json", JSON.stringify({ facts: [FACT, "Descale it every 11 weeks with citric acid."] })),
		"/blank": html("<!doctype html><html><head><title>Blank</title></head><body><script>1</script></body></html>"),
		"/a": html(articlePage("Opening hours", ["The Tromsø help desk opens at 08:15 on weekdays and closes at 16:45."])),
		"/b": html(articlePage("Spare parts", ["Replacement lids for the Zephyr-9 cost 14 euros including shipping."])),
		"/c": html(articlePage("Aurora", ["The limited-edition Aurora kettle was made in a batch of exactly 4,812 units."])),
		"/d": html(articlePage("Press", ["This page must never be fetched: the URL cap refuses before any fetch."])),
		"/long": html(articlePage("Service history", longParagraphs))
	});
	app = await startApp({ env: { TRUST_PROXY: "1", CRAWL_ALLOW_PRIVATE: "true", SERVICES: "gateway,chatbots,demo-session,storage,crawler" } });
	client = demoClient(app.baseUrl, "198.51.100");
});

afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

/** The stored sources of a session's chatbot, with their text (what training will read). */
async function storedTexts(on: TestApp, slug: string): Promise<Source[]> {
	const chatbot = (await on.broker.call("chatbots.findBySlug", { slug })) as Chatbot;
	return ((await on.broker.call("chatbots.trainingInput", { id: chatbot._id })) as { sources: Source[] }).sources;
}

describe("a page rendered in Chromium", () => {
	it("is attached with its character count; the JavaScript fact is in the stored text, the chrome is not", async () => {
		const demo = await client.newSession();
		const r = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/` } });
		expect(r.status).toBe(200);
		const [url] = r.body.demo.sources.urls;
		expect(url).toMatchObject({ url: `${site.origin}/`, status: "ready", domain: "127.0.0.1", title: "Zephyr-9 kettle", failure: null });
		expect(url.char_count).toBeGreaterThan(100);
		expect(r.body.demo.chars_used).toBe(url.char_count);
		expect(r.body.demo.needs_retrain).toBe(true);

		const [stored] = await storedTexts(app, demo.slug);
		expect(stored.text).toContain(FACT);
		expect(stored.text).toContain("quietest kettle");
		for (const chrome of BOILERPLATE) expect(stored.text).not.toContain(chrome);
		// The JavaScript's own request proves the page was rendered, not just fetched.
		expect(site.hits).toContain("/api/facts");
		expect(site.userAgents.every(ua => ua.startsWith("ChatbotBuilderBot/1.0"))).toBe(true);
	});

	it("a page with no readable text is 422 empty, with the reason, and writes nothing", async () => {
		const demo = await client.newSession();
		const blank = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/blank` } });
		expect(blank.status).toBe(422);
		expect(blank.body).toMatchObject({ ok: false, code: "empty", status: 422 });
		expect(blank.body.message).toMatch(/no readable text/);
		expect(blank.body.errors.detail).toMatch(/no readable text/);

		const missing = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/nowhere` } });
		expect([missing.status, missing.body.code]).toEqual([422, "empty"]);
		expect(missing.body.errors.detail).toBe("The page answered with HTTP status 404.");

		const after = await client.get(demo.session_id);
		expect(after.sources.urls).toEqual([]);
		expect(after.chars_used).toBe(0);
	});

	it("the fourth URL is 422 url_cap, refused before the page is fetched", async () => {
		const demo = await client.newSession();
		for (const path of ["/a", "/b", "/c"]) {
			const r = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}${path}` } });
			expect(r.status).toBe(200);
		}
		const fourth = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/d` } });
		expect([fourth.status, fourth.body.code]).toEqual([422, "url_cap"]);
		expect(site.hits).not.toContain("/d");
		const after = await client.get(demo.session_id);
		expect(after.sources.urls.map(u => new URL(u.url).pathname)).toEqual(["/a", "/b", "/c"]);
		expect(after.chars_used).toBe(after.sources.urls.reduce((sum, u) => sum + (u.char_count ?? 0), 0));
	});

	it("a page over the remaining character budget is 422 char_cap and writes nothing", async () => {
		const demo = await client.newSession();
		const text = await client.api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text: "k".repeat(45_000) } });
		expect(text.status).toBe(200);
		const r = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/long` } });
		expect([r.status, r.body.code]).toEqual([422, "char_cap"]);
		const after = await client.get(demo.session_id);
		expect(after.sources.urls).toEqual([]);
		expect(after.chars_used).toBe(45_000);
	});

	it("a URL that is not http(s) is 400", async () => {
		const demo = await client.newSession();
		const r = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: "ftp://example.com/file" } });
		expect([r.status, r.body.code]).toEqual([400, "validation_failed"]);
	});
});

describe("with CRAWL_ALLOW_PRIVATE off", () => {
	let guarded: TestApp;
	let guardedClient: DemoClient;
	let publicSite: LoopbackSite;
	let internal: LoopbackSite;

	const lookup: LookupFn = async hostname => {
		if (hostname === "public.test") return [{ address: "127.0.0.2", family: 4 }];
		const answers = await dns.promises.lookup(hostname, { all: true });
		return answers.map(a => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
	};

	beforeAll(async () => {
		internal = await startSite({ "/secret": typed("text/plain", "INTERNAL-SECRET-4417") });
		publicSite = await startSite(
			{
				"/": html(articlePage("Public page", ["A public page on the internet, about the Zephyr-9 kettle."])),
				"/to-internal": redirect(() => `http://127.0.0.1:${internal.port}/secret`),
				"/to-metadata": redirect("http://169.254.169.254/latest/meta-data/")
			},
			"127.0.0.2"
		);
		guarded = await startApp({ env: { TRUST_PROXY: "1", CRAWL_USE_BROWSER: "false", SERVICES: "gateway,chatbots,demo-session,storage" } });
		expect(guarded.config.crawl.allowPrivate).toBe(false);
		guarded.broker.createService(createCrawlerService(guarded.config, { guard: { lookup, isAllowedAddress: ip => ip === "127.0.0.2" } }));
		await guarded.broker.waitForServices(["crawler"]);
		guardedClient = demoClient(guarded.baseUrl, "192.0.2");
	});

	afterAll(async () => {
		await guarded?.stop();
		await Promise.all([publicSite?.stop(), internal?.stop()]);
	});

	it("a public page is still fetched (the refusals below are not blanket)", async () => {
		const demo = await guardedClient.newSession();
		const r = await guardedClient.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `http://public.test:${publicSite.port}/` } });
		expect(r.status).toBe(200);
		expect(r.body.demo.sources.urls[0]).toMatchObject({ status: "ready", domain: "public.test" });
	});

	it.each([
		["loopback", () => `http://127.0.0.1:${internal.port}/secret`],
		["10/8", () => "http://10.0.0.1/"],
		["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"],
		["IPv6 loopback", () => `http://[::1]:${internal.port}/secret`],
		["a redirect to a private address", () => `http://public.test:${publicSite.port}/to-internal`],
		["a redirect to the metadata address", () => `http://public.test:${publicSite.port}/to-metadata`],
		["a host name that resolves to 127.0.0.1", () => `http://localhost:${internal.port}/secret`]
	])("refuses %s with 422 empty and writes nothing", async (_name, target) => {
		const demo = await guardedClient.newSession();
		const r = await guardedClient.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: target() } });
		expect(r.status).toBe(422);
		expect(r.body).toMatchObject({ ok: false, code: "empty", status: 422 });
		expect(r.body.message).toContain("non-public address");
		expect(r.body.errors.detail).toMatch(/not public/);
		// The message never names the internal address a name resolved to.
		expect(JSON.stringify(r.body)).not.toContain("INTERNAL-SECRET");
		const after = await guardedClient.get(demo.session_id);
		expect(after.sources.urls).toEqual([]);
		expect(after.chars_used).toBe(0);
		expect(internal.hits).toEqual([]);
	});

	it("the redirecting public pages were fetched: the refusal came at the redirect", () => {
		expect(publicSite.hits).toEqual(expect.arrayContaining(["/to-internal", "/to-metadata"]));
		expect(internal.hits).toEqual([]);
	});
});
