import { readableText, structuredText } from "../../lib/crawl/readable-text";
import { extractLinks, normalizePageUrl, parseSitemap } from "../../lib/crawl/site-crawl";
import { DOMParser } from "linkedom";

const URL_ = "https://zephyr.example/kettles/zephyr-9";

/** A long article with the usual surroundings, so Readability's own scoring decides. */
function articlePage(): string {
	const paragraph = (n: number) =>
		`<p>Paragraph ${n}: the Zephyr-9 kettle boils a litre in ninety seconds, keeps water warm for an hour, and its ` +
		`stainless interior resists scale better than the previous model according to our long-term tests.</p>`;
	return `<!doctype html><html><head><title>Zephyr-9 review | Zephyr</title></head><body>
		<header><a href="/">Zephyr</a><p>Sign up for our newsletter</p></header>
		<nav><ul><li><a href="/shop">Shop all kettles</a></li><li><a href="/careers">Careers</a></li></ul></nav>
		<div class="layout">
			<article>
				<h1>Zephyr-9 review</h1>
				${paragraph(1)}${paragraph(2)}
				<h2>Warranty</h2>
				<p>The Zephyr-9 kettle warranty lasts 37 months.</p>
				${paragraph(3)}
				<ul><li>Capacity: 1.7 litres</li><li>Power: 2200 W</li></ul>
				<pre>model  Z9
  rev    3</pre>
			</article>
			<aside><h3>Related</h3><p>You may also like the Aurora toaster.</p></aside>
		</div>
		<footer><p>Copyright Zephyr. Privacy policy.</p></footer>
		<script>console.log("tracking")</script>
	</body></html>`;
}

describe("readableText", () => {
	it("keeps the article with its structure and drops the page chrome", () => {
		const { title, text } = readableText(articlePage(), URL_);
		expect(title).toBe("Zephyr-9 review | Zephyr");
		const lines = text.split("\n");
		// Headings are marked by their level, so the chunker need not guess them.
		expect(lines).toContain("## Warranty");
		expect(lines).toContain("The Zephyr-9 kettle warranty lasts 37 months.");
		// List items are single lines, not paragraphs of their own.
		expect(text).toContain("Capacity: 1.7 litres\nPower: 2200 W");
		// Preformatted text keeps its line breaks and indentation, fenced as code.
		expect(text).toContain("```\nmodel  Z9\n  rev    3\n```");
		for (const chrome of ["newsletter", "Shop all kettles", "Careers", "Aurora toaster", "Privacy policy", "tracking"]) {
			expect(text).not.toContain(chrome);
		}
		// Paragraphs are separated by exactly one blank line.
		expect(text).not.toMatch(/\n{3,}/);
		expect(text).toMatch(/ninety seconds.*\n\nParagraph 2:/);
	});

	it("keeps a heading whose anchor id reads like page chrome", () => {
		// Readability drops elements with "header" in their id; "getcookiesheaders" is a heading's slug.
		const html = articlePage().replace("<h2>Warranty</h2>", '<h2 id="getcookiesheaders" class="anchor-header"><code>getCookies(headers)</code></h2>');
		expect(readableText(html, URL_).text.split("\n")).toContain("## getCookies(headers)");
	});

	it("reads a short page whole, minus its chrome", () => {
		const html = `<html><head><title>Tiny</title></head><body><nav>Menu Home About</nav>
			<h1>Opening hours</h1><p>Monday to Friday, 08:15 to 16:45.</p><footer>Footer text</footer></body></html>`;
		expect(readableText(html, URL_)).toEqual({ title: "Tiny", text: "# Opening hours\n\nMonday to Friday, 08:15 to 16:45." });
	});

	it("gives empty text for a page with nothing readable", () => {
		expect(readableText("<html><head><title>Blank</title></head><body><script>1</script></body></html>", URL_).text).toBe("");
	});
});

describe("structuredText", () => {
	const text = (html: string) => structuredText(new DOMParser().parseFromString(`<html><body>${html}</body></html>`, "text/html") as unknown as Node);

	it("collapses inline whitespace like a browser and keeps spaces between inline elements", () => {
		expect(text("<p>The   <b>Zephyr-9</b>\n kettle<i> boils</i>.</p>")).toBe("The Zephyr-9 kettle boils.");
	});

	it("marks a heading by its level, and leaves an empty one unmarked", () => {
		expect(text("<h1>Kettles</h1><h3>The <code>Zephyr-9</code> lid</h3><p>Sold apart.</p><h2> </h2><h6>Fine print</h6>")).toBe(
			"# Kettles\n\n### The Zephyr-9 lid\n\nSold apart.\n\n###### Fine print"
		);
	});

	it("fences a <pre> as Markdown code, with a fence longer than any run of backticks inside", () => {
		expect(text("<p>Install:</p><pre># get it\nnpm i kettle</pre>")).toBe("Install:\n\n```\n# get it\nnpm i kettle\n```");
		expect(text("<pre>```js\nx()\n```</pre>")).toBe("````\n```js\nx()\n```\n````");
	});

	it("turns <br> into a line break and table cells into spaced lines", () => {
		expect(text("<p>one<br>two</p><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>")).toBe("one\ntwo\n\na b\nc d");
	});

	it("lets a list item's words lead the list nested in it, with a colon unless they end with a mark", () => {
		// Tight and loose lists (the item's words in a <p>) alike: the indentation a reader sees becomes "Label:".
		expect(text("<ol><li><b>Support channels</b><ul><li>Issues</li><li>Forum</li></ul></li><li>Logs<ul><li>Client</li></ul></li></ol>")).toBe(
			"Support channels:\nIssues\nForum\n\nLogs:\nClient"
		);
		expect(text("<ul><li><p>Test edge cases</p><ul><li>Invalid inputs</li></ul></li></ul>")).toBe("Test edge cases:\nInvalid inputs");
		expect(text("<ul><li>Either of:<ul><li>a key</li></ul></li><li>Done.<ol><li>next</li></ol></li></ul>")).toBe("Either of:\na key\n\nDone.\nnext");
		// Words between two lists of one item lead the second; a second list right after the first is led by nothing.
		expect(text("<ul><li>Setup<ul><li>install</li></ul>Then<ul><li>run</li></ul><ul><li>stop</li></ul></li></ul>")).toBe("Setup:\ninstall\n\nThen:\nrun\n\nstop");
		// An item with no words of its own before its list adds nothing; a list after a paragraph is no item's list.
		expect(text("<ul><li><ul><li>inner</li></ul></li></ul><p>Steps</p><ul><li>one</li></ul>")).toBe("inner\n\nSteps\n\none");
	});
});

describe("crawl URL helpers", () => {
	it("normalizePageUrl drops fragments and non-page links", () => {
		expect(normalizePageUrl("/a/b?x=1#top", "https://zephyr.example/")).toBe("https://zephyr.example/a/b?x=1");
		expect(normalizePageUrl("HTTPS://Zephyr.Example:443/")).toBe("https://zephyr.example/");
		expect(normalizePageUrl("/manual.PDF", "https://zephyr.example/")).toBeUndefined();
		expect(normalizePageUrl("/logo.png?v=2", "https://zephyr.example/")).toBeUndefined();
		expect(normalizePageUrl("mailto:help@zephyr.example")).toBeUndefined();
		expect(normalizePageUrl("javascript:void(0)")).toBeUndefined();
		expect(normalizePageUrl("/notes.txt", "https://zephyr.example/")).toBe("https://zephyr.example/notes.txt");
	});

	it("extractLinks resolves against <base href> and skips nofollow", () => {
		const html = `<html><head><base href="https://zephyr.example/docs/"></head><body>
			<a href="intro">Intro</a><a href="/about#team">About</a><a rel="nofollow" href="/login">Login</a>
			<a href="https://other.example/x">Other</a><a>No href</a></body></html>`;
		expect(extractLinks(html, "https://zephyr.example/start")).toEqual([
			"https://zephyr.example/docs/intro",
			"https://zephyr.example/about",
			"https://other.example/x"
		]);
	});

	it("parseSitemap reads <loc> entries and decodes entities", () => {
		const xml = `<?xml version="1.0"?><urlset><url><loc> https://zephyr.example/a?x=1&amp;y=2 </loc></url><url><loc>https://zephyr.example/b</loc></url></urlset>`;
		expect(parseSitemap(xml)).toEqual(["https://zephyr.example/a?x=1&y=2", "https://zephyr.example/b"]);
	});
});
