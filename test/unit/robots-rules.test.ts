import { parseRobots, productToken, robotsAllow } from "../../lib/crawl/robots-rules";

const UA = "ChatbotBuilder/1.0 (+https://example.test/bot)";
const allowed = (robotsTxt: string, path: string, userAgent = UA) => robotsAllow(parseRobots(robotsTxt), `https://site.test${path}`, userAgent);

describe("robots.txt rules (RFC 9309)", () => {
	it("reads the product token of a user agent", () => {
		expect(productToken(UA)).toBe("chatbotbuilder");
		expect(productToken("  Googlebot ")).toBe("googlebot");
	});

	it("applies the crawler's own group before the * group, merging groups of the same name", () => {
		const txt = ["User-agent: *", "Disallow: /", "", "User-agent: ChatbotBuilder", "Disallow: /private", "", "user-agent: chatbotbuilder", "Disallow: /drafts"].join("\r\n");
		expect(allowed(txt, "/docs")).toBe(true);
		expect(allowed(txt, "/private/x")).toBe(false);
		expect(allowed(txt, "/drafts/1")).toBe(false);
		expect(allowed(txt, "/docs", "OtherBot/2")).toBe(false);
	});

	it("lets consecutive user-agent lines share the rules below them", () => {
		const txt = "User-agent: a\nUser-agent: ChatbotBuilder\nDisallow: /x\nUser-agent: b\nDisallow: /y\n";
		expect(allowed(txt, "/x")).toBe(false);
		expect(allowed(txt, "/y")).toBe(true);
		expect(allowed(txt, "/y", "b")).toBe(false);
		expect(allowed(txt, "/x", "b")).toBe(true);
	});

	it("lets the longest matching pattern decide, allow winning a tie", () => {
		const txt = "User-agent: *\nDisallow: /shop\nAllow: /shop/help\nDisallow: /a\nAllow: /a\n";
		expect(allowed(txt, "/shop/cart")).toBe(false);
		expect(allowed(txt, "/shop/help/returns")).toBe(true);
		expect(allowed(txt, "/a")).toBe(true);
	});

	it("matches * anywhere and $ at the end, against the path and query", () => {
		const txt = "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*session=\nDisallow: /old*/page\n";
		expect(allowed(txt, "/files/guide.pdf")).toBe(false);
		expect(allowed(txt, "/files/guide.pdf?v=2")).toBe(true);
		expect(allowed(txt, "/search?q=1&session=9")).toBe(false);
		expect(allowed(txt, "/search?q=1")).toBe(true);
		expect(allowed(txt, "/old-site/2019/page")).toBe(false);
		expect(allowed(txt, "/older/page/x")).toBe(false);
		expect(allowed(txt, "/new/page")).toBe(true);
	});

	it("ignores comments, unknown lines, rules before any user-agent and an empty disallow", () => {
		const txt = "Disallow: /early\nSitemap: https://site.test/s.xml\nUser-agent: * # everyone\nDisallow:\nDisallow: /tmp # scratch\n";
		expect(allowed(txt, "/early")).toBe(true);
		expect(allowed(txt, "/tmp/1")).toBe(false);
		expect(allowed(txt, "/home")).toBe(true);
	});

	it("compares percent-encoded and plain spellings of a path alike", () => {
		expect(allowed("User-agent: *\nDisallow: /~user\n", "/%7Euser/home")).toBe(false);
		expect(allowed("User-agent: *\nDisallow: /caf%C3%A9\n", "/café/menu")).toBe(false);
	});

	it("allows everything when no group applies or the file is empty", () => {
		expect(allowed("", "/x")).toBe(true);
		expect(allowed("User-agent: other\nDisallow: /\n", "/x")).toBe(true);
	});

	it("matches 512 KB of long wildcard rules against a 2,000-character path in a few milliseconds of work", () => {
		const rule = `Disallow: /${"*a".repeat(2000)}\n`;
		const txt = `User-agent: *\n${rule.repeat(Math.floor((500 * 1024) / rule.length))}`;
		const path = `/${"a".repeat(2000)}b`;
		const rules = parseRobots(txt);
		// Linear matching: each rule is one pass over the path. The quadratic matcher took 1.2 s here;
		// the bound is far above what linear work needs and far below that.
		const started = process.hrtime.bigint();
		expect(robotsAllow(rules, `https://site.test${path}`, UA)).toBe(false);
		expect(robotsAllow(rules, `https://site.test/${"a".repeat(1999)}`, UA)).toBe(true);
		expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(300);
	});
});
