import { spellingFor } from "../../lib/answer/lexicon";
import { QuestionQuery, retrieveFor } from "../../lib/answer/retrieval-query";
import { corrected, editDistance, spellingCorrections } from "../../lib/answer/spelling";
import { chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeChunks } from "../../lib/retrieval/vectorize";
import type { SearchHit } from "../../lib/retrieval/vector-index";
import type { Locale } from "../../lib/text/tokenize";

const page = (text: string): ChunkSource => ({ chatbotId: "bot", sourceId: "page", kind: "text", title: "Handbook", text });

async function indexOf(text: string, locale: Locale = "en"): Promise<(query: QuestionQuery) => Promise<SearchHit[]>> {
	const index = new GenerationIndex();
	for (const item of await vectorizeChunks(chunkSources([page(text)]), { locale })) index.add(item);
	return async query => index.search({ sparse: query.sparse }, 16);
}

/** Every chunk of the text as a hit, as a retrieval that found the whole page would give. */
async function hitsOf(text: string, locale: Locale = "en"): Promise<SearchHit[]> {
	return (await vectorizeChunks(chunkSources([page(text)]), { locale })).map((item, i) => ({ chunk: item.chunk, score: 1 / (1 + i) }));
}

const HANDBOOK = "Support: the help desk in Tromsø answers on weekdays between 08:15 and 16:45. Descaling: the kettle should be descaled every 11 weeks.";

describe("editDistance", () => {
	test.each([
		["support", "suport", 1],
		["warranty", "wararnty", 1],
		// "s" and "d" are neighbouring keys, "s" and "t" are not.
		["parsing", "parding", 1],
		["parsing", "parting", 2],
		["kettle", "kettle", 0]
	])("%s ~ %s: %d", (a, b, expected) => {
		expect(editDistance(a, b, 2)).toBe(expected);
	});

	it("stops at the budget", () => {
		expect(editDistance("abcdefgh", "zyxwvuts", 1)).toBe(2);
	});
});

describe("spellingCorrections", () => {
	it("corrects a dropped or swapped letter to the word the retrieved text uses", async () => {
		const hits = await hitsOf(HANDBOOK);
		const options = spellingFor("en");
		expect(corrected("What hours is suport open?", await spellingCorrections("What hours is suport open?", "en", hits, options))).toBe("What hours is support open?");
		const slip = await spellingCorrections("How often should the kettle be desacled?", "en", hits, options);
		expect(slip).toEqual([{ word: "desacled", at: 31, replacement: "descaled", term: expect.any(String), from: "retrieved" }]);
	});

	it("leaves words spelled right, names, code and derivations of retrieved words as they are", async () => {
		const hits = await hitsOf(`${HANDBOOK} Pages are fetched once. The parting words of the manual.`);
		const options = spellingFor("en");
		for (const question of [
			// A word of the language the text does not use: a paraphrase, not a slip.
			"When is the service counter staffed?",
			// Names: capitalised, in code, joined by an underscore or a hyphen.
			"Does Tromso close in winter?",
			"What does getDescald return?",
			"Is max_descald set?",
			// A derivation of a retrieved word ("fetched"), which passage scoring relates.
			"Which fetcher reads the pages?"
		]) {
			expect([question, await spellingCorrections(question, "en", hits, options)]).toEqual([question, []]);
		}
		// "s" for "t" is no slip of the keyboard, the keys being apart: the retrieved "parting" is not
		// what "parsing" meant. (With the lexicon, "parsing" is offered a common word one key away, which
		// retrieveFor keeps only if the sources hold it: below.)
		expect(await spellingCorrections("What happens when parsing fails?", "en", hits, {})).toEqual([]);
	});

	it("corrects to the commonest word of the language when the retrieved text has none near", async () => {
		expect(corrected("How long is the wararnty?", await spellingCorrections("How long is the wararnty?", "en", [], spellingFor("en")))).toBe("How long is the warranty?");
	});

	it("reads Spanish, which has no lexicon, only in long words", async () => {
		const hits = await hitsOf("La garantía dura 37 meses. Los pedidos pasan por Bergen.", "es");
		expect(corrected("¿Cuánto dura la garnatía?", await spellingCorrections("¿Cuánto dura la garnatía?", "es", hits))).toBe("¿Cuánto dura la garantía?");
		// "pagar" is one key from "pasar" and a word of its own.
		expect(await spellingCorrections("¿Se puede pagar aparte?", "es", hits)).toEqual([]);
		// Six letters are enough.
		const shipping = await hitsOf("El envío cuesta 5 euros y tarda dos días.", "es");
		expect(corrected("¿Cuánto cuetsa el envío?", await spellingCorrections("¿Cuánto cuetsa el envío?", "es", shipping))).toBe("¿Cuánto cuesta el envío?");
	});

	it("looks beyond the retrieved text for two slips of a message at most, with one search", async () => {
		const lookUp = jest.fn(async (_words: readonly string[]): Promise<SearchHit[]> => []);
		const question = "Does the wararnty cover brokne parts and the guarnatee?";
		const got = await spellingCorrections(question, "en", [], spellingFor("en"), lookUp);
		expect(lookUp).toHaveBeenCalledTimes(1);
		const looked = lookUp.mock.calls[0][0];
		expect(looked).toEqual(expect.arrayContaining(["warranty", "broken"]));
		expect(looked).not.toContain("guarantee");
		// Nothing found in the index: the lexicon corrects the two, the third stays as typed.
		expect(got.map(c => [c.word, c.from])).toEqual([
			["wararnty", "lexicon"],
			["brokne", "lexicon"]
		]);
	});

	it("keeps the first letter: a slip there is too rare to tell from another word", async () => {
		const hits = await hitsOf("The cable goes in the left port. The table stands on the right.");
		// "k" is beside "l": "cabke" is "cable", never "table".
		expect((await spellingCorrections("Where does the cabke go?", "en", hits, spellingFor("en"))).map(c => c.replacement)).toEqual(["cable"]);
		expect(await spellingCorrections("Where does the xable go?", "en", hits, {})).toEqual([]);
	});
});

describe("retrieveFor", () => {
	it("retrieves again for the corrected question and answers that one", async () => {
		const search = await indexOf(HANDBOOK);
		const got = await retrieveFor("What hours is suport open?", [], "en", search, spellingFor("en"));
		expect(got.question).toBe("What hours is support open?");
		expect(got.hits.length).toBeGreaterThan(0);
	});

	it("drops a correction to a common word that the new retrieval does not meet", async () => {
		const parting = await indexOf("The parting words of the manual. Reading stops on empty files.");
		expect((await retrieveFor("What happens when parsing fails?", [], "en", parting, spellingFor("en"))).question).toBe("What happens when parsing fails?");
		// The sources never say "warranty": "wararnty" stays as asked rather than become a word they lack.
		const search = await indexOf("Shipping inside Norway is free. Orders ship from Bergen.");
		const got = await retrieveFor("How long is the wararnty?", [], "en", search, spellingFor("en"));
		expect(got.question).toBe("How long is the wararnty?");
	});

	it("corrects a slip the retrieved text does not explain to a word of the chatbot's other chunks", async () => {
		// Spanish has no lexicon, and the misspelled word is the only one that could find its page:
		// the first retrieval meets nothing, the search for the slip's variants finds "descalcificar".
		const search = jest.fn(await indexOf("La garantía dura 37 meses.\n\nHay que descalcificar el hervidor cada 11 semanas.\n\nLos pedidos salen de Bergen.", "es"));
		const got = await retrieveFor("¿Cuándo conviene dsecalcificar?", [], "es", search, spellingFor("es"));
		expect(got.question).toBe("¿Cuándo conviene descalcificar?");
		expect(got.hits.map(hit => hit.chunk.text).join(" ")).toContain("cada 11 semanas");
		// The question's own retrieval, the variants' search, and the corrected question's retrieval.
		expect(search).toHaveBeenCalledTimes(3);
	});

	it("takes no derivation of the slip from the chatbot's chunks for its correction", async () => {
		// "fetcher" is unknown to the lexicon and one key from "fetched", but a form of the same word:
		// passage scoring relates the two, and the question means what it says.
		const search = await indexOf("The crawler fetched every page twice. Pages are kept for a week.");
		expect((await retrieveFor("Who runs the fetcher?", [], "en", search, spellingFor("en"))).question).toBe("Who runs the fetcher?");
	});

	it("corrects a slip of a stop word, which no text explains, to the stop word", async () => {
		const lookUp = jest.fn(async (_words: readonly string[]): Promise<SearchHit[]> => []);
		const english = await spellingCorrections("Shuold the agent open the link thorugh the widget?", "en", [], spellingFor("en"), lookUp);
		// "thorugh" is one edit from "through" and from "though": the slip of its length is meant.
		expect(english.map(c => [c.word, c.replacement, c.from])).toEqual([
			["Shuold", "should", "stop word"],
			["thorugh", "through", "stop word"]
		]);
		// The lexicon vouches that both are no words: the index is not searched for them.
		expect(lookUp).not.toHaveBeenCalled();
		// Spanish has no lexicon, so a slip may be a word of the chatbot's pages: they are searched
		// first ("estados" is one letter from the stop word "estado"), and, finding nothing, the stop word stands.
		const spanish = await spellingCorrections("¿y cunátas páginas rastrea?", "es", [], spellingFor("es"), lookUp);
		expect(lookUp).toHaveBeenCalledTimes(1);
		expect(spanish.map(c => [c.word, c.replacement, c.from])).toEqual([["cunátas", "cuantas", "stop word"]]);
	});

	it("keeps a question without slips as it is, with one retrieval", async () => {
		const search = jest.fn(await indexOf(HANDBOOK));
		const got = await retrieveFor("When is the help desk open?", [], "en", search, spellingFor("en"));
		expect(got.question).toBe("When is the help desk open?");
		expect(search).toHaveBeenCalledTimes(1);
	});
});
