/**
 * Grouping the Improve page's questions (lib/chat/question-groups.ts): time for 1,000, 10,000 and
 * 100,000 questions, beside a baseline measured in the same run that groups the way a first
 * attempt would — each question compared with every group found so far (term sets equal) — so the
 * table shows the hash-map grouping growing linearly while the pairwise one grows with
 * questions × groups. Both must produce the same group sizes.
 *
 * Questions: a few hundred topics, each asked in several wordings (case, punctuation, plurals,
 * stop words), drawn with the project's seeded PRNG.
 *
 * Run: `npx tsx bench/question-groups.bench.ts`. `run()` returns the rows for an aggregator.
 */
import { AskedQuestion, groupQuestions } from "../lib/chat/question-groups";
import { prng } from "../lib/random/prng";
import { analyze } from "../lib/text/tokenize";
import { printMarkdownTable, runStandalone } from "./table";

export interface BenchRow {
	questions: number;
	groups: number;
	ms: number;
	baselineMs: number;
}

const NOUNS = ["refund", "warranty", "ferry", "bike", "helmet", "ticket", "locker", "tour", "map", "battery", "charger", "basket", "lock", "seat", "tyre", "pump", "bell", "light", "child seat", "tandem"];
const ASKS = ["what is the {n} policy", "how much is a {n}", "where can I find the {n}", "do you have a {n}", "is the {n} included", "can I book a {n}"];

function questions(count: number, random: () => number): AskedQuestion[] {
	const out: AskedQuestion[] = [];
	for (let i = 0; i < count; i++) {
		const noun = NOUNS[Math.floor(random() * NOUNS.length)];
		const ask = ASKS[Math.floor(random() * ASKS.length)].replace("{n}", random() < 0.3 ? `${noun}s` : noun);
		const text = random() < 0.5 ? `${ask[0].toUpperCase()}${ask.slice(1)}?` : `${ask.toUpperCase()}!!`;
		out.push({ id: String(i), question: `${text} (#${Math.floor(random() * 40)})`, at: i, answered: random() < 0.5 });
	}
	return out;
}

/** The pairwise grouping: every question against every group so far. */
function pairwise(asked: readonly AskedQuestion[]): number[] {
	const groups: Array<{ terms: Set<string>; count: number }> = [];
	for (const q of asked) {
		const terms = new Set(analyze(q.question, "en"));
		const same = groups.find(g => g.terms.size === terms.size && [...terms].every(t => g.terms.has(t)));
		if (same) same.count++;
		else groups.push({ terms, count: 1 });
	}
	return groups.map(g => g.count).sort((a, b) => b - a);
}

function timed<T>(work: () => T): { result: T; ms: number } {
	const start = process.hrtime.bigint();
	const result = work();
	return { result, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

export async function run(sizes = [1_000, 10_000, 100_000]): Promise<BenchRow[]> {
	const rows: BenchRow[] = [];
	groupQuestions(questions(2_000, prng(1)), "en"); // warm the stemmer cache
	for (const size of sizes) {
		const asked = questions(size, prng(size));
		const ours = timed(() => groupQuestions(asked, "en"));
		const baseline = timed(() => pairwise(asked));
		const sizesOurs = ours.result.map(g => g.count).sort((a, b) => b - a);
		if (JSON.stringify(sizesOurs) !== JSON.stringify(baseline.result)) throw new Error(`groupings differ at ${size} questions`);
		rows.push({ questions: size, groups: ours.result.length, ms: ours.ms, baselineMs: baseline.ms });
	}
	return rows;
}

export function printTable(rows: BenchRow[]): void {
	printMarkdownTable(
		rows.map(r => ({
			questions: r.questions.toLocaleString("en"),
			groups: String(r.groups),
			"hash-map grouping (ms)": r.ms.toFixed(1),
			"pairwise baseline (ms)": r.baselineMs.toFixed(1),
			"µs per question (ours)": ((r.ms * 1000) / r.questions).toFixed(2)
		}))
	);
}

if (require.main === module) runStandalone("Question grouping", () => run(), printTable);
