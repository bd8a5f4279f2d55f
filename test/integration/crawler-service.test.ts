/**
 * A chatbot built from a website (what MCP `create_chatbot` makes): the chatbots service hands the
 * queued crawl to the crawler, whose durable job crawls a real loopback site in Chromium within the
 * page budget, stores each page through the cap gate and reports progress and the end; training
 * follows when the crawl asked for it. Where a test needs to watch that hand-off, a recording
 * stand-in named `trainer` answers `trainer.start`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Context, ServiceSchema } from "moleculer";
import createCrawlerService from "../../services/crawler.service";
import type { Chatbot, ChatbotLimits, Source } from "../../lib/chatbots/model";
import { chatbotState } from "../../lib/chatbots/status";
import { startApp, TestApp } from "../helpers/app";
import { html, LoopbackSite, startSite, typed } from "../helpers/loopback-site";
import { freePort } from "../helpers/ports";
import { eventually } from "../helpers/processes";
import { producerOnly } from "../helpers/services";

const ENV = { CRAWL_ALLOW_PRIVATE: "true", SERVICES: "chatbots,crawler" };
const SANDBOX: ChatbotLimits = { max_urls: 5, max_files: 0, max_chars: 50_000, max_messages: 10, max_pages: 5 };

function page(title: string, body: string, links: string[] = []): string {
	return `<!doctype html><html><head><title>${title}</title></head><body>
		<nav>${links.map(l => `<a href="${l}">${l}</a>`).join(" ")}</nav>
		<main><article><h1>${title}</h1><p>${body}</p></article></main></body></html>`;
}

/** The FAQ's answer is inserted by JavaScript: only a rendered crawl stores it. */
const faqPage = `<!doctype html><html><head><title>FAQ</title></head><body><main><article><h1>Frequently asked</h1>
	<p>Answers to the questions our customers ask most often about their kettles.</p><div id="answer"></div></article></main>
	<script>document.getElementById("answer").innerHTML = "<p>The Zephyr-9 warranty lasts 37 months from purchase.</p>";</script></body></html>`;

let site: LoopbackSite;
let app: TestApp;
/** Holds the start page's answer until released, to observe the crawl before it starts. */
let releaseStart: () => void = () => undefined;
let startGate: Promise<void> = Promise.resolve();

beforeAll(async () => {
	site = await startSite({
		"/": (req, res, s) => {
			void startGate.then(() => html(page("Zephyr home", "Kettles made in Tromsø since 1987.", ["/about", "/broken", "/faq", "http://127.0.0.2:9/elsewhere"]))(req, res, s));
		},
		"/about": html(page("About", "Zephyr Appliances employs 48 people in Tromsø.", ["/", "/contact"])),
		"/broken": typed("text/plain", "server error", 500),
		"/faq": html(faqPage),
		"/contact": html(page("Contact", "Write to the help desk; it answers within two working days.")),
		"/hidden": html(page("Hidden", "Only the sitemap links to this page.")),
		"/sitemap.xml": (_req, res, s) => {
			res.writeHead(200, { "content-type": "application/xml" });
			res.end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.origin}/hidden</loc></url></urlset>`);
		}
	});
	app = await startApp({ env: ENV });
});

afterAll(async () => {
	await app?.stop();
	await site?.stop();
});

/** A sandbox chatbot built from `url`: its crawl is queued and handed to a crawler at once. */
async function newChatbot(on: TestApp, url: string, opts: { limits?: ChatbotLimits; then_train?: boolean } = {}): Promise<Chatbot> {
	const limits = opts.limits ?? SANDBOX;
	return (await on.broker.call("chatbots.create", { kind: "sandbox", locale: "en", limits, ttl_ms: 3_600_000, crawl: { url, then_train: opts.then_train ?? false } })) as Chatbot;
}

async function load(on: TestApp, id: string): Promise<{ chatbot: Chatbot; sources: Source[] }> {
	return (await on.broker.call("chatbots.get", { id })) as { chatbot: Chatbot; sources: Source[] };
}

async function crawlFinished(on: TestApp, id: string): Promise<{ chatbot: Chatbot; sources: Source[] }> {
	return eventually(async () => {
		const state = await load(on, id);
		return state.chatbot.crawl.status === "done" || state.chatbot.crawl.status === "failed" ? state : undefined;
	}, 30_000, "the crawl to finish");
}

describe("site crawls", () => {
	it("create answers at once, then the crawl reads same-origin pages breadth first within max_pages, reporting each outcome", async () => {
		startGate = new Promise(resolve => (releaseStart = resolve));
		const chatbot = await newChatbot(app, `${site.origin}/`, { limits: { ...SANDBOX, max_pages: 3 } });
		expect(chatbot.crawl).toMatchObject({ status: "queued", start_url: `${site.origin}/`, max_pages: 3 });
		expect(chatbotState(chatbot).phase).toBe("crawling");
		// The start page has not even answered yet: nothing is stored.
		expect((await load(app, chatbot._id)).sources).toEqual([]);
		releaseStart();

		const { chatbot: done, sources } = await crawlFinished(app, chatbot._id);
		expect(done.crawl).toMatchObject({ status: "done", start_url: `${site.origin}/`, crawled: 3, failed: 1 });
		expect(done.crawl.found).toBeGreaterThanOrEqual(5); // /, /about, /broken, /faq and the sitemap's /hidden
		expect(sources.map(s => new URL(s.url as string).pathname).sort()).toEqual(["/", "/about", "/faq"]);
		for (const source of sources) expect(source).toMatchObject({ kind: "url", status: "ready", domain: "127.0.0.1" });
		expect(done.counts.urls).toBe(3);
		expect(done.counts.chars).toBe(sources.reduce((sum, s) => sum + (s.char_count ?? 0), 0));
		const input = (await app.broker.call("chatbots.trainingInput", { id: chatbot._id })) as { sources: Source[] };
		const faq = input.sources.find(s => s.url === `${site.origin}/faq`);
		expect(faq?.text).toContain("warranty lasts 37 months"); // rendered in Chromium
		// Without then_train, and with no trainer anyway, the chatbot just waits to be trained.
		expect(done.train_pending).toBe(false);
		expect(chatbotState(done)).toMatchObject({ phase: "idle", can_answer: false });
	});

	it("a page refused by the URL cap is reported failed and ends the crawl", async () => {
		const chatbot = await newChatbot(app, `${site.origin}/about`, { limits: { ...SANDBOX, max_urls: 2 } });
		const { chatbot: done, sources } = await crawlFinished(app, chatbot._id);
		expect(done.crawl).toMatchObject({ status: "done", crawled: 2, failed: 1 });
		expect(sources).toHaveLength(2);
		expect(done.counts.urls).toBe(2);
	});

	it("a site that gives nothing ends the crawl failed, with a reason", async () => {
		const nothingListens = await freePort();
		const chatbot = await newChatbot(app, `http://127.0.0.1:${nothingListens}/`, { limits: { ...SANDBOX, max_pages: 2 }, then_train: true });
		const { chatbot: done, sources } = await crawlFinished(app, chatbot._id);
		expect(done.crawl).toMatchObject({ status: "failed", crawled: 0, failed: 1 });
		expect(sources).toEqual([]);
		expect(chatbotState(done)).toMatchObject({ phase: "failed", failure_reason: expect.stringMatching(/could not be crawled/) });
	});

	it("with then_train and no trainer running, the crawl completes and training waits for a trainer", async () => {
		const chatbot = await newChatbot(app, `${site.origin}/contact`, { limits: { ...SANDBOX, max_pages: 1 }, then_train: true });
		const { chatbot: done } = await crawlFinished(app, chatbot._id);
		expect(done.crawl).toMatchObject({ status: "done", crawled: 1 });
		expect(done).toMatchObject({ train_pending: true, training: null, generation: 0 });
		expect(chatbotState(done).phase).toBe("training");
	});

	it("with then_train, trainer.start is called once, after the pages are stored", async () => {
		const calls: Array<{ chatbot_id: string; sources: number; crawl: string }> = [];
		const trainer: ServiceSchema = {
			name: "trainer",
			actions: {
				async start(ctx: Context<{ chatbot_id: string }>) {
					const state = await load(app, ctx.params.chatbot_id);
					calls.push({ chatbot_id: ctx.params.chatbot_id, sources: state.sources.length, crawl: state.chatbot.crawl.status });
					return { ok: true };
				}
			}
		};
		const standIn = app.broker.createService(trainer);
		await app.broker.waitForServices(["trainer"]);
		try {
			const chatbot = await newChatbot(app, `${site.origin}/about`, { limits: { ...SANDBOX, max_pages: 2 }, then_train: true });
			// (The trainer's arrival also hands it chatbots whose training waited for one; see lifecycle.test.ts.)
			const ours = () => calls.filter(c => c.chatbot_id === chatbot._id);
			await eventually(async () => (ours().length > 0 ? true : undefined), 30_000, "trainer.start");
			expect(ours()).toEqual([{ chatbot_id: chatbot._id, sources: 2, crawl: "done" }]);
		} finally {
			await app.broker.destroyService(standIn);
		}
	});

	it("refuses a URL that is not http(s) with 400, creating nothing", async () => {
		await expect(newChatbot(app, "file:///etc/passwd")).rejects.toMatchObject({ type: "validation_failed", code: 400 });
		await expect(app.broker.call("crawler.startSiteCrawl", { chatbot_id: "any", url: "file:///etc/passwd", max_pages: 2 })).rejects.toMatchObject({
			type: "validation_failed",
			code: 400
		});
	});
});

describe("requeueStale", () => {
	it("re-sends a crawl whose message was lost with its process; a new worker does it", async () => {
		const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-crawl-requeue-"));
		try {
			// First process: the crawler can queue jobs but nothing consumes them (a producer-only node),
			// and it stops; with the in-memory channel adapter the message goes down with it.
			// Static fetches here: one Chromium per file is enough.
			const env = { ...ENV, CRAWL_USE_BROWSER: "false" };
			const first = await startApp({ dataDir, env: { ...env, SERVICES: "chatbots" } });
			first.broker.createService(producerOnly(createCrawlerService(first.config)));
			await first.broker.waitForServices(["crawler"]);
			const chatbot = await newChatbot(first, `${site.origin}/contact`, { limits: { ...SANDBOX, max_pages: 1 } });
			await eventually(async () => ((await first.broker.call<{ requeued: number }, object>("crawler.requeueStale", { now: Date.now() + 6 * 60_000 })).requeued === 1 ? true : undefined), 10_000, "the crawl job to be stored");
			await first.stop();

			const second = await startApp({ dataDir, env });
			try {
				// Not yet stale: a freshly queued (re-sent) job is left alone.
				expect(await second.broker.call("crawler.requeueStale", { now: Date.now() })).toEqual({ requeued: 0 });
				expect(await second.broker.call("crawler.requeueStale", { now: Date.now() + 6 * 60_000 })).toEqual({ requeued: 1 });
				const { chatbot: done, sources } = await crawlFinished(second, chatbot._id);
				expect(done.crawl).toMatchObject({ status: "done", crawled: 1 });
				expect(sources.map(s => s.url)).toEqual([`${site.origin}/contact`]);
				// Done jobs are gone: nothing left to re-send. The job document is removed just after the
				// chatbot hears the crawl ended (told first, so a crash in between repeats the crawl
				// rather than losing it): wait for the removal, without sweeping, before asking.
				const crawler = second.broker.getLocalService("crawler") as unknown as { jobs(): { count(query: object): Promise<number> } };
				await eventually(async () => ((await crawler.jobs().count({})) === 0 ? true : undefined), 5_000, "the finished crawl job to be removed");
				expect(await second.broker.call("crawler.requeueStale", { now: Date.now() + 6 * 60_000 })).toEqual({ requeued: 0 });
			} finally {
				await second.stop();
			}
		} finally {
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	});
});
