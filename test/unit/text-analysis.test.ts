import { analyze, foldAccents, splitSentences, termSet } from "../../lib/text/tokenize";

describe("analyze", () => {
	test("lower-cases, drops English stop words and stems", () => {
		expect(analyze("How long is the Warranty? The warranties LAST", "en")).toEqual(["long", "warranti", "warranti", "last"]);
	});

	test("indexes a camelCase name whole and by its words", () => {
		expect(analyze("maxRetries getSetCookies", "en")).toEqual(["maxretries", "max", "retri", "getsetcookies", "set", "cooki"]);
		// A question in plain words meets the option by its words.
		expect(analyze("maximum retries", "en")).toContain("retri");
	});

	test("keeps numbers verbatim, including decimals and thousands separators", () => {
		expect(analyze("It lasts 37 months, weighs 3.5 kg and costs 1,000 dollars", "en")).toEqual(
			expect.arrayContaining(["37", "3.5", "1,000"])
		);
	});

	test("a number glued to its unit also yields the bare number", () => {
		expect(analyze("1kb = 1024b, wait 15s", "en")).toEqual(expect.arrayContaining(["1024b", "1024", "15s", "15"]));
		expect(analyze("Is a kilobyte 1024 bytes?", "en").filter(t => analyze("1kb = 1024b", "en").includes(t))).toEqual(["1024"]);
	});

	test("reads an acronym's plural as the acronym", () => {
		expect(analyze("scanned PDFs", "en")).toEqual(analyze("a scanned PDF", "en"));
		expect(analyze("APIs", "es")).toEqual(analyze("API", "es"));
	});

	test("keeps a lone letter glued to a symbol (a format directive, a flag) and drops other lone letters", () => {
		expect(analyze("%j JSON", "en")).toEqual(["j", "json"]);
		expect(analyze("What does %j print?", "en")).toContain("j");
		expect(analyze("run with -v", "en")).toContain("v");
		expect(analyze("plan b or x", "en")).toEqual(["plan"]);
	});

	test("keeps a hyphenated model name whole and also its parts", () => {
		const terms = analyze("The Zephyr-9 kettle", "en");
		expect(terms).toEqual(["zephyr-9", "zephyr", "9", "kettl"]);
		// A query for the exact name shares more terms with it than a query for the family does.
		const exact = termSet("zephyr-9", "en");
		const family = termSet("zephyr", "en");
		expect([...exact].filter(t => terms.includes(t)).length).toBeGreaterThan([...family].filter(t => terms.includes(t)).length);
	});

	test("treats typographic apostrophes like ASCII ones", () => {
		expect(analyze("Don’t worry", "en")).toEqual(analyze("Don't worry", "en"));
		expect(analyze("Don't worry", "en")).toEqual(["worri"]);
	});

	test("stems Spanish and folds accents so accented and unaccented spellings meet", () => {
		expect(analyze("¿Cuánto dura la garantía?", "es")).toEqual(["dur", "garant"]);
		expect(analyze("Cuanto dura la garantia", "es")).toEqual(["dur", "garant"]);
		expect(analyze("las garantías duran", "es")).toEqual(["garant", "dur"]);
		expect(new Set(analyze("devolución devolucion devoluciones Devolución", "es")).size).toBe(1);
		expect(new Set(analyze("categoría categoria categorías", "es")).size).toBe(1);
	});

	test("drops Spanish stop words but not English content words in Spanish text", () => {
		expect(analyze("el precio de los envíos a España", "es")).toEqual(["preci", "envi", "españ"]);
	});

	test("keeps ñ while folding other accents", () => {
		expect(foldAccents("año")).toBe("año");
		expect(foldAccents("canción")).toBe("cancion");
	});

	test("reads plain ASCII text and text needing Unicode normalisation into the same terms", () => {
		// ASCII words skip normalisation and accent folding; compatibility forms (a ligature,
		// full-width letters) must still meet their ASCII spelling.
		expect(analyze("ﬁle ＰＤＦ maxRetries", "en")).toEqual(["file", "pdf", "maxretries", "max", "retri"]);
		expect(analyze("file PDF maxRetries", "en")).toEqual(["file", "pdf", "maxretries", "max", "retri"]);
		// A camelCase or hyphenated name with accents is split and folded as an ASCII one is.
		expect(analyze("máxReintentos", "es")).toEqual(["maxreintentos", "max", "reintent"]);
		expect(analyze("Garantía-Extendida", "es")).toEqual(["garantia-extendida", "garant", "extend"]);
		// A word's term is remembered per locale: its second occurrence reads as the first did, and a
		// dropped word stays dropped.
		expect(analyze("Warranties warranties", "en")).toEqual(["warranti", "warranti"]);
		expect(analyze("las LAS las", "es")).toEqual([]);
	});

	test("a symbol standing alone is a term, once per run, and so are the words naming it", () => {
		expect(analyze("three or more matching -, _, or * characters", "en")).toEqual(["three", "match", "-", "_", "*", "charact"]);
		expect(analyze("How far may the > be indented? (`*`) \"#\" [~] a + b = 2", "en")).toEqual(["far", ">", "indent", "*", "#", "~", "+", "=", "2"]);
		expect(analyze("***\n---\n> > quoted", "en")).toEqual(["*", "-", ">", ">", "quot"]);
		expect(analyze("dashes, asterisks, stars, hyphens, underscores, hashes, backticks, tildes, backslashes", "en")).toEqual(["-", "*", "*", "-", "_", "#", "`", "~", "\\"]);
		expect(analyze("guiones, asteriscos y almohadillas", "es")).toEqual(["-", "*", "#"]);
		// A symbol joined to a word or to another symbol is no symbol standing alone: a flag, a range,
		// a tag, emphasis, a language's name.
		expect(analyze("-v 1--6 <pre> **bold** C++ a->b", "en")).toEqual(["v", "1", "6", "pre", "bold"]);
		// Names that mean something else in documentation stay words: a stream's pipe, the Spanish accent.
		expect(analyze("pipe", "en")).toEqual(["pipe"]);
		expect(analyze("tilde", "es")).toEqual(["tild"]);
	});

	test("ignores punctuation-only and over-long tokens", () => {
		expect(analyze("... !!! ?? // @@", "en")).toEqual([]);
		expect(analyze("x".repeat(60) + " kettle", "en")).toEqual(["kettl"]);
	});
});

describe("splitSentences", () => {
	test("splits on terminal punctuation followed by a capital", () => {
		expect(splitSentences("The warranty lasts 37 months. It covers parts! Does it cover labour? Yes.")).toEqual([
			"The warranty lasts 37 months.",
			"It covers parts!",
			"Does it cover labour?",
			"Yes."
		]);
	});

	test("does not split after abbreviations, initials or inside decimals", () => {
		expect(splitSentences("Dr. Smith and J. Doe measured 3.5 kg, e.g. on Mon. at noon. Next sentence.")).toEqual([
			"Dr. Smith and J. Doe measured 3.5 kg, e.g. on Mon. at noon.",
			"Next sentence."
		]);
	});

	test("handles Spanish opening marks and abbreviations", () => {
		expect(splitSentences("¿Cuánto dura? Dura 24 meses. ¡Genial! La Sra. García lo confirmó.")).toEqual([
			"¿Cuánto dura?",
			"Dura 24 meses.",
			"¡Genial!",
			"La Sra. García lo confirmó."
		]);
	});

	test("treats line breaks as boundaries and skips blank lines", () => {
		expect(splitSentences("First line\n\nSecond line.  Third one.\n")).toEqual(["First line", "Second line.", "Third one."]);
	});

	test("keeps quotes and brackets with their sentence", () => {
		expect(splitSentences('He said "stop." Then he left (quickly.) Done.')).toEqual([
			'He said "stop."',
			"Then he left (quickly.)",
			"Done."
		]);
	});
});
