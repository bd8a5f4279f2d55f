import * as path from "node:path";
import { lexiconFor } from "../../lib/answer/lexicon";
import { phrasalKey, phrasalVerbs } from "../../lib/text/phrasal";
import { decodeRelatedWords, encodeRelatedWords, OPPOSITE, readRelatedWords } from "../../lib/text/related-words";
import { analyze } from "../../lib/text/tokenize";

const term = (word: string) => analyze(word, "en")[0];

describe("related words file", () => {
	test("round-trips pairs both ways, keeping the stronger of duplicates", () => {
		const file = encodeRelatedWords([
			{ a: "keep", b: "retain", strength: 0.9 },
			{ a: "retain", b: "keep", strength: 0.5 },
			{ a: "buy", b: "purchas", strength: 0.8 },
			{ a: "zeta", b: "alpha", strength: 0.3 }
		]);
		const words = decodeRelatedWords(file);
		expect(words.terms).toBe(6);
		expect(words.pairs).toBe(3);
		expect(words.relatedness("keep", "retain")).toBeCloseTo(0.9);
		expect(words.relatedness("retain", "keep")).toBeCloseTo(0.9);
		expect(words.relatedness("purchas", "buy")).toBeCloseTo(0.8);
		expect(words.relatedness("alpha", "zeta")).toBeCloseTo(0.3);
		expect(words.relatedness("keep", "buy")).toBe(0);
		expect(words.relatedness("keep", "unknown")).toBe(0);
		expect(words.relatedness("keep", "keep")).toBe(0);
	});

	test("an opposite wins over any relatedness of the same pair, in either order", () => {
		const words = decodeRelatedWords(
			encodeRelatedWords([
				{ a: "long", b: "short", strength: 0.7 },
				{ a: "short", b: "long", strength: OPPOSITE },
				{ a: "max", b: "min", strength: OPPOSITE },
				{ a: "min", b: "max", strength: 0.9 },
				{ a: "keep", b: "retain", strength: 0.9 }
			])
		);
		expect(words.opposite("long", "short")).toBe(true);
		expect(words.opposite("min", "max")).toBe(true);
		expect(words.relatedness("short", "long")).toBe(0);
		expect(words.relatedness("max", "min")).toBe(0);
		expect(words.opposite("keep", "retain")).toBe(false);
		expect(words.opposite("keep", "unknown")).toBe(false);
		expect(words.relatedness("keep", "retain")).toBeCloseTo(0.9);
	});

	test("the English lexicon never relates opposites, though the word vectors put them close", () => {
		const { related } = lexiconFor("en");
		const relatedness = (a: string, b: string) => related?.(term(a), term(b)) ?? -1;
		for (const [a, b] of [["longest", "shortest"], ["increase", "decrease"], ["accept", "reject"], ["open", "close"], ["maximum", "minimum"], ["enable", "disable"]]) {
			expect([a, b, relatedness(a, b)]).toEqual([a, b, 0]);
		}
		// Synonyms and close words still are.
		expect(relatedness("begin", "start")).toBeGreaterThan(0.5);
		expect(relatedness("wait", "delay")).toBeGreaterThan(0.5);
	});

	test("a phrasal verb is found in a question and related, under its key, to what it means", () => {
		expect(phrasalVerbs("How do I leave out one namespace?")).toEqual([{ term: term("leave"), key: phrasalKey("leave", "out") }]);
		expect(phrasalVerbs("Where do orders ship from?")).toEqual([]);
		const words = readRelatedWords(path.join(__dirname, "../../assets/related-words.en.bin"));
		const key = phrasalKey("leave", "out") as string;
		expect(words?.relatedness(key, term("exclude"))).toBeGreaterThan(0.5);
		expect(words?.relatedness(key, term("omit"))).toBeGreaterThan(0.5);
		// The verb alone means something else.
		expect(words?.relatedness(term("leave"), term("exclude"))).toBe(0);
		expect(words?.relatedness(key, term("kettle"))).toBe(0);
		// A verb of two letters makes phrasal verbs too: "Must the value go up each time?" meets "rise".
		expect(phrasalVerbs("Must the value go up each time?")).toEqual([{ term: term("go"), key: phrasalKey("go", "up") }]);
		expect(words?.relatedness(phrasalKey("go", "up") as string, term("rise"))).toBeGreaterThan(0.5);
		expect(words?.relatedness(phrasalKey("go", "on") as string, term("continue"))).toBeGreaterThan(0.5);
	});

	test("refuses a file of another kind, and reads an absent file as none", () => {
		expect(() => decodeRelatedWords(Buffer.from("not gzip"))).toThrow();
		expect(readRelatedWords(path.join(__dirname, "no-such-file.bin"))).toBeUndefined();
	});

	test("the shipped English file relates common synonyms and derivations, not unrelated words", () => {
		const words = readRelatedWords(path.join(__dirname, "../../assets/related-words.en.bin"));
		expect(words).toBeDefined();
		const related = (a: string, b: string) => words?.relatedness(term(a), term(b)) ?? 0;
		expect(related("retain", "keep")).toBeGreaterThan(0.5);
		expect(related("begin", "start")).toBeGreaterThan(0.5);
		expect(related("purchase", "buy")).toBeGreaterThan(0.5);
		expect(related("fail", "failure")).toBeGreaterThan(0.5);
		expect(related("kettle", "invoice")).toBe(0);
		const opposite = (a: string, b: string) => words?.opposite(term(a), term(b));
		expect(opposite("shortest", "longest")).toBe(true);
		expect(opposite("larger", "smaller")).toBe(true);
		expect(opposite("include", "exclude")).toBe(true);
		expect(opposite("begin", "start")).toBe(false);
		expect(related("price", "weather")).toBe(0);
	});
});
