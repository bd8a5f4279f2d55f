/**
 * The guarded fetcher against real HTTP servers on loopback.
 *
 * Two worlds are used. The real policy (allowPrivate false, default address rule) proves that
 * loopback, private and metadata targets are refused before any connection. For redirects, which
 * need one target that IS allowed, a test world lets 127.0.0.2 play "the public internet" through the
 * injectable `isAllowedAddress` (every other address, 127.0.0.1 included, keeps the real rule) and
 * an injected DNS maps `public.test` to it.
 */
import * as zlib from "node:zlib";
import { fetchFailureReason } from "../../lib/failures";
import { CrawlOptions, fetchPage } from "../../lib/crawl/fetch-page";
import { fetchReadable } from "../../lib/crawl/fetch-readable";
import { RobotsCache } from "../../lib/crawl/robots";
import { LookupFn } from "../../lib/crawl/ssrf";
import { html, LoopbackSite, redirect, RouteHandler, startSite, typed } from "../helpers/loopback-site";

const UA = "ChatbotBuilderBot/1.0 (+http://localhost/docs/guides/crawler)";

const base: CrawlOptions = { allowPrivate: false, timeoutMs: 5000, maxBytes: 1_000_000, maxRedirects: 3, userAgent: UA };

const dns: Record<string, string> = { "public.test": "127.0.0.2", "intranet.test": "127.0.0.1" };
const lookup: LookupFn = async hostname => {
	const address = dns[hostname];
	if (!address) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
	return [{ address, family: 4 }];
};
/** 127.0.0.2 plays the public internet; everything else follows the real rule. */
const publicWorld: CrawlOptions = { ...base, lookup, isAllowedAddress: ip => ip === "127.0.0.2" };

async function failure(promise: Promise<unknown>): Promise<{ reason: string | undefined; type: string; status?: number; message: string }> {
	const err = await promise.then(
		() => {
			throw new Error("expected the fetch to fail");
		},
		(e: { type: string; message: string; data?: { status?: number } }) => e
	);
	return { reason: fetchFailureReason(err), type: err.type, status: err.data?.status, message: err.message };
}

let internal: LoopbackSite;
let internalV6: LoopbackSite;
let site: LoopbackSite;
let stalled: Array<() => void> = [];

const gzipBomb = zlib.gzipSync(Buffer.alloc(50_000_000, 0x20));
const gzippedPage = zlib.gzipSync(Buffer.from("<html><body><p>Compressed kettle facts.</p></body></html>"));
const brotliPage = zlib.brotliCompressSync(Buffer.from("<html><body><p>Brotli kettle facts.</p></body></html>"));

const chunked = (total: number): RouteHandler => (_req, res) => {
	res.writeHead(200, { "content-type": "text/html" });
	const block = Buffer.alloc(64 * 1024, 0x61);
	let sent = 0;
	const pump = () => {
		while (sent < total) {
			sent += block.length;
			if (!res.write(block)) return void res.once("drain", pump);
		}
		res.end();
	};
	pump();
};

beforeAll(async () => {
	internal = await startSite({
		"/": html("<html><head><title>Internal</title></head><body><p>Internal admin page.</p></body></html>"),
		"/secret": typed("text/plain", "internal secret")
	});
	internalV6 = await startSite({ "/": typed("text/plain", "v6 secret") }, "::1");
	const routes: Record<string, RouteHandler> = {
		"/": html("<html><head><title>Kettles</title></head><body><p>The Zephyr-9 kettle warranty lasts 37 months.</p></body></html>"),
		"/to-internal": redirect(() => `http://127.0.0.1:${internal.port}/secret`),
		"/to-intranet-name": redirect(() => `http://intranet.test:${internal.port}/secret`),
		"/to-metadata": redirect("http://169.254.169.254/latest/meta-data/"),
		"/to-file": redirect("file:///etc/passwd"),
		"/hop/1": redirect("/hop/2", 301),
		"/hop/2": redirect("/hop/3", 307),
		"/hop/3": redirect("/", 308),
		"/loop": redirect("/loop"),
		"/big": typed("text/html", Buffer.alloc(2_000_000, 0x61)),
		"/big-chunked": chunked(3_000_000),
		"/gzip-bomb": (_req, res) => {
			res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip", "content-length": String(gzipBomb.length) });
			res.end(gzipBomb);
		},
		"/gzip": (_req, res) => {
			res.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
			res.end(gzippedPage);
		},
		"/br": (_req, res) => {
			res.writeHead(200, { "content-type": "text/html", "content-encoding": "br" });
			res.end(brotliPage);
		},
		"/latin1": typed("text/plain; charset=iso-8859-1", Buffer.from("Caf\xe9 cr\xe8me", "latin1")),
		"/image.png": typed("image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47])),
		"/missing": html("<p>gone</p>", 404),
		"/broken": html("<p>oops</p>", 500),
		"/stall": (_req, res) => {
			// Headers, then nothing: only the overall timeout can end this.
			res.writeHead(200, { "content-type": "text/html" });
			res.write("<html>");
			stalled.push(() => res.destroy());
		}
	};
	site = await startSite(routes, "127.0.0.2");
});

afterAll(async () => {
	for (const release of stalled) release();
	stalled = [];
	await Promise.all([internal.stop(), internalV6.stop(), site.stop()]);
});

describe("fetchPage", () => {
	it("fetches a page and sends the configured User-Agent", async () => {
		const page = await fetchPage(`${internal.origin}/`, { ...base, allowPrivate: true });
		expect(page).toMatchObject({ finalUrl: `${internal.origin}/`, status: 200, contentType: "text/html" });
		expect(page.body).toContain("Internal admin page.");
		expect(internal.userAgents.at(-1)).toBe(UA);
	});

	it("fetches from an IPv6 literal address when the rule is lifted", async () => {
		const page = await fetchPage(`http://[::1]:${internalV6.port}/`, { ...base, allowPrivate: true });
		expect(page).toMatchObject({ body: "v6 secret", contentType: "text/plain", finalUrl: `http://[::1]:${internalV6.port}/` });
	});

	describe("with private addresses refused (the default policy)", () => {
		it.each([
			["loopback", () => `http://127.0.0.1:${internal.port}/`],
			["IPv6 loopback", () => `http://[::1]:${internalV6.port}/`],
			["10/8", () => "http://10.0.0.1/"],
			["cloud metadata", () => "http://169.254.169.254/latest/meta-data/"]
		])("refuses %s before connecting", async (_label, url) => {
			const before = internal.hits.length + internalV6.hits.length;
			const result = await failure(fetchPage(url(), base));
			expect(result).toMatchObject({ reason: "blocked_address", type: "forbidden" });
			expect(internal.hits.length + internalV6.hits.length).toBe(before);
		});

		it("refuses a public-looking host name whose DNS answer is 127.0.0.1", async () => {
			const before = internal.hits.length;
			const result = await failure(fetchPage(`http://intranet.test:${internal.port}/`, { ...base, lookup }));
			expect(result.reason).toBe("blocked_address");
			expect(internal.hits.length).toBe(before);
		});

		it("connects to the address the injected DNS gave when allowPrivate lifts the rule", async () => {
			// intranet.test exists in no real DNS: reaching the server proves the socket used the checked answer.
			const page = await fetchPage(`http://intranet.test:${internal.port}/secret`, { ...base, allowPrivate: true, lookup });
			expect(page.body).toBe("internal secret");
		});
	});

	describe("redirects", () => {
		it("follows redirects within the cap and reports the final URL", async () => {
			const page = await fetchPage("http://public.test:" + site.port + "/hop/1", publicWorld);
			expect(page.finalUrl).toBe(`http://public.test:${site.port}/`);
			expect(page.body).toContain("37 months");
		});

		it.each([
			["a private address", "/to-internal", "blocked_address"],
			["a host name that resolves to a private address", "/to-intranet-name", "blocked_address"],
			["the metadata endpoint", "/to-metadata", "blocked_address"],
			["a file: URL", "/to-file", "invalid_url"]
		])("refuses a redirect from an allowed page to %s", async (_label, path, reason) => {
			const before = internal.hits.length;
			const result = await failure(fetchPage(`http://public.test:${site.port}${path}`, publicWorld));
			expect(result.reason).toBe(reason);
			expect(internal.hits.length).toBe(before);
		});

		it("gives up after maxRedirects hops", async () => {
			expect((await failure(fetchPage(`http://public.test:${site.port}/hop/1`, { ...publicWorld, maxRedirects: 2 }))).reason).toBe(
				"too_many_redirects"
			);
			const hitsBefore = site.hits.filter(h => h === "/loop").length;
			expect((await failure(fetchPage(`http://public.test:${site.port}/loop`, publicWorld))).reason).toBe("too_many_redirects");
			// The first request and exactly maxRedirects (3) follow-ups.
			expect(site.hits.filter(h => h === "/loop").length - hitsBefore).toBe(4);
		});
	});

	describe("caps", () => {
		it("refuses a body over maxBytes, declared or streamed", async () => {
			expect((await failure(fetchPage(`http://public.test:${site.port}/big`, publicWorld))).reason).toBe("too_large");
			expect((await failure(fetchPage(`http://public.test:${site.port}/big-chunked`, publicWorld))).reason).toBe("too_large");
		});

		it("applies the cap to the decompressed size of a gzip bomb", async () => {
			expect(gzipBomb.length).toBeLessThan(base.maxBytes);
			expect((await failure(fetchPage(`http://public.test:${site.port}/gzip-bomb`, publicWorld))).reason).toBe("too_large");
		});

		it("decodes gzip and brotli bodies", async () => {
			expect((await fetchPage(`http://public.test:${site.port}/gzip`, publicWorld)).body).toContain("Compressed kettle facts.");
			expect((await fetchPage(`http://public.test:${site.port}/br`, publicWorld)).body).toContain("Brotli kettle facts.");
		});

		it("times out a response that stalls", async () => {
			const started = Date.now();
			const result = await failure(fetchPage(`http://public.test:${site.port}/stall`, { ...publicWorld, timeoutMs: 1000 }));
			expect(result.reason).toBe("timeout");
			expect(Date.now() - started).toBeLessThan(4000);
		});
	});

	describe("responses that are not pages", () => {
		it("decodes the declared charset", async () => {
			expect((await fetchPage(`http://public.test:${site.port}/latin1`, publicWorld)).body).toBe("Café crème");
		});

		it("refuses content types that are not HTML or text", async () => {
			expect((await failure(fetchPage(`http://public.test:${site.port}/image.png`, publicWorld))).reason).toBe("unsupported_content_type");
		});

		it("reports error statuses with the status", async () => {
			expect(await failure(fetchPage(`http://public.test:${site.port}/missing`, publicWorld))).toMatchObject({
				reason: "http_status",
				status: 404,
				type: "empty"
			});
			expect((await failure(fetchPage(`http://public.test:${site.port}/broken`, publicWorld))).status).toBe(500);
		});
	});
});

describe("robots.txt", () => {
	let robotsSite: LoopbackSite;
	let noRobots: LoopbackSite;
	let brokenRobots: LoopbackSite;
	const page = html("<html><body><p>Zephyr kettles are descaled every 11 weeks.</p></body></html>");

	beforeAll(async () => {
		robotsSite = await startSite({
			"/robots.txt": typed("text/plain", "User-agent: ChatbotBuilderBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"),
			"/private/page": page,
			"/public/page": page
		});
		noRobots = await startSite({ "/page": page });
		brokenRobots = await startSite({ "/robots.txt": typed("text/plain", "down", 503), "/page": page });
	});

	afterAll(async () => {
		await Promise.all([robotsSite.stop(), noRobots.stop(), brokenRobots.stop()]);
	});

	const opts: CrawlOptions = { ...base, allowPrivate: true };

	it("refuses a disallowed page without fetching it, and allows the rest", async () => {
		const robots = new RobotsCache(opts);
		const result = await failure(fetchReadable(`${robotsSite.origin}/private/page`, { ...opts, robots }));
		expect(result).toMatchObject({ reason: "robots_disallowed", type: "forbidden" });
		expect(robotsSite.hits).not.toContain("/private/page");

		const allowed = await fetchReadable(`${robotsSite.origin}/public/page`, { ...opts, robots });
		expect(allowed.text).toContain("descaled every 11 weeks");
		// One robots.txt fetch served both decisions.
		expect(robotsSite.hits.filter(h => h === "/robots.txt")).toHaveLength(1);
	});

	it("matches rules by the product token of the User-Agent", async () => {
		const robots = new RobotsCache(opts);
		expect(await robots.isAllowed(`${robotsSite.origin}/public/page`)).toBe(true);
		expect(await robots.isAllowed(`${robotsSite.origin}/public/page`, "OtherBot/2.0")).toBe(false);
	});

	it("treats a missing robots.txt (404) and a failing one (503) as allowing everything", async () => {
		const robots = new RobotsCache(opts);
		expect(await robots.isAllowed(`${noRobots.origin}/page`)).toBe(true);
		expect(await robots.isAllowed(`${brokenRobots.origin}/page`)).toBe(true);
		expect(noRobots.hits).toContain("/robots.txt");
		expect(brokenRobots.hits).toContain("/robots.txt");
	});
});
