import { answerExtractively, answerText, extractiveAnswer, weighEvidence } from "../../lib/answer/extractive";
import { Passage, passagesOf } from "../../lib/answer/passages";
import { isPointer, onlyPoints } from "../../lib/answer/pointers";
import { DECISION, RANKER } from "../../lib/answer/calibration";
import { collectAnswer } from "../../lib/answer/events";
import { lexiconFor } from "../../lib/answer/lexicon";
import { answerMessages } from "../../lib/answer/messages";
import { Chunk, chunkSource, chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeChunks, vectorizeQuery } from "../../lib/retrieval/vectorize";
import { chunkTerms, documentVectors, queryVector } from "../../lib/retrieval/sparse";
import { questionQuery } from "../../lib/answer/retrieval-query";
import type { SearchHit } from "../../lib/retrieval/vector-index";
import { analyze, Locale } from "../../lib/text/tokenize";
import { asksHowTo } from "../../lib/answer/question";
import { pdf, word } from "../../lib/extract/parse-tasks";
import * as fs from "node:fs";
import * as path from "node:path";

/** Retrieval as the chat service does it, in memory: chunk, vectorise, index, search. */
async function retrieve(sources: ChunkSource[], question: string, locale: Locale, limit = 5): Promise<SearchHit[]> {
	const index = new GenerationIndex();
	for (const item of await vectorizeChunks(chunkSources(sources), { locale })) index.add(item);
	return index.search(await vectorizeQuery(question, { locale }), limit);
}

const acmeSite: ChunkSource = {
	chatbotId: "bot",
	sourceId: "page-warranty",
	kind: "url",
	title: "Acme warranty",
	url: "https://acme.test/warranty",
	text: [
		"# Warranty",
		"Every Acme kettle is built to last. The warranty lasts 37 months. It covers parts and labour.",
		"",
		"# Repairs",
		"Repairs are done in our Leeds workshop. Send the kettle in its original box."
	].join("\n")
};

const shippingFile: ChunkSource = {
	chatbotId: "bot",
	sourceId: "file-shipping",
	kind: "file",
	title: "Shipping policy",
	fileName: "shipping.pdf",
	text: "Orders ship within 2 business days. Shipping to Ireland costs 9 euros."
};

/** A text the owner typed. */
function typedText(sourceId: string, title: string, text: string): ChunkSource {
	return { chatbotId: "bot", sourceId, kind: "text", title, text };
}

const newsText = typedText("text-news", "News", "Acme opened a new showroom in York this spring. The showroom displays the full kettle range.");

describe("extractiveAnswer", () => {
	test("answers how long the warranty is with the 37 months, citing the page", async () => {
		const question = "How long is the warranty?";
		const hits = await retrieve([acmeSite, shippingFile, newsText], question, "en");
		const answer = extractiveAnswer({ question, locale: "en", hits });
		expect(answer.answered).toBe(true);
		expect(answer.text).toContain("The warranty lasts 37 months.");
		expect(answer.text.startsWith("The warranty lasts 37 months.")).toBe(true);
		expect(answer.citations).toEqual([{ sourceId: "page-warranty", title: "Acme warranty", url: "https://acme.test/warranty" }]);
	});

	test("answers in Spanish from Spanish sources", async () => {
		const source: ChunkSource = {
			chatbotId: "bot",
			sourceId: "pagina",
			kind: "url",
			title: "Garantía",
			url: "https://acme.test/es/garantia",
			text: "Nuestros hervidores son resistentes. La garantía dura 24 meses desde la compra. Los envíos a Madrid tardan dos días."
		};
		const question = "¿Cuánto dura la garantia?";
		const hits = await retrieve([source], question, "es");
		const answer = extractiveAnswer({ question, locale: "es", hits });
		expect(answer.answered).toBe(true);
		expect(answer.text.startsWith("La garantía dura 24 meses desde la compra.")).toBe(true);
		expect(answer.citations).toEqual([{ sourceId: "pagina", title: "Garantía", url: "https://acme.test/es/garantia" }]);
	});

	test("refuses, in the locale and without citations, when nothing relevant was retrieved", async () => {
		for (const locale of ["en", "es"] as const) {
			const question = locale === "en" ? "What is the capital of France?" : "¿Cuál es la capital de Francia?";
			const hits = await retrieve([acmeSite, shippingFile], question, locale);
			const answer = extractiveAnswer({ question, locale, hits });
			expect(answer).toEqual({ text: answerMessages(locale).notFound, citations: [], answered: false });
		}
	});

	test("refuses when hits share only a minor term with the question", () => {
		// Retrieval found something (it matched "kettle"), but nothing answers about the price of descaling.
		const [chunk] = chunkSources([newsText]);
		const answer = extractiveAnswer({
			question: "What does descaling service cost for a kettle plus delivery?",
			locale: "en",
			hits: [{ chunk, score: 1 }]
		});
		expect(answer.answered).toBe(false);
		expect(answer.citations).toEqual([]);
	});

	test("cites only the sources whose sentences were used", async () => {
		const question = "How much does shipping to Ireland cost?";
		const hits = await retrieve([acmeSite, shippingFile, newsText], question, "en");
		// An unrelated hit rides along, as a low-ranked retrieval result would: it must not be cited.
		const answer = extractiveAnswer({ question, locale: "en", hits: [...hits, { chunk: chunkSources([newsText])[0], score: 0.1 }] });
		expect(answer.text).toContain("Shipping to Ireland costs 9 euros.");
		expect(answer.citations).toEqual([{ sourceId: "file-shipping", title: "Shipping policy", fileName: "shipping.pdf" }]);
	});

	test("answers a matching Q&A pair with its answer directly", async () => {
		const qa: ChunkSource = {
			chatbotId: "bot",
			sourceId: "qa-7",
			kind: "qa",
			title: "Do you repair kettles bought abroad?",
			question: "Do you repair kettles bought abroad?",
			answer: "Yes, we repair them free of charge within the warranty period."
		};
		const question = "Can you repair a kettle I bought abroad?";
		const hits = await retrieve([acmeSite, qa], question, "en");
		const answer = extractiveAnswer({ question, locale: "en", hits });
		expect(answer).toEqual({
			text: "Yes, we repair them free of charge within the warranty period.",
			citations: [{ sourceId: "qa-7", title: "Do you repair kettles bought abroad?" }],
			answered: true
		});
	});

	test("uses at most three sentences and never repeats one from overlapping chunks", () => {
		const text = "Kettle care matters. Descale the kettle monthly. Rinse the kettle after descaling.";
		const chunk = (id: string, ordinal: number): Chunk => ({
			id,
			chatbotId: "bot",
			sourceId: "care",
			ordinal,
			text,
			title: "Care",
			kind: "text"
		});
		const hits = ["a", "b", "c"].map((id, i) => ({ chunk: chunk(id, i), score: 1 }));
		const answer = extractiveAnswer({ question: "kettle", locale: "en", hits });
		const sentences = answer.text.split(/(?<=\.) /);
		expect(sentences.length).toBeLessThanOrEqual(3);
		expect(new Set(sentences).size).toBe(sentences.length);
		expect(answer.citations).toEqual([{ sourceId: "care", title: "Care" }]);
	});

	test("streams the same answer as events: one token, then done with the citations", async () => {
		const question = "How long is the warranty?";
		const hits = await retrieve([acmeSite], question, "en");
		const events = [];
		for await (const event of answerExtractively({ question, locale: "en", hits })) events.push(event);
		expect(events).toHaveLength(2);
		expect(events[0]).toMatchObject({ type: "token" });
		expect(events[1]).toMatchObject({ type: "done", answered: true });
		const collected = await collectAnswer(answerExtractively({ question, locale: "en", hits }));
		expect(collected).toEqual(extractiveAnswer({ question, locale: "en", hits }));
	});
});

/** A crawled page of the test chatbot. */
function page(sourceId: string, title: string, text: string): ChunkSource {
	return { chatbotId: "bot", sourceId, title, url: `https://docs.test/${sourceId}`, kind: "url", text };
}

describe("sentences that only point elsewhere", () => {
	test.each([
		["See Limits.", "en", true],
		["Request budgets per IP address are described in Rate limits.", "en", true],
		["For more details, see the crawler guide.", "en", true],
		["Consulta Añadir texto.", "es", true],
		["Los límites de peticiones por dirección IP se describen en Límites de uso.", "es", true],
		["The chat budget is 60 requests a minute per IP address.", "en", false],
		["For more than 5 minutes the crawler waits.", "en", false],
		["Read-only keys cannot start a training.", "en", false],
		["The supported formats are listed in the table below.", "en", false],
		["consultar hasta que el chatbot esté listo,", "es", false]
	] as const)("%s → %s", (sentence, locale, pointer) => {
		expect(isPointer(sentence, locale)).toBe(pointer);
	});

	test("a passage that only points to another page is no answer; the one that states the fact is", async () => {
		const guide = page(
			"guide",
			"Chat API",
			["# Chat", "Every answer is built from the chatbot's sources.", "", "# Budgets", "Request budgets per IP address are described in Rate limits."].join("\n")
		);
		const limits = page("limits", "Rate limits", "# Policies\nThe chat policy counts requests per client network: 60 in each minute.");
		const question = "Are request budgets counted per IP address?";
		const hits = await retrieve([guide, limits], question, "en", 8);
		const evidence = weighEvidence({ question, locale: "en", hits, ...lexiconFor("en") });
		expect(evidence.candidates.some(c => c.passage.parts.some(part => part.includes("described in")))).toBe(false);
		expect(evidence.best?.passage.chunk.sourceId).toBe("limits");
		// Asked where to look, the pointer is the answer.
		const where = "Where are request budgets per IP address described?";
		const pointed = weighEvidence({ question: where, locale: "en", hits: await retrieve([guide, limits], where, "en", 8), ...lexiconFor("en") });
		expect(pointed.best?.passage.parts.join(" ")).toContain("described in Rate limits");
		// An answer the owner wrote to a Q&A pair is theirs to give, even one that points elsewhere.
		const qa: ChunkSource = { chatbotId: "bot", sourceId: "qa-budgets", kind: "qa", title: "Budgets?", question: "What are the request budgets?", answer: "See Rate limits." };
		const asked = "Which request budgets apply?";
		const withQa = weighEvidence({ question: asked, locale: "en", hits: await retrieve([guide, limits, qa], asked, "en", 8), ...lexiconFor("en") });
		expect(withQa.candidates.some(c => c.passage.isQa && c.passage.parts[0] === "See Rate limits.")).toBe(true);
		expect(onlyPoints(["¿Empiezas?", "Lee la guía rápida de MCP."], "es")).toBe(true);
		expect(onlyPoints(["See the table below:", "Free 1 chatbot"], "en")).toBe(false);
	});
});

describe("passages beyond one span", () => {
	const chunk = (ordinal: number, text: string, heading = "Proxies"): Chunk => ({
		id: `proxy-${ordinal}`,
		chatbotId: "bot",
		sourceId: "proxy-page",
		ordinal,
		text,
		heading,
		title: "Proxy guide",
		url: "https://lib.test/proxy",
		kind: "url"
	});

	test("a line announcing what follows is a candidate with the lines it introduces", () => {
		const hits = [{ chunk: chunk(0, "Connecting through a proxy is possible by:\nUsing the ProxyAgent class.\nSetting the global dispatcher."), score: 1 }];
		const lists = passagesOf(hits, "en").filter(p => p.isList);
		expect(lists.map(p => p.parts)).toContainEqual(["Connecting through a proxy is possible by:", "Using the ProxyAgent class.", "Setting the global dispatcher."]);
	});

	test("a sentence announcing what follows is given only with what it introduces, never on its own", () => {
		const text = "The skill asks a few things before it writes code. Expect questions about:\nWhat it connects to.\nWho will use it.\nHow it signs in.";
		const passages = passagesOf([{ chunk: chunk(0, text), score: 1 }], "en");
		const spans = passages.filter(p => !p.isList);
		// No span ends on the announcing sentence; the sentence before it takes it along only with what it introduces.
		expect(spans.map(p => p.parts[p.parts.length - 1])).not.toContain("Expect questions about:");
		const before = spans.find(p => p.parts.length === 1 && p.parts[0].startsWith("The skill asks"));
		expect(before?.following).toBeUndefined();
		expect(before?.announced?.parts).toEqual(["Expect questions about:", "What it connects to.", "Who will use it.", "How it signs in."]);
		expect(passages.filter(p => p.isList).map(p => p.parts)).toContainEqual(["Expect questions about:", "What it connects to.", "Who will use it.", "How it signs in."]);
		// A long paragraph ending on such a sentence is no candidate as a whole either.
		const long = "One. Two. Three. Four is the last before it:\nA thing.\nAnother thing.\nA third thing.";
		expect(passagesOf([{ chunk: chunk(0, long), score: 1 }], "en").filter(p => !p.isList).map(p => p.parts.length)).not.toContain(4);
		const answer = extractiveAnswer({ question: "What will the skill ask about before it writes code?", locale: "en", hits: [{ chunk: chunk(0, text), score: 1 }], ...lexiconFor("en") });
		// Answered from the sentence before it (the items hold none of the question's words), then what it announces.
		expect(answer.answered).toBe(true);
		expect(answer.text).toBe("The skill asks a few things before it writes code. Expect questions about:\nWhat it connects to.\nWho will use it.\nHow it signs in.");
		// Where nothing follows the announcement in the chunk, the sentence before it stands alone.
		const alone = passagesOf([{ chunk: chunk(0, "The skill asks a few things before it writes code. Expect questions about:"), score: 1 }], "en");
		expect(alone.map(p => p.parts)).toEqual([["The skill asks a few things before it writes code."]]);
		expect(alone[0].following).toBeUndefined();
		expect(alone[0].announced).toBeUndefined();
	});

	test("three short lines in a row with no line introducing them are a candidate as a whole", () => {
		// A list of three items, or three one-sentence paragraphs: a chunk does not tell them apart.
		const hits = [{ chunk: chunk(0, "A person claims the chatbot. It takes three steps.\nOpen the link.\nLog in or sign up.\nPress the button to keep it.\nA claim link works once. It is only for the person it was given to."), score: 1 }];
		expect(passagesOf(hits, "en").filter(p => p.isList).map(p => p.parts)).toContainEqual(["Open the link.", "Log in or sign up.", "Press the button to keep it."]);
	});

	test("a list never runs from prose into code: a sentence and the two lines of code after it are no list", async () => {
		const desk = typedText("desk", "Support", ["The support desk is open on weekdays from 08:15 to 16:45.", "", "```", "desk --status", "desk --open", "```"].join("\n"));
		const hits = await retrieve([desk], "When is the support desk open?", "en");
		expect(passagesOf(hits, "en").filter(p => p.isList)).toEqual([]);
		const answer = extractiveAnswer({ question: "When is the support desk open?", locale: "en", hits, ...lexiconFor("en") });
		expect(answer.text).toBe("The support desk is open on weekdays from 08:15 to 16:45.");
		// Code after a line announcing it is still a candidate with that line.
		const steps = passagesOf([{ chunk: chunk(0, "To check the desk, run:\n\ndesk --status\ndesk --open"), score: 1 }], "en").filter(p => p.isList);
		expect(steps.map(p => p.parts)).toContainEqual(["To check the desk, run:", "desk --status", "desk --open"]);
	});

	test("a Markdown table typed by the owner answers with its rows, without pipes or the delimiter row", async () => {
		const table = ["| Plan | Price per month | Chatbots |", "|------|-------:|---:|", "| Free | 0 € | 1 |", "| Pro | 20 € | 10 |", "| Team | 99 € | 50 |"];
		const plans = typedText("plans", "Plans", ["# Plans", "", "What each plan costs:", "", ...table].join("\n"));
		const question = "How much does the Pro plan cost per month?";
		const answer = extractiveAnswer({ question, locale: "en", hits: await retrieve([plans], question, "en"), ...lexiconFor("en") });
		expect(answer.answered).toBe(true);
		expect(answer.text).toContain("Pro 20 € 10");
		expect(answer.text).not.toMatch(/[|]|---/);
	});

	test("a line announcing something of its own ends the list before it, and what the line before it introduces", () => {
		const text = "The widget reports two events:\nwidget_opened A visitor opens the chat bubble.\nmessage_sent A visitor sends a message.\nmessage_failed A message could not be sent.\nEach is one small request:\ncurl -X POST /t/e\n-H 'Content-Type: application/json'\n-d '{\"event\":\"widget_opened\"}'";
		const lists = passagesOf([{ chunk: chunk(0, text), score: 1 }], "en").filter(p => p.isList);
		const events = lists.filter(p => p.parts[0] === "The widget reports two events:");
		expect(events.length).toBeGreaterThan(0);
		for (const p of events) expect(p.parts).toEqual(["The widget reports two events:", "widget_opened A visitor opens the chat bubble.", "message_sent A visitor sends a message.", "message_failed A message could not be sent."]);
		// The next announcing line leads the lines it introduces.
		expect(lists.map(p => p.parts)).toContainEqual(["Each is one small request:", "curl -X POST /t/e", "-H 'Content-Type: application/json'", "-d '{\"event\":\"widget_opened\"}'"]);
	});

	test("a list cut at its chunk's end goes on into the next chunk of the same section when that was retrieved", () => {
		const first = chunk(3, "Formatters:\n%O Pretty-print an object.\n%o An object on one line.\n%s A string.");
		const next = chunk(4, "%d A number.\n%j JSON.\n%% A percent sign.");
		const elsewhere = chunk(4, "%d A number.\n%j JSON.", "Other section");
		const continued = passagesOf([{ chunk: first, score: 2 }, { chunk: next, score: 1 }], "en").filter(p => p.isList && p.chunk.ordinal === 3);
		expect(continued.some(p => p.parts.includes("%j JSON.") && p.parts[0] === "Formatters:")).toBe(true);
		const notContinued = passagesOf([{ chunk: first, score: 2 }, { chunk: elsewhere, score: 1 }], "en").filter(p => p.chunk.ordinal === 3);
		expect(notContinued.some(p => p.parts.includes("%j JSON."))).toBe(false);
	});

	test("a line ending its chunk with ':' goes on into the table it announces, a subsection in the next chunk, led by the table's header row", () => {
		const widget = page(
			"widget",
			"Website widget",
			"Usage beacons\n\nThe widget reports two events:\n\nEvent Sent when\n\nwidget_opened A visitor opens the chat bubble.\nmessage_sent A visitor sends a message.\n\nIt answers 204 No Content. It counts the event for the day.\n\nLimits\n\nA chatbot answers a limited number of messages."
		);
		const [intro, table, limits] = chunkSource(widget);
		expect(table.heading).toBe("Usage beacons › Event Sent when");
		const announced = (hits: SearchHit[]) => passagesOf(hits, "en").filter(p => p.chunk === intro && p.parts[0] === "The widget reports two events:");
		expect(announced([{ chunk: intro, score: 2 }, { chunk: table, score: 1 }]).map(p => p.parts)).toContainEqual([
			"The widget reports two events:",
			"Event Sent when",
			"widget_opened A visitor opens the chat bubble.",
			"message_sent A visitor sends a message."
		]);
		const answer = extractiveAnswer({ question: "Which events does the widget report?", locale: "en", hits: [{ chunk: intro, score: 2 }, { chunk: table, score: 1 }], ...lexiconFor("en") });
		expect(answer).toMatchObject({ answered: true, text: expect.stringContaining("message_sent") });
		// The table only: the paragraph after it speaks of something else.
		expect(answer.text).not.toContain("204");
		// A chunk of another section is not what the line announces.
		const unrelated = { ...limits, ordinal: intro.ordinal + 1 };
		expect(announced([{ chunk: intro, score: 2 }, { chunk: unrelated, score: 1 }]).every(p => p.parts.length === 1)).toBe(true);
	});

	test("a list too long to give whole is cut around the item holding the question's words, the omission marked", () => {
		const rules = chunk(
			5,
			[
				"Proxy rules:",
				"Basic case: a request names the proxy by its URL and the agent keeps one connection pool per origin.",
				"Credentials: a username and password in the URL become a Proxy-Authorization header on every request.",
				"Tunnels: an HTTPS origin is reached through a CONNECT tunnel opened on the proxy."
			].join("\n")
		);
		const list = passagesOf([{ chunk: rules, score: 1 }], "en").find(p => p.isList && p.parts.length === 4) as Passage;
		const terms = new Set(analyze("How is an HTTPS origin tunnelled?", "en"));
		const cut = answerText(list, 200, terms);
		expect(cut).toContain("Proxy rules:");
		expect(cut).toContain("CONNECT tunnel");
		expect(cut).toContain("…");
		expect(cut.length).toBeLessThanOrEqual(200 + "Proxies:\n".length);
		// In reading order it would stop before the item that answers; whole when there is room.
		expect(answerText(list, 200)).not.toContain("CONNECT tunnel");
		expect(answerText(list, 1000, terms)).not.toContain("…");
	});

	test("a continued list leaves out the lines the next chunk repeats from the end of the first", () => {
		const first = chunk(3, "Formatters:\n%O Pretty-print an object.\n%o An object on one line.\n%s A string.");
		const overlapping = chunk(4, "%o An object on one line.\n%s A string.\n%d A number.\n%j JSON.");
		const continued = passagesOf([{ chunk: first, score: 2 }, { chunk: overlapping, score: 1 }], "en").filter(p => p.isList && p.chunk.ordinal === 3 && p.parts.includes("%j JSON."));
		expect(continued.length).toBeGreaterThan(0);
		for (const p of continued) expect(p.parts).toEqual(["Formatters:", "%O Pretty-print an object.", "%o An object on one line.", "%s A string.", "%d A number.", "%j JSON."]);
	});

	test("a passage sharing one word with the question is no second answer", () => {
		const desk = page("desk", "Support", "Our support desk answers from 9:00 to 18:00, Monday to Friday.\n\nwidget_opened A visitor opens the chat bubble.");
		const hits = chunkSources([desk]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		const evidence = weighEvidence({ question: "When is the support desk open?", locale: "en", hits, ...lexiconFor("en") });
		expect(evidence.best?.passage.parts).toEqual(["Our support desk answers from 9:00 to 18:00, Monday to Friday."]);
		expect(evidence.second).toBeUndefined();
	});

	test("the verb of a duration question is no word to match: a sentence repeating it is no second answer", () => {
		const keys = page(
			"keys",
			"API keys",
			"Keys expire after 90 days.\n\nThe last progress notification of a job names its key and the total of steps done."
		);
		const hits = chunkSources([keys]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		const evidence = weighEvidence({ question: "How long does a key last?", locale: "en", hits, ...lexiconFor("en") });
		expect(evidence.best?.passage.parts).toEqual(["Keys expire after 90 days."]);
		expect(evidence.second).toBeUndefined();
	});

	test("one-sentence paragraphs of typed text answer with the paragraphs holding the question's words (and the value asked for), not all three", () => {
		const limits = ["Limits", "", "Conversations are kept for a day after their last message.", "", "Keys expire after 90 days.", "", "An account may hold up to 5 API keys or tokens at once."].join("\n");
		const ask = (kind: "text" | "url", question: string) => {
			const source: ChunkSource = { chatbotId: "bot", sourceId: "limits", kind, title: "Limits", text: limits, ...(kind === "url" ? { url: "https://acme.test/limits" } : {}) };
			const hits = chunkSources([source]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
			return extractiveAnswer({ question, locale: "en", hits, ...lexiconFor("en") });
		};
		// The chunker keeps one paragraph per line: the three are a run of short lines, like a list's items.
		expect(ask("text", "How long are conversations kept?").text).toBe("Conversations are kept for a day after their last message.");
		// A line whose question words another line holds along with more is left out too.
		expect(ask("text", "How many keys can an account hold?").text).toBe("An account may hold up to 5 API keys or tokens at once.");
		// Both lines name keys; which one answers is not known from the words.
		expect(ask("text", "How long does a key last?").text).toBe("Limits:\nKeys expire after 90 days.\nAn account may hold up to 5 API keys or tokens at once.");
		// A crawled page's run is a list or a table whose rows answer together: it stays whole.
		expect(ask("url", "How long are conversations kept?").text.split("\n")).toHaveLength(4);
		// Among lines holding the same words, those with the kind of value asked for.
		const keys = typedText("keys", "Keys", ["Keys", "", "Keys expire after 90 days.", "", "Keys start with cbk_live_ and 32 letters.", "", "Each account may hold 5 keys."].join("\n"));
		const keyHits = chunkSources([keys]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		expect(extractiveAnswer({ question: "How long does a key last?", locale: "en", hits: keyHits, ...lexiconFor("en") }).text).toBe("Keys expire after 90 days.");
		// Pasted a paragraph per line, with no blank line between them, the same.
		const pasted = typedText("limits", "Limits", "Conversations are kept for a day after their last message.\nKeys expire after 90 days.\nAn account may hold up to 5 API keys or tokens at once.");
		const pastedHits = chunkSources([pasted]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		expect(extractiveAnswer({ question: "How long are conversations kept?", locale: "en", hits: pastedHits, ...lexiconFor("en") }).text).toBe("Conversations are kept for a day after their last message.");
	});

	test.each([
		["facts.docx", word],
		["facts.doc", word],
		["facts.pdf", pdf]
	])("the one-sentence paragraphs of a real document (%s) answer one at a time", async (fileName, extract) => {
		// The real fixture, read by the real extractor: its four paragraphs become a run of four lines.
		const { text } = await extract(new Uint8Array(fs.readFileSync(path.join(__dirname, "../fixtures", fileName))));
		const ask = (source: ChunkSource, question: string) => {
			const hits = chunkSources([source]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
			return extractiveAnswer({ question, locale: "en", hits, ...lexiconFor("en") });
		};
		const handbook: ChunkSource = { chatbotId: "bot", sourceId: "handbook", kind: "file", title: fileName, fileName, text };
		expect(ask(handbook, "How long is the Zephyr-9 warranty?").text).toBe("The Zephyr-9 kettle warranty lasts 37 months from the date of purchase.");
		expect(ask(handbook, "When is the help desk open?").text).toBe("Support: the Zephyr help desk in Tromsø answers on weekdays between 08:15 and 16:45.");
	});

	test("a table is cut to its header row and the rows naming what the question names; code and tables nothing names stay whole", () => {
		// A crawled page's table: readable-text writes each row on a line, its cells apart by spaces.
		const plans = page(
			"plans",
			"Plans",
			["## Account plans", "", "Plan Chatbots Messages per month", "Free 3 100", "Pro 10 5,000", "Business 50 40,000", "Enterprise 200 400,000"].join("\n")
		);
		const ask = (source: ChunkSource, question: string) => {
			const hits = chunkSources([source]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
			return extractiveAnswer({ question, locale: "en", hits, ...lexiconFor("en") });
		};
		expect(ask(plans, "How many messages a month does each Business chatbot get?").text).toBe("Account plans:\nPlan Chatbots Messages per month\nBusiness 50 40,000");
		// No name picks a row out: every row answers.
		expect(ask(plans, "How many chatbots does each plan allow?").text.split("\n")).toHaveLength(6);
		// A chunk stored before code lines were recorded may hide code among its lines: never cut.
		const stored = chunkSources([plans]).map(({ codeLines: _unknown, ...chunk }, i) => ({ chunk, score: 1 / (i + 1) }));
		expect(extractiveAnswer({ question: "How many messages a month does each Business chatbot get?", locale: "en", hits: stored, ...lexiconFor("en") }).text.split("\n")).toHaveLength(6);
		// An example naming the function on several of its lines is given whole.
		const cookies = page(
			"cookies",
			"Cookies",
			["## setCookie(headers, cookie)", "", "```", "import { setCookie, Headers } from 'undici'", "const headers = new Headers()", "setCookie(headers, { name: 'a', value: 'b' })", "console.log(headers.get('Set-Cookie'))", "```"].join("\n")
		);
		expect(ask(cookies, "How do I call setCookie?").text).toContain("const headers = new Headers()");
	});

	test("a passage of code alone comes after one that says something in words; with nothing else, the code answers", () => {
		const ask = (text: string, question: string) => {
			const hits = chunkSources([page("ping", "Ping", text)]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
			return weighEvidence({ question, locale: "en", hits, ...lexiconFor("en") }).best?.passage.parts;
		};
		const diagram = ["```", "sequenceDiagram", "participant Sender", "participant Receiver", "Sender->>Receiver: ping request", "Receiver->>Sender: empty response", "```"];
		// The diagram's lines hold "receiver" and "ping" more densely than the sentence does, and scored higher.
		const withWords = ["## Ping", "", "Either side may check that the other is alive. The receiver MUST answer promptly, with an empty result.", "", ...diagram].join("\n");
		expect(ask(withWords, "How does the receiver reply to a ping?")).toEqual(["The receiver MUST answer promptly, with an empty result."]);
		// The diagram alone still answers when nothing else does.
		const only = ["## Ping", "", ...diagram].join("\n");
		expect(ask(only, "How does the receiver reply to a ping?")).toContain("Receiver->>Sender: empty response");
	});

	test("a question asking how to do something may be answered by a command alone, when it holds the question best", () => {
		const install = ["## Install", "", "Installing the widget package takes a minute; the widget then needs no build step.", "", "```", "npm install --save chatbot-widget", "```"].join("\n");
		const ask = (question: string, locale: Locale = "en") => {
			const hits = chunkSources([page("install", "Install", install)]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
			return weighEvidence({ question, locale, hits, ...lexiconFor(locale) }).best?.passage.parts;
		};
		expect(ask("How do I install the chatbot widget package?")).toEqual(["npm install --save chatbot-widget"]);
		expect(ask("Which command installs the chatbot widget package?")).toEqual(["npm install --save chatbot-widget"]);
		// Asked something else about it, the sentence answers.
		expect(ask("Does installing the chatbot widget package take long?")).toEqual(["Installing the widget package takes a minute; the widget then needs no build step."]);
		expect(asksHowTo("¿Cómo puedo instalar el paquete?", "es")).toBe(true);
		expect(asksHowTo("¿Cómo contesta el servidor a un ping?", "es")).toBe(false);
		expect(asksHowTo("How does the receiver reply to a ping?", "en")).toBe(false);
	});

	test("a file's rows that are no sentences (a table's, a list's) are not read as paragraphs: they stay whole, as on a crawled page", () => {
		const prices: ChunkSource = { chatbotId: "bot", sourceId: "prices", kind: "file", title: "prices.docx", fileName: "prices.docx", text: ["Kettle prices", "", "Zephyr-9 kettle 79 euros", "Aurora kettle 129 euros", "Zephyr-9 lid 14 euros"].join("\n") };
		const hits = chunkSources([prices]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		expect(extractiveAnswer({ question: "How much is the Aurora kettle?", locale: "en", hits, ...lexiconFor("en") }).text.split("\n")).toHaveLength(4);
	});

	test("how long a thing may be is a size, not a duration: the sentence giving the size answers", () => {
		const limits = page("limits", "Limits", "A question may hold up to 2000 characters. Longer questions are refused with 422.\n\nConversations are kept for a day after the last message.");
		const hits = chunkSources([limits]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		const answer = extractiveAnswer({ question: "How long can a question be?", locale: "en", hits, ...lexiconFor("en") });
		expect(answer.answered).toBe(true);
		expect(answer.text.startsWith("A question may hold up to 2000 characters.")).toBe(true);
		expect(answer.text).not.toContain("Conversations");
	});

	test("a symbol is a word: asked by its name or written alone, the sentence speaking of it answers, not the examples using it", async () => {
		const syntax = typedText(
			"syntax",
			"Markdown syntax",
			[
				"# Breaks",
				"",
				"A line of three or more matching -, _, or * characters forms a thematic break.",
				"",
				"A hard line break is a line ending preceded by two or more spaces.",
				"",
				"# Quotes",
				"",
				"Fenced code blocks may be indented by up to three spaces.",
				"",
				"The > characters can be preceded by up to two spaces of indentation.",
				"",
				"Quotes nest when a line holds several, as these lines show, each indented by one space more than the last:",
				"",
				"```",
				"> > > > deep",
				" > > > deeper",
				"  > > > deepest",
				"```"
			].join("\n")
		);
		const asked = async (question: string) => extractiveAnswer({ question, locale: "en", hits: await retrieve([syntax], question, "en", 16), ...lexiconFor("en") });
		// Named: "dashes" and "asterisks" are the "-" and "*" of the sentence, not the spaces of the other break.
		const byName = await asked("How many dashes or asterisks does a break need?");
		expect(byName.answered).toBe(true);
		expect(byName.text).toContain("three or more matching");
		// Written alone: "the >" is the block quote's character, not any indentation; and the example
		// lines, full of ">", only use it.
		const written = await asked("How far may the > be indented?");
		expect(written.text).toContain("up to two spaces");
		expect(written.text).not.toContain("Fenced");
		expect(written.text).not.toContain("deepest");
	});

	test("a chunk indexed before symbols were terms is still found by a question naming the symbol", () => {
		// What the index held for "A thematic break is three or more matching asterisks." before
		// names of symbols became the symbol: the word's own stem.
		const old = { ...chunk(0, "A thematic break is three or more matching asterisks."), codeLines: [] };
		const other = chunk(1, "Hard line breaks need two spaces at the end of a line.");
		const index = new GenerationIndex();
		const [oldVector, otherVector] = documentVectors([["themat", "break", "three", "match", "asterisk"], chunkTerms(other, "en")]);
		index.add({ chunk: old, sparse: oldVector });
		index.add({ chunk: other, sparse: otherVector });
		const question = "How many asterisks make a thematic break?";
		expect(analyze(question, "en")).toContain("*");
		expect(index.search(questionQuery(question, [], "en"), 2)[0].chunk.id).toBe(old.id);
		// The same question without the names' stems reaches the old chunk by its other words only, scoring less.
		const withoutNames = index.search({ sparse: queryVector(analyze(question, "en")) }, 2);
		expect(withoutNames[0].score).toBeLessThan(index.search(questionQuery(question, [], "en"), 2)[0].score);
	});

	test("an example's keys and values say nothing: the sentence stating the fact ranks above the example holding the question's words", async () => {
		const annotations = typedText(
			"annotations",
			"Resources",
			[
				"# Annotations",
				"",
				"An annotation's audience says who a resource is for: user, assistant or both.",
				"",
				"Here is an example:",
				"",
				"```json",
				'{ "resource": "file:///README.md", "annotations": { "audience": ["user"], "priority": 0.8 } }',
				"```"
			].join("\n")
		);
		const best = async (question: string, codeOnly: number) => {
			const hits = await retrieve([annotations], question, "en", 16);
			return weighEvidence({ question, locale: "en", hits, ...lexiconFor("en"), model: { ranker: { ...RANKER, codeOnly }, decision: DECISION } }).best?.passage.parts.join(" ");
		};
		const question = "Which audiences can a resource annotation name?";
		expect(await best(question, RANKER.codeOnly)).toMatch(/^An annotation's audience says who a resource is for/);
		// Counted as words said, the example's "resource", "annotations" and "audience" made it the answer.
		expect(await best(question, 0)).toMatch(/^Here is an example:/);
		// Asked how to do something, an example answers as a sentence does: its words count.
		expect(await best("How do I give a resource annotation an audience?", RANKER.codeOnly)).toMatch(/^Here is an example:/);
	});

	test("a question asking two things is answered with a second passage of the same page, both cited once", () => {
		const page: ChunkSource = {
			chatbotId: "bot",
			sourceId: "support",
			kind: "url",
			title: "Support",
			url: "https://acme.test/support",
			text: [
				"# Support",
				"The help desk is in the city of Tromsø and answers the phone on weekdays.",
				"Kettles are made in our own factory. Each is tested one by one before it ships to the shops.",
				"Opening hours of the help desk are 08:15 to 16:45."
			].join("\n\n")
		};
		const hits = chunkSources([page]).map((c, i) => ({ chunk: c, score: 1 / (i + 1) }));
		const question = "Which city hosts the help desk, and what are the opening hours on weekdays?";
		const evidence = weighEvidence({ question, locale: "en", hits });
		expect(evidence.second).toBeDefined();
		const answer = extractiveAnswer({ question, locale: "en", hits, model: { ranker: RANKER, decision: { intercept: 10 } } });
		expect(answer.answered).toBe(true);
		expect(answer.text).toContain("Tromsø");
		expect(answer.text).toContain("08:15 to 16:45");
		expect(answer.text).not.toContain("factory");
		expect(answer.citations).toEqual([{ sourceId: "support", title: "Support", url: "https://acme.test/support" }]);
	});
});
