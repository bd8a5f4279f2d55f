import { chunkId, chunkSource, chunkSources, hardSplit, MAX_CHUNK_CHARS, OVERLAP_CHARS, parseBlocks } from "../../lib/retrieval/chunker";
import { splitSentences } from "../../lib/text/tokenize";

const base = { chatbotId: "bot-1", sourceId: "src-1", title: "Acme help", url: "https://acme.test/help" };

/** Numbered sentences of ~60 characters, so packing and overlap are easy to follow. */
function sentences(count: number, topic = "kettle"): string[] {
	return Array.from({ length: count }, (_, i) => `Sentence ${i + 1} explains a detail about the ${topic} range.`);
}

describe("parseBlocks", () => {
	test("recognises markdown, setext and title-like headings, paragraphs and list items", () => {
		const blocks = parseBlocks(
			[
				"# Product guide",
				"",
				"Intro text that wraps",
				"onto a second line.",
				"",
				"Warranty terms",
				"=============",
				"",
				"Shipping",
				"Orders ship fast.",
				"",
				"- first item",
				"- second item"
			].join("\n")
		);
		expect(blocks).toEqual([
			{ type: "heading", text: "Product guide", level: 1 },
			{ type: "paragraph", text: "Intro text that wraps onto a second line." },
			{ type: "heading", text: "Warranty terms", level: 1 },
			{ type: "heading", text: "Shipping" },
			{ type: "paragraph", text: "Orders ship fast." },
			{ type: "paragraph", text: "first item" },
			{ type: "paragraph", text: "second item" }
		]);
	});

	test("a crawled page that marks its sections has no guessed headings; one that does not, has", () => {
		// What readable-text gives for a function reference: "Returns: void" ends one section.
		const marked = ["## deleteCookie(headers, name)", "", "Sets the expiry time of the cookie.", "", "Returns: void", "", "## getCookies(headers)", "", "Parses the Cookie header."].join("\n");
		expect(parseBlocks(marked, true)).toEqual([
			{ type: "heading", text: "deleteCookie(headers, name)", level: 2 },
			{ type: "paragraph", text: "Sets the expiry time of the cookie." },
			{ type: "paragraph", text: "Returns: void" },
			{ type: "heading", text: "getCookies(headers)", level: 2 },
			{ type: "paragraph", text: "Parses the Cookie header." }
		]);
		// The same page without marks (headings styled, not tagged), and one marked only by its title.
		const unmarked = marked.replace(/## /g, "");
		expect(parseBlocks(unmarked, true).filter(b => b.type === "heading")).toEqual([{ type: "heading", text: "Returns: void" }]);
		const titleOnly = `# Cookies\n\n${unmarked}`;
		expect(parseBlocks(titleOnly, true).filter(b => b.type === "heading").map(b => b.text)).toEqual(["Cookies", "Returns: void"]);
		// Text typed or uploaded (not crawled) keeps guessing: its author may mix both.
		expect(parseBlocks(`# Guide\n\n# Cookies\n\nShipping\nOrders ship fast.`).filter(b => b.type === "heading").map(b => b.text)).toEqual(["Guide", "Cookies", "Shipping"]);
	});

	test("a fenced code block's lines are lines of code, never headings, and its fences are dropped", () => {
		const heading = (text: string, level: number) => ({ type: "heading", text, level });
		const paragraphs = (...texts: string[]) => texts.map(text => ({ type: "paragraph", text }));
		const code = (...texts: string[]) => texts.map(text => ({ type: "paragraph", text, code: true }));
		// What readable-text gives for a <pre> with shell comments, on a page that marks its headings.
		const crawled = ["## Quick start", "", "Run these:", "", "```", "# install the package", "npm install kettle", "# start it", "npx kettle", "```", "", "## Next steps", "", "Then open the page."].join("\n");
		expect(parseBlocks(crawled, true)).toEqual([
			heading("Quick start", 2),
			...paragraphs("Run these:"),
			...code("# install the package", "npm install kettle", "# start it", "npx kettle"),
			heading("Next steps", 2),
			...paragraphs("Then open the page.")
		]);
		// Typed Markdown: a longer fence holds a shorter one, code keeps its backticks and stars, and
		// its lines are not joined into one sentence.
		const typed = ["# Guide", "", "````md", "```", "# Not a heading", "```", "````", "", "~~~", "def f(**kwargs):", "    return `x`;", "~~~", "Done."].join("\n");
		expect(parseBlocks(typed)).toEqual([heading("Guide", 1), ...code("```", "# Not a heading", "```", "def f(**kwargs):", "return `x`;"), ...paragraphs("Done.")]);
	});

	test("a Markdown table's rows are lines of cells, the header row first, without pipes or the delimiter row", () => {
		const text = ["# Plans", "", "Our plans:", "| Plan | Price per month |", "|------|-------:|", "| **Free** | 0 € |", "| Team \\| Plus | 99 € |", "Prices include VAT."].join("\n");
		expect(parseBlocks(text)).toEqual([
			{ type: "heading", text: "Plans", level: 1 },
			...["Our plans:", "Plan Price per month", "Free 0 €", "Team | Plus 99 €", "Prices include VAT."].map(line => ({ type: "paragraph", text: line }))
		]);
		// Inside a code block it is code.
		expect(parseBlocks(["```", "| a | b |", "| --- | --- |", "```"].join("\n"))).toEqual(["| a | b |", "| --- | --- |"].map(line => ({ type: "paragraph", text: line, code: true })));
	});

	test("a chunk sets code apart from prose with a blank line", () => {
		const text = ["The desk is open from 08:15 to 16:45.", "", "```", "desk --status", "desk --open", "```", "Closed on Sundays."].join("\n");
		const [chunk] = chunkSource({ ...base, kind: "text", text });
		expect(chunk.text).toBe("The desk is open from 08:15 to 16:45.\n\ndesk --status\ndesk --open\n\nClosed on Sundays.");
		// Which lines are code is recorded; a chunk without code records none.
		expect(chunk.codeLines).toEqual([2, 3]);
		expect(chunkSource({ ...base, kind: "text", text: "The desk is open from 08:15 to 16:45." })[0].codeLines).toEqual([]);
		// A crawled page's <pre> arrives fenced by readable-text, and is marked the same way.
		const [page] = chunkSource({ ...base, kind: "url", text: "Check it:\n\n```\ndesk --status\n```" });
		expect(page.text.split("\n").filter((_, i) => page.codeLines?.includes(i))).toEqual(["desk --status"]);
	});

	test("does not take a wrapped line of prose for a heading", () => {
		const blocks = parseBlocks("The warranty lasts 37 months and covers\nall parts of the kettle.");
		expect(blocks).toEqual([{ type: "paragraph", text: "The warranty lasts 37 months and covers all parts of the kettle." }]);
	});

	test("lines that each end a sentence are paragraphs typed one per line; a line ending at a comma wraps into the next", () => {
		const typed = "Our store opens at 9:00.\nReturns are accepted within 30 days.\nShipping is free above 50 euros!";
		expect(parseBlocks(typed)).toEqual([
			{ type: "paragraph", text: "Our store opens at 9:00." },
			{ type: "paragraph", text: "Returns are accepted within 30 days." },
			{ type: "paragraph", text: "Shipping is free above 50 euros!" }
		]);
		expect(parseBlocks("Returns are accepted within 30 days,\nprovided the item is unused.")).toEqual([
			{ type: "paragraph", text: "Returns are accepted within 30 days, provided the item is unused." }
		]);
	});

	test("strips inline markdown that would leak into answers", () => {
		expect(parseBlocks("See **bold** and [the docs](https://x.test) and `code`.")).toEqual([
			{ type: "paragraph", text: "See bold and the docs and code." }
		]);
	});
});

describe("chunkSource", () => {
	test("a marked subsection keeps its section's heading; the page title only while no section is open", () => {
		const text = [
			"# Retry handler",
			"",
			"Retries failed requests.",
			"",
			"## Options",
			"",
			"Every option is optional.",
			"",
			"### maxRetries",
			"",
			"Maximum number of retries. Default: 5",
			"",
			"### minTimeout",
			"",
			"Milliseconds before the first retry. Default: 500",
			"",
			"## Errors",
			"",
			"A request that keeps failing throws the last error."
		].join("\n");
		expect(chunkSource({ ...base, kind: "url", text }).map(c => c.heading)).toEqual([
			"Retry handler",
			"Options",
			"Options › maxRetries",
			"Options › minTimeout",
			"Errors"
		]);
	});

	test("keeps sections apart and records each chunk's heading and source metadata", () => {
		const chunks = chunkSource({
			...base,
			kind: "url",
			text: "# Warranty\nThe warranty lasts 37 months.\n\n# Shipping\nOrders ship within 2 days."
		});
		expect(chunks.map(c => [c.heading, c.text])).toEqual([
			["Warranty", "The warranty lasts 37 months."],
			["Shipping", "Orders ship within 2 days."]
		]);
		for (const [ordinal, chunk] of chunks.entries()) {
			expect(chunk).toMatchObject({ ...base, kind: "url", ordinal });
			expect(chunk.fileName).toBeUndefined();
		}
	});

	test("a table's header row stays under its section: after the heading, or announced by a sentence ending in ':'", () => {
		// A crawled page as readableText gives it: headings and table rows as lines of their own.
		const text = [
			"Usage beacons",
			"",
			"The widget reports two events:",
			"",
			"Event Sent when",
			"",
			"widget_opened A visitor opens the chat bubble.",
			"message_sent A visitor sends a message.",
			"",
			"It answers 204 No Content.",
			"",
			"Policies",
			"",
			"Policy Limit",
			"",
			"chat 60",
			"beacon 300",
			"",
			"Limits",
			"",
			"A chatbot answers a limited number of messages."
		].join("\n");
		const chunks = chunkSource({ ...base, kind: "url", text });
		expect(chunks.map(c => [c.heading, c.text.split("\n")[0]])).toEqual([
			["Usage beacons", "The widget reports two events:"],
			["Usage beacons › Event Sent when", "widget_opened A visitor opens the chat bubble."],
			["Policies › Policy Limit", "chat 60"],
			// Not announced: a new section, not part of the one before.
			["Limits", "A chatbot answers a limited number of messages."]
		]);
	});

	test("a heading the markdown marks starts its own section, announced or not", () => {
		const text = "# Install\nRun the following:\n\n# Usage\nCall it once.";
		expect(chunkSource({ ...base, kind: "text", text }).map(c => c.heading)).toEqual(["Install", "Usage"]);
	});

	test("keeps the file name of file sources", () => {
		const [chunk] = chunkSource({ chatbotId: "b", sourceId: "f", title: "Manual", fileName: "manual.pdf", kind: "file", text: "Hello there." });
		expect(chunk).toMatchObject({ fileName: "manual.pdf", title: "Manual", kind: "file" });
		expect(chunk.url).toBeUndefined();
	});

	test("packs sentences up to the maximum and never cuts a sentence", () => {
		const text = sentences(40).join(" ");
		const chunks = chunkSource({ ...base, kind: "text", text });
		expect(chunks.length).toBeGreaterThan(2);
		const all = new Set(sentences(40));
		for (const chunk of chunks) {
			expect(chunk.text.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
			for (const sentence of splitSentences(chunk.text)) expect(all.has(sentence)).toBe(true);
		}
		// Every sentence of the source is in some chunk.
		const covered = new Set(chunks.flatMap(c => splitSentences(c.text)));
		expect(covered).toEqual(all);
	});

	test("repeats whole trailing sentences, at most OVERLAP_CHARS long, at the start of the next chunk", () => {
		const chunks = chunkSource({ ...base, kind: "text", text: sentences(40).join(" ") });
		for (let i = 1; i < chunks.length; i++) {
			const previous = splitSentences(chunks[i - 1].text);
			const current = splitSentences(chunks[i].text);
			const shared = current.filter(s => previous.includes(s));
			expect(shared.length).toBeGreaterThan(0);
			expect(shared.join(" ").length).toBeLessThanOrEqual(OVERLAP_CHARS);
			// The shared sentences are the tail of the previous chunk and the head of this one.
			expect(previous.slice(-shared.length)).toEqual(shared);
			expect(current.slice(0, shared.length)).toEqual(shared);
		}
	});

	test("does not carry overlap across a heading", () => {
		const text = `# One\n${sentences(20, "toaster").join(" ")}\n\n# Two\n${sentences(3, "kettle").join(" ")}`;
		const chunks = chunkSource({ ...base, kind: "text", text });
		const firstOfTwo = chunks.find(c => c.heading === "Two");
		expect(firstOfTwo?.text).toBe(sentences(3, "kettle").join(" "));
	});

	test("hard-splits only a sentence longer than the maximum, between words", () => {
		const long = `${"word ".repeat(400).trim()}.`;
		const chunks = chunkSource({ ...base, kind: "text", text: `Short first sentence. ${long}` });
		for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(MAX_CHUNK_CHARS);
		expect(chunks[0].text.startsWith("Short first sentence.")).toBe(true);
		const pieces = hardSplit(long, MAX_CHUNK_CHARS);
		expect(pieces.join(" ")).toBe(long);
		for (const piece of pieces) expect(piece).toMatch(/^word( word)*\.?$/);
	});

	test("gives deterministic ids from chatbot, source and ordinal", () => {
		const source = { ...base, kind: "text" as const, text: sentences(30).join(" ") };
		const first = chunkSource(source);
		const again = chunkSource(source);
		expect(again.map(c => c.id)).toEqual(first.map(c => c.id));
		expect(new Set(first.map(c => c.id)).size).toBe(first.length);
		expect(first[1].id).toBe(chunkId("bot-1", "src-1", 1));
		expect(first[0].id).toMatch(/^[0-9a-f]{32}$/);
		const otherBot = chunkSource({ ...source, chatbotId: "bot-2" });
		expect(otherBot[0].id).not.toBe(first[0].id);
	});

	test("turns a Q&A pair into exactly one chunk holding question and answer", () => {
		const chunks = chunkSources([
			{ chatbotId: "b", sourceId: "qa-1", title: "Q&A", kind: "qa", question: " Do you ship to Spain? ", answer: "Yes, in 3 days." }
		]);
		expect(chunks).toHaveLength(1);
		expect(chunks[0]).toMatchObject({
			kind: "qa",
			question: "Do you ship to Spain?",
			answer: "Yes, in 3 days.",
			text: "Do you ship to Spain?\nYes, in 3 days.",
			ordinal: 0
		});
	});

	test("yields no chunks for empty text", () => {
		expect(chunkSource({ ...base, kind: "text", text: " \n\n " })).toEqual([]);
	});
});
