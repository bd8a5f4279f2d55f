/**
 * No input stalls the process (issue 11, item 2), through the real HTTP surface: each adversarial
 * input of the security review goes in through the demo API or the tool server, and while the
 * service works on it `/v2/health` keeps answering in under 100 ms, measured again and again; the
 * work then ends, done or failed with a clear reason.
 *
 * Before the fix each of these held the event loop for seconds (80 KB of spaces in a text file:
 * 7.7 s; 49,990 dots trained: 7.6 s; 10,000 spaces in a sitemap <loc>: 367 s; 100,000 spaces in a
 * <pre>: 13.7 s; a 50,000-character line of `![`: 2.5 s; robots.txt rules matched against a long
 * path: 1.2 s per page). The app runs every service in this test's
 * process, so a blocked event loop delays the health calls too. Pages are read statically
 * (CRAWL_USE_BROWSER=false): the rendered path reads its HTML in the same worker.
 *
 * Also here: a page whose HTML is empty (200, no body) is 422 `empty` on add-URL, on both surfaces.
 */
import type { Chatbot, Source } from "../../lib/chatbots/model";
import { startApp, TestApp } from "../helpers/app";
import { demoClient, DemoClient, DemoView } from "../helpers/demo-client";
import { html, LoopbackSite, startSite, typed } from "../helpers/loopback-site";
import { callTool, nextIp } from "../helpers/mcp-http";
import { startHealthProbe } from "../helpers/health-probe";
import { eventually } from "../helpers/processes";

/** The bound the issue asks for, on every health call made while the work runs. */
const HEALTH_BOUND_MS = 100;

let app: TestApp;
let site: LoopbackSite;
/** A second origin whose robots.txt is 512 KB of wildcard rules: matching one path cost 1.2 s with a quadratic matcher. */
let robotsSite: LoopbackSite;
const LONG_PATH = `/${"a".repeat(2000)}b`;
let client: DemoClient;

const ARTICLE = "<h1>Harbor Bikes</h1><p>Harbor Bikes rents city bikes by the hour on the waterfront. Helmets come with every rental.</p>";

beforeAll(async () => {
	site = await startSite({
		"/": html(`<!doctype html><html><head><title>Harbor Bikes</title></head><body><main>${ARTICLE}<a href="/hours">Hours</a></main></body></html>`),
		"/hours": html(`<!doctype html><html><head><title>Hours</title></head><body><main><h1>Hours</h1><p>Open every day from 8 to 20.</p></main></body></html>`),
		// 10,000 spaces inside an unclosed <loc>: the old pattern was cubic on it.
		"/sitemap.xml": typed("application/xml", `<?xml version="1.0"?><urlset><url><loc>${" ".repeat(10_000)}x</url></urlset>`),
		"/pre": html(`<!doctype html><html><head><title>Manual</title></head><body><main>${ARTICLE}<pre>${" ".repeat(100_000)}x</pre></main></body></html>`),
		"/empty": typed("text/html; charset=utf-8", "")
	});
	const rule = `Disallow: /${"*a".repeat(2000)}\n`;
	robotsSite = await startSite({
		"/robots.txt": typed("text/plain", `User-agent: *\n${rule.repeat(Math.floor((500 * 1024) / rule.length))}`),
		[LONG_PATH]: html(`<!doctype html><html><body><main>${ARTICLE}</main></body></html>`)
	});
	app = await startApp({ env: { TRUST_PROXY: "1", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" } });
	client = demoClient(app.baseUrl, "203.0.113");
	// The MCP test helper compiles the protocol's JSON Schema on its first reply, in this process:
	// done here, so the measurements below see the service's work only.
	await callTool(app.baseUrl, "get_chatbot", { chatbot_id: "warm-up" });
});

afterAll(async () => {
	await app?.stop();
	await Promise.all([site?.stop(), robotsSite?.stop()]);
});

/**
 * Runs `scenario` (which sets up its own state and checks its own outcome) while an outside client
 * (a worker thread) calls /v2/health again and again; returns the time each call took.
 */
async function whileWorking(scenario: () => Promise<void>): Promise<number[]> {
	const probe = await startHealthProbe(app.baseUrl);
	const outcome = await scenario().then(
		() => undefined,
		(error: unknown) => ({ error })
	);
	const { durations, failures } = await probe.stop();
	if (outcome) throw outcome.error;
	expect(failures).toEqual([]);
	return durations;
}

/** Runs of a scenario that may miss the bound before it counts as a stall (see `expectNoStall`). */
const RUNS = 3;

/**
 * Requires every health call made during `scenario` to answer within the bound. On a shared
 * machine the operating system or a garbage collection can pause the whole process for 100 ms at
 * any moment, while an input that stalls the event loop does so on every run; so a run that misses
 * the bound is repeated, and the test fails when no run of three meets it. (Before the fix every
 * run held the health calls for seconds.)
 */
async function expectNoStall(scenario: () => Promise<void>): Promise<void> {
	const worst: number[] = [];
	for (let run = 1; run <= RUNS; run++) {
		const healthMs = await whileWorking(scenario);
		// The probe is calling before the scenario starts, so a stall holds at least one call; work that
		// ends quickly leaves few calls, and that is fine.
		expect(healthMs.length).toBeGreaterThanOrEqual(1);
		const max = Math.max(...healthMs);
		if (max < HEALTH_BOUND_MS) {
			// The figure the hardening issue asks to report for each input.
			console.info(`${expect.getState().currentTestName}: slowest of ${healthMs.length} health calls ${max.toFixed(1)} ms (run ${run})`);
			return;
		}
		worst.push(Math.round(max));
	}
	throw new Error(`/v2/health took up to ${worst.join(" / ")} ms in ${RUNS} runs; the bound is ${HEALTH_BOUND_MS} ms.`);
}

/** Starts training and waits until it is no longer running; returns the final view. */
async function train(sessionId: string): Promise<DemoView> {
	const started = await client.api(`/api/tools/sessions/${sessionId}/training`, { method: "POST" });
	expect(started.status).toBe(200);
	return eventually(
		async () => {
			const view = await client.get(sessionId);
			return view.status === "training" ? undefined : view;
		},
		60_000,
		"training to end"
	);
}

describe("while an adversarial input is processed, /v2/health answers in under 100 ms, and the work ends", () => {
	it("an uploaded text file of 80 KB of spaces before a letter is extracted", async () => {
		await expectNoStall(async () => {
			const demo = await client.newSession();
			const attached = await client.attach(demo.session_id, "spaces.txt", "text/plain", Buffer.from(`${" ".repeat(80_000)}x\n`));
			expect(attached.status).toBe(200);
			const id = (attached.body.demo as DemoView).sources.files[0].id;
			expect(await client.settledFile(demo.session_id, id)).toMatchObject({ status: "ready", char_count: 1 });
		});
	});

	it.each([
		["49,990 dots and a letter", ".".repeat(49_990) + "x"],
		["a 50,000-character line of `![`", "![".repeat(25_000)]
	])("a text of %s is trained", async (_label, text) => {
		await expectNoStall(async () => {
			const demo = await client.newSession();
			expect((await client.api(`/api/tools/sessions/${demo.session_id}/texts`, { body: { text } })).status).toBe(200);
			expect((await train(demo.session_id)).status).toBe("ready");
		});
	});

	it("a page with 100,000 spaces in a <pre> is read; its text is over the budget, so it is refused with char_cap", async () => {
		await expectNoStall(async () => {
			const demo = await client.newSession();
			const added = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/pre` } });
			expect(added.status).toBe(422);
			expect(added.body.code).toBe("char_cap");
		});
	});

	it("a page under a robots.txt of 512 KB of wildcard rules is judged by them (disallowed)", async () => {
		await expectNoStall(async () => {
			const demo = await client.newSession();
			const added = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${robotsSite.origin}${LONG_PATH}` } });
			expect(added.status).toBe(422);
			expect(added.body.message).toMatch(/robots\.txt/);
		});
	});

	it("a site whose sitemap has 10,000 spaces in an unclosed <loc> is crawled", async () => {
		await expectNoStall(async () => {
			const sitemapReads = site.hits.filter(hit => hit === "/sitemap.xml").length;
			const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: "en" }, { ip: nextIp() });
			expect(created.isError).toBe(false);
			const id = created.data?.chatbot_id as string;
			const crawl = await eventually(
				async () => {
					const { chatbot } = await app.broker.call<{ chatbot: Chatbot }, object>("chatbots.get", { id });
					return chatbot.crawl.status === "done" || chatbot.crawl.status === "failed" ? chatbot.crawl : undefined;
				},
				60_000,
				"the site crawl to end"
			);
			expect(crawl).toMatchObject({ status: "done", crawled: 2 });
			expect(site.hits.filter(hit => hit === "/sitemap.xml").length).toBe(sitemapReads + 1);
		});
	});
});

describe("a page whose HTML is empty (200 with no body)", () => {
	it("is 422 empty on the demo API's add-URL, with nothing attached", async () => {
		const demo = await client.newSession();
		const added = await client.api(`/api/tools/sessions/${demo.session_id}/urls`, { body: { url: `${site.origin}/empty` } });
		expect(added.status).toBe(422);
		expect(added.body).toMatchObject({ ok: false, code: "empty", errors: { detail: "The page's body is empty." } });
		expect((await client.get(demo.session_id)).sources.urls).toEqual([]);
	});

	it("is an empty error of add_knowledge_url on the tool server, with nothing added", async () => {
		const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/hours`, language: "en" }, { ip: nextIp() });
		const id = created.data?.chatbot_id as string;
		const empty = await callTool(app.baseUrl, "add_knowledge_url", { chatbot_id: id, url: `${site.origin}/empty` });
		expect(empty.isError).toBe(true);
		expect(empty.text).toMatch(/^Error \(empty\)/);
		const { sources } = await app.broker.call<{ sources: Source[] }, object>("chatbots.get", { id });
		expect(sources.map(source => source.url)).not.toContain(`${site.origin}/empty`);
	});
});
