import * as path from "node:path";
import { decodeRelatedWords, encodeRelatedWords, readRelatedWords } from "../../lib/text/related-words";
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
		expect(related("price", "weather")).toBe(0);
	});
});
