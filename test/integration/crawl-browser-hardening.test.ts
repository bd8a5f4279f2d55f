/**
 * Real Chromium against hostile loopback pages (issue 11, item 3 and the guard-proxy leak of item 6):
 * a page cannot send UDP (WebRTC STUN) to an internal host, cannot get Chromium's error page - or
 * the guard's refusal - read as its text by navigating to a refused address, cannot push an
 * oversized DOM into this process, and renders are bounded per renderer. A browser that fails
 * between launch and a new context leaves no guard proxy listening.
 *
 * As in crawl-browser.test.ts, 127.0.0.2 plays "the public internet" (injected address rule and DNS)
 * and 127.0.0.1 plays internal services that must stay unreachable.
 */
import * as dgram from "node:dgram";
import * as fs from "node:fs";
import type * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import puppeteer, { Browser } from "puppeteer-core";
import { PageRenderer } from "../../lib/crawl/browser";
import { fetchReadable } from "../../lib/crawl/fetch-readable";
import { fetchFailureReason } from "../../lib/failures";
import { loopbackWorld } from "../helpers/loopback-world";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { freePort } from "../helpers/ports";

let renderer: PageRenderer;
let site: LoopbackSite;
let internal: LoopbackSite;
let stun: dgram.Socket;
let datagrams: string[] = [];
/** /slow requests being answered right now, and the most at once. */
let slowInFlight = 0;
let slowPeak = 0;

/** 127.0.0.2 plays the public internet; `lookups` counts resolutions for the DNS-rebinding tests. */
const { options: world, lookups, resetLookups } = loopbackWorld();

const ARTICLE = `<main><article><h1>Opening hours</h1><p>${"The Tromsø help desk opens at 08:15 on weekdays and closes at 16:45. ".repeat(10)}</p></article></main>`;

/** Gathers ICE candidates against a STUN server on an internal UDP port, reporting progress in the page. */
const stunPage = (port: number) => `<!doctype html><html><head><title>Call</title></head><body>${ARTICLE}<p id="ice">ice starting</p>
	<script>
		const out = document.getElementById("ice");
		try {
			const pc = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:${port}" }] });
			pc.createDataChannel("probe");
			let candidates = 0;
			pc.onicecandidate = event => { if (event.candidate) candidates++; else out.textContent = "ice complete with " + candidates + " candidates"; };
			pc.createOffer().then(offer => pc.setLocalDescription(offer)).then(() => { if (out.textContent === "ice starting") out.textContent = "ice gathering"; });
		} catch (err) { out.textContent = "ice error " + err; }
	</script></body></html>`;

/** A page that sends itself elsewhere as soon as it has loaded. */
const navigatingPage = (target: string) =>
	`<!doctype html><html><head><title>Moving</title></head><body>${ARTICLE}<script>addEventListener("load", () => { location.href = ${JSON.stringify(target)}; });</script></body></html>`;

beforeAll(async () => {
	renderer = new PageRenderer();
	expect(renderer.available()).toBe(true);
	stun = dgram.createSocket("udp4");
	stun.on("message", (message, from) => datagrams.push(`${from.address}:${from.port} ${message.length} bytes`));
	await new Promise<void>(resolve => stun.bind(0, "127.0.0.1", () => resolve()));
	internal = await startSite({ "/secret": html("<p>INTERNAL-SECRET-4417</p>") });
	const deadPort = await freePort();
	const stunPort = (stun.address() as net.AddressInfo).port;
	site = await startSite(
		{
			"/stun": html(stunPage(stunPort)),
			"/to-internal": html(navigatingPage(`http://127.0.0.1:${internal.port}/secret`)),
			"/to-rebinding": html(navigatingPage(`http://rebind.test:${internal.port}/secret`)),
			"/to-nowhere": html(navigatingPage(`http://public.test:${deadPort}/`)),
			// Not displayed: laying out 20 million characters would only make the test slow.
			"/huge-dom": html(`<!doctype html><html><body>${ARTICLE}<div id="big" style="display:none"></div><script>document.getElementById("big").textContent = "x".repeat(20000000);</script></body></html>`),
			"/slow": (_req, res) => {
				slowInFlight++;
				slowPeak = Math.max(slowPeak, slowInFlight);
				setTimeout(() => {
					slowInFlight--;
					res.writeHead(200, { "content-type": "text/html" });
					res.end(`<!doctype html><html><body>${ARTICLE}</body></html>`);
				}, 400);
			}
		},
		"127.0.0.2"
	);
});

beforeEach(() => {
	resetLookups();
	datagrams = [];
});

afterAll(async () => {
	await renderer?.close();
	stun?.close();
	await Promise.all([site?.stop(), internal?.stop()]);
});

const settle = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

describe("WebRTC", () => {
	it("a rendered page sends no STUN datagram to an internal UDP port", async () => {
		const page = await renderer.render(`http://public.test:${site.port}/stun`, world);
		// The script ran: ICE gathering started (and, with no UDP allowed, found nothing to report).
		expect(page.html).toMatch(/ice (gathering|complete with 0 candidates)/);
		await settle(1500);
		expect(datagrams).toEqual([]);
	});

	it("the same page does send STUN datagrams from a Chromium without the policy (control)", async () => {
		const profile = fs.mkdtempSync(path.join(os.tmpdir(), "webrtc-control-"));
		const browser = await puppeteer.launch({
			executablePath: "/usr/bin/chromium",
			headless: true,
			userDataDir: profile,
			args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
		});
		try {
			const page = await browser.newPage();
			await page.goto(`${site.origin}/stun`, { waitUntil: "load" });
			for (let i = 0; i < 50 && datagrams.length === 0; i++) await settle(100);
			expect(datagrams.length).toBeGreaterThan(0);
		} finally {
			await browser.close();
			fs.rmSync(profile, { recursive: true, force: true });
		}
	});
});

describe("a page that navigates itself after load", () => {
	it("to an internal address fails as blocked_address, and Chromium's error page is not read as text", async () => {
		const before = internal.hits.length;
		const err = await renderer.render(`http://public.test:${site.port}/to-internal`, world).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
		const viaPolicy = await fetchReadable(`http://public.test:${site.port}/to-internal`, { ...world, renderer }).catch(e => e);
		expect(fetchFailureReason(viaPolicy)).toBe("blocked_address");
		expect(internal.hits.length).toBe(before);
	});

	it("to a name that rebinds inside fails as blocked_address; the guard proxy's refusal is not read as text", async () => {
		const before = internal.hits.length;
		const err = await fetchReadable(`http://public.test:${site.port}/to-rebinding`, { ...world, renderer }).catch(e => e);
		expect(fetchFailureReason(err)).toBe("blocked_address");
		expect(lookups["rebind.test"]).toBeGreaterThanOrEqual(2);
		expect(internal.hits.length).toBe(before);
	});

	it("to an address that does not answer: the render fails and the page's own static text is used, not the error", async () => {
		// The guard proxy answers 502 for an upstream it cannot reach; that document is an error, not the page.
		const err = await renderer.render(`http://public.test:${site.port}/to-nowhere`, world).catch(e => e);
		expect(fetchFailureReason(err)).toBe("http_status");
		expect(err.data.status).toBe(502);
		const page = await fetchReadable(`http://public.test:${site.port}/to-nowhere`, { ...world, renderer });
		expect(page.rendered).toBe(false);
		expect(page.text).toContain("help desk opens at 08:15");
		expect(page.text).not.toMatch(/ERR_|can.t be reached|unreachable|refused/i);
	});
});

describe("the rendered size cap", () => {
	it("is applied inside the browser: a 20M-character DOM is refused without being copied here", async () => {
		const usage = () => {
			const m = process.memoryUsage();
			return m.heapUsed + m.external + m.arrayBuffers;
		};
		const base = usage();
		let peak = base;
		const sampler = setInterval(() => (peak = Math.max(peak, usage())), 1);
		const err = await renderer.render(`http://public.test:${site.port}/huge-dom`, { ...world, timeoutMs: 30_000 }).catch(e => e);
		clearInterval(sampler);
		peak = Math.max(peak, usage());
		expect(fetchFailureReason(err)).toBe("too_large");
		// Copying the DOM out (page.content()) raised heap and buffers by about 120 MB; checking inside, by 1-2 MB.
		expect((peak - base) / 1e6).toBeLessThan(30);
	});
});

describe("a renderer allowing one render at a time", () => {
	let single: PageRenderer;

	beforeAll(() => {
		single = new PageRenderer({ maxConcurrentRenders: 1 });
	});

	afterAll(async () => {
		await single?.close();
	});

	it("renders one page at a time; the others wait their turn and then succeed", async () => {
		slowPeak = 0;
		// The time limit covers the wait for a turn and this renderer's first Chromium launch, which
		// takes seconds when the other test worker is busy too; the test is about order, not speed.
		const patient = { ...world, timeoutMs: 40_000 };
		const renders = Array.from({ length: 3 }, () => single.render(`http://public.test:${site.port}/slow`, patient));
		await settle(50);
		expect(single.load()).toEqual({ running: 1, waiting: 2 });
		const pages = await Promise.all(renders);
		expect(pages.map(p => p.html.includes("help desk"))).toEqual([true, true, true]);
		expect(slowPeak).toBe(1);
		expect(single.load()).toEqual({ running: 0, waiting: 0 });
	});

	it("a render that cannot get a turn within its time limit fails as timeout", async () => {
		const first = single.render(`http://public.test:${site.port}/slow`, world);
		const err = await single.render(`http://public.test:${site.port}/slow`, { ...world, timeoutMs: 100 }).catch(e => e);
		expect(fetchFailureReason(err)).toBe("timeout");
		expect(err.message).toBe("The browser was busy with other pages for 100 ms.");
		await first;
	});

	it("closes the render's guard proxy when the browser fails before the page's context exists", async () => {
		const listening = () => process.getActiveResourcesInfo().filter(kind => kind === "TCPServerWrap").length;
		await single.render(`http://public.test:${site.port}/slow`, world);
		await settle(300);
		const baseline = listening();
		// Chromium dies between launch and the new context: the one real way to make creating it fail.
		const browser = await (single as unknown as { browser: Promise<Browser> }).browser;
		browser.process()?.kill("SIGKILL");
		const err = await single.render(`http://public.test:${site.port}/slow`, world).catch(e => e);
		expect(fetchFailureReason(err)).toBe("network");
		for (let i = 0; i < 30 && listening() > baseline; i++) await settle(100);
		expect(listening()).toBe(baseline);
		// The next render launches a new browser.
		expect((await single.render(`http://public.test:${site.port}/slow`, world)).html).toContain("help desk");
	});
});
