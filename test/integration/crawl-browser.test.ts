/**
 * Real Chromium against loopback sites: JavaScript-inserted text is captured, boilerplate is not,
 * and every request the page makes goes through the SSRF guard.
 *
 * As in fetch-page.test.ts, 127.0.0.2 plays "the public internet" (through the injectable address
 * rule and an injected DNS for `public.test`) and 127.0.0.1 plays an internal service that must stay
 * unreachable. One browser serves the whole file.
 */
import { PageRenderer } from "../../lib/crawl/browser";
import { fetchFailureReason } from "../../lib/failures";
import { fetchReadable } from "../../lib/crawl/fetch-readable";
import { loopbackWorld } from "../helpers/loopback-world";
import { html, LoopbackSite, redirect, startSite, typed } from "../helpers/loopback-site";

const FACT = "The Zephyr-9 kettle warranty lasts 37 months.";

let renderer: PageRenderer;
let site: LoopbackSite;
let internal: LoopbackSite;

/** 127.0.0.2 plays the public internet; `lookups` counts resolutions for the DNS-rebinding tests. */
const { options: world, lookups, resetLookups } = loopbackWorld();

const chrome = `
	<nav><a href="/">Home</a> <a href="/careers">Careers at Zephyr</a> <a href="/press">Press room</a></nav>
	<header><p>Free shipping on all orders this week</p></header>`;
const footer = `<footer><p>Copyright Zephyr Appliances. Cookie settings. Imprint.</p></footer>`;

/** A page whose key fact arrives by fetch() after load, like a single-page app's content. */
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

/** A page that tries to read an internal service several ways; the outcome is written into the page. */
const leakyPage = (internalUrl: string) => `<!doctype html><html><head><title>Leaky</title></head><body>
	<main><article><h1>Leaky page</h1><p>This page tries to read an internal service from the visitor's browser.</p>
	<p id="fetch-result">fetch pending</p><p id="bounce-result">bounce pending</p><p id="rebind-result">rebind pending</p></article></main>
	<script>
		const report = (id, promise) => promise
			.then(r => r.text()).then(t => { document.getElementById(id).textContent = id + " leaked " + t; })
			.catch(() => { document.getElementById(id).textContent = id + " blocked"; });
		report("fetch-result", fetch("${internalUrl}/secret"));
		report("bounce-result", fetch("/bounce"));
		report("rebind-result", fetch("http://rebind.test:" + ${JSON.stringify(internalUrl.split(":").pop())} + "/secret", { mode: "no-cors" }));
	</script></body></html>`;

beforeAll(async () => {
	renderer = new PageRenderer();
	expect(renderer.available()).toBe(true);
	internal = await startSite({
		"/secret": (_req, res) => {
			res.writeHead(200, { "content-type": "text/plain", "access-control-allow-origin": "*" });
			res.end("INTERNAL-SECRET-4417");
		}
	});
	site = await startSite(
		{
			"/": html(jsPage),
			"/api/facts": typed("application/json", JSON.stringify({ facts: [FACT, "Descale it every 11 weeks with citric acid."] })),
			"/leaky": html(leakyPage(`http://127.0.0.1:${internal.port}`)),
			"/bounce": redirect(() => `http://127.0.0.1:${internal.port}/secret`),
			"/to-internal": redirect(() => `http://127.0.0.1:${internal.port}/secret`)
		},
		"127.0.0.2"
	);
});

beforeEach(() => {
	resetLookups();
});

afterAll(async () => {
	await renderer?.close();
	await Promise.all([site?.stop(), internal?.stop()]);
});

describe("JavaScript-rendered content", () => {
	it("a static fetch does not see text inserted by JavaScript", async () => {
		const page = await fetchReadable(`http://public.test:${site.port}/`, world);
		expect(page.rendered).toBe(false);
		expect(page.text).toContain("quietest kettle");
		expect(page.text).not.toContain("37 months");
	});

	it("the Chromium renderer captures it, without navigation boilerplate", async () => {
		const page = await fetchReadable(`http://public.test:${site.port}/`, { ...world, renderer });
		expect(page.rendered).toBe(true);
		expect(page.title).toBe("Zephyr-9 kettle");
		expect(page.text).toContain(FACT);
		expect(page.text).toContain("quietest kettle");
		expect(page.charCount).toBe(page.text.length);
		for (const boilerplate of ["Careers at Zephyr", "Press room", "Free shipping", "Cookie settings", "Loading facts"]) {
			expect(page.text).not.toContain(boilerplate);
		}
		// Structure survives: the section heading (marked by its level) and each fact on lines of their own.
		expect(page.text.split("\n")).toEqual(expect.arrayContaining(["## Warranty and care", FACT]));
	});
});

describe("SSRF guard inside the browser", () => {
	it("blocks the page's requests to an internal address, directly, via redirect and via DNS rebinding", async () => {
		const before = internal.hits.length;
		const page = await renderer.render(`http://public.test:${site.port}/leaky`, world);
		expect(internal.hits.length).toBe(before);
		expect(page.html).toContain("fetch-result blocked");
		expect(page.html).toContain("bounce-result blocked");
		expect(page.html).not.toContain("INTERNAL-SECRET-4417");
		const refused = page.refused.map(r => `${r.reason} ${r.url}`);
		expect(refused).toEqual(
			expect.arrayContaining([
				`blocked_address http://127.0.0.1:${internal.port}/secret`,
				// The rebinding name passed the in-page check (first answer 127.0.0.2) and was refused by
				// the guard proxy, which resolved it again and got 127.0.0.1.
				`blocked_address http://rebind.test:${internal.port}/secret`
			])
		);
		expect(lookups["rebind.test"]).toBeGreaterThanOrEqual(2);
	});

	it("the same page does reach the internal service when allowPrivate lifts the rule (control)", async () => {
		const before = internal.hits.length;
		const page = await renderer.render(`http://public.test:${site.port}/leaky`, { ...world, allowPrivate: true });
		expect(internal.hits.length).toBeGreaterThan(before);
		expect(page.html).toContain("fetch-result leaked INTERNAL-SECRET-4417");
	});

	it("refuses a document that redirects to an internal address", async () => {
		const before = internal.hits.length;
		const err = await renderer.render(`http://public.test:${site.port}/to-internal`, world).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
		expect(internal.hits.length).toBe(before);
	});

	it("refuses to render an internal address at all", async () => {
		const err = await renderer.render(`http://127.0.0.1:${internal.port}/secret`, world).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
	});
});
