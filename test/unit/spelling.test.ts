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
		expect(corrected("What hours is suport open?", spellingCorrections("What hours is suport open?", "en", hits, options))).toBe("What hours is support open?");
		const slip = spellingCorrections("How often should the kettle be desacled?", "en", hits, options);
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
			expect([question, spellingCorrections(question, "en", hits, options)]).toEqual([question, []]);
		}
		// "s" for "t" is no slip of the keyboard, the keys being apart: the retrieved "parting" is not
		// what "parsing" meant. (With the lexicon, "parsing" is offered a common word one key away, which
		// retrieveFor keeps only if the sources hold it: below.)
		expect(spellingCorrections("What happens when parsing fails?", "en", hits, {})).toEqual([]);
	});

	it("corrects to the commonest word of the language when the retrieved text has none near", () => {
		expect(corrected("How long is the wararnty?", spellingCorrections("How long is the wararnty?", "en", [], spellingFor("en")))).toBe("How long is the warranty?");
	});

	it("reads Spanish, which has no lexicon, only in long words", async () => {
		const hits = await hitsOf("La garantía dura 37 meses. Los pedidos pasan por Bergen.", "es");
		expect(corrected("¿Cuánto dura la garnatía?", spellingCorrections("¿Cuánto dura la garnatía?", "es", hits))).toBe("¿Cuánto dura la garantía?");
		// "pagar" is one key from "pasar" and a word of its own.
		expect(spellingCorrections("¿Se puede pagar aparte?", "es", hits)).toEqual([]);
	});

	it("keeps the first letter: a slip there is too rare to tell from another word", async () => {
		const hits = await hitsOf("The cable goes in the left port. The table stands on the right.");
		// "k" is beside "l": "cabke" is "cable", never "table".
		expect(spellingCorrections("Where does the cabke go?", "en", hits, spellingFor("en")).map(c => c.replacement)).toEqual(["cable"]);
		expect(spellingCorrections("Where does the xable go?", "en", hits, {})).toEqual([]);
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

	it("keeps a question without slips as it is, with one retrieval", async () => {
		const search = jest.fn(await indexOf(HANDBOOK));
		const got = await retrieveFor("When is the help desk open?", [], "en", search, spellingFor("en"));
		expect(got.question).toBe("When is the help desk open?");
		expect(search).toHaveBeenCalledTimes(1);
	});
});
