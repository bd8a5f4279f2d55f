/**
 * Answer-quality benchmark: the development set (bench/answers/dev-set.ts, 200+ paraphrased
 * questions over seven corpora of real prose, English and Spanish, follow-ups in conversations, list
 * and number answers, near-miss out-of-scope questions) asked of the answerer before issue 12 (the
 * baseline) and of the current one, in the same run, over the same indexes.
 *
 * Each corpus is indexed as a chatbot would be (crawled-page text → chunker → BM25 → embedded
 * generation index); no model and no network. Tables, per corpus and language, for the dev split
 * and the held-out split (never tuned on): answered with the fact, declined, wrong answer,
 * out-of-scope declined, citation correctness. Then the answer/decline trade-off curve of the
 * current answerer on the dev split, and the questions of both splits asked with one slip of the
 * keyboard each (slips.ts), without and with spelling correction (lib/answer/spelling.ts).
 *
 * `ANSWERS_DUMP=1` also prints the dev split's misses (never the held-out split's).
 * Run: `npx tsx bench/answers.bench.ts`.
 */
import type { GenerationIndex } from "../lib/retrieval/embedded-generation";
import { ANSWER_THRESHOLD } from "../lib/answer/calibration";
import { indexCorpus } from "./answers/index-corpus";
import { CORPORA, DevQuestion, isHeldOut, QUESTIONS } from "./answers/dev-set";
import { grade, Graded, percent, summaryColumns } from "./answers/evaluate";
import { staleFacts } from "./answers/stale-facts";
import { withSlip } from "./answers/slips";
import { AnswerSystem, baseline, current, currentWithoutSpelling, SystemResult } from "./answers/systems";
import { printMarkdownTable, runStandalone } from "./table";

export interface AnswerBenchResult {
	graded: Record<string, Graded[]>;
	probabilities: Array<{ question: DevQuestion; probability: number; fact: boolean }>;
	/** Both splits asked again with one slip of the keyboard each (slips.ts), without and with correction. */
	slips: Record<string, Graded[]>;
}


/** Asks every question of a corpus, conversations in order, each turn with its earlier questions. */
async function askAll(system: AnswerSystem, index: GenerationIndex, locale: "en" | "es", questions: DevQuestion[]): Promise<Map<string, SystemResult>> {
	const results = new Map<string, SystemResult>();
	const histories = new Map<string, string[]>();
	for (const question of questions) {
		const history = question.conv ? (histories.get(question.conv) ?? []) : [];
		results.set(question.id, await system.ask(index, { question: question.q, history: [...history], locale }));
		if (question.conv) histories.set(question.conv, [...history, question.q]);
	}
	return results;
}

export async function run(): Promise<AnswerBenchResult> {
	for (const stale of staleFacts()) console.warn(`Warning: ${stale.id}'s pages no longer hold ${JSON.stringify(stale.missing)}; its figures count correct answers as wrong.`);
	const graded: Record<string, Graded[]> = { [baseline.name]: [], [current.name]: [] };
	const probabilities: AnswerBenchResult["probabilities"] = [];
	const slips: Record<string, Graded[]> = { [currentWithoutSpelling.name]: [], [current.name]: [] };
	for (const corpus of CORPORA) {
		const index = await indexCorpus(corpus);
		const { locale } = corpus;
		const questions = QUESTIONS.filter(q => q.corpus === corpus.name);
		for (const system of [baseline, current]) {
			const results = await askAll(system, index, locale, questions);
			for (const question of questions) {
				const result = results.get(question.id) as SystemResult;
				const g = grade(question, result);
				graded[system.name].push(g);
				if (system === current && result.probability !== undefined) {
					const candidate = result.candidate ?? result;
					probabilities.push({ question, probability: result.probability, fact: !question.oos && grade(question, candidate).verdict === "fact" });
				}
			}
		}
		const slipped = questions.map(q => ({ ...q, q: withSlip(q.q) }));
		for (const system of [currentWithoutSpelling, current]) {
			const results = await askAll(system, index, locale, slipped);
			for (const question of questions) slips[system.name].push(grade(question, results.get(question.id) as SystemResult));
		}
	}
	return { graded, probabilities, slips };
}

function rowsFor(label: string, language: string, system: string, graded: Graded[]): Record<string, string> {
	return { corpus: label, lang: language, answerer: system, ...summaryColumns(graded) };
}

function splitTable(result: AnswerBenchResult, heldOut: boolean): Array<Record<string, string>> {
	const rows: Array<Record<string, string>> = [];
	const groups: Array<{ label: string; lang: string; match: (q: DevQuestion) => boolean }> = [
		...CORPORA.map(c => ({ label: c.name, lang: c.locale, match: (q: DevQuestion) => q.corpus === c.name })),
		{ label: "all English", lang: "en", match: q => CORPORA.find(c => c.name === q.corpus)?.locale === "en" },
		{ label: "all Spanish", lang: "es", match: q => CORPORA.find(c => c.name === q.corpus)?.locale === "es" },
		{ label: "ALL", lang: "en+es", match: () => true }
	];
	for (const group of groups) {
		for (const [system, graded] of Object.entries(result.graded)) {
			rows.push(rowsFor(group.label, group.lang, system, graded.filter(g => group.match(g.question) && isHeldOut(g.question) === heldOut)));
		}
	}
	return rows;
}

/** In-scope answered with the fact vs out-of-scope declined, as the threshold moves (dev split). */
function tradeOff(result: AnswerBenchResult): Array<Record<string, string>> {
	const dev = result.probabilities.filter(p => !isHeldOut(p.question));
	const inScope = dev.filter(p => !p.question.oos);
	const oos = dev.filter(p => p.question.oos);
	const thresholds = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
	if (!thresholds.includes(ANSWER_THRESHOLD)) thresholds.push(ANSWER_THRESHOLD);
	return thresholds
		.sort((a, b) => a - b)
		.map(t => ({
			threshold: `${t.toFixed(2)}${t === ANSWER_THRESHOLD ? " (used)" : ""}`,
			"in-scope answered with fact": percent(inScope.filter(p => p.probability >= t && p.fact).length, inScope.length),
			"in-scope answered without fact": percent(inScope.filter(p => p.probability >= t && !p.fact).length, inScope.length),
			"out-of-scope declined": percent(oos.filter(p => p.probability < t).length, oos.length)
		}));
}

function dumpMisses(result: AnswerBenchResult): void {
	for (const g of result.graded[current.name]) {
		if (isHeldOut(g.question)) continue;
		const ok = g.question.oos ? g.verdict === "declined" : g.verdict === "fact" && g.citationOk;
		if (ok) continue;
		const probe = result.probabilities.find(x => x.question.id === g.question.id);
		const p = probe?.probability ?? 0;
		if (process.env.ANSWERS_DUMP === "ceiling" && (g.question.oos || probe?.fact)) continue;
		console.log(`\n[${g.question.id} ${g.verdict}${g.question.oos ? " OOS" : ""} p=${p.toFixed(2)}] ${g.question.q}  facts=${JSON.stringify(g.question.facts)} cited=${g.outcome.cited}`);
		console.log(`   → ${(g.outcome as SystemResult).candidate?.text.replace(/\n/g, " ⏎ ").slice(0, 300)}`);
	}
}

/** The current answerer as the questions were written, and with one slip each, without and with correction (both splits). */
function slipTable(result: AnswerBenchResult): Array<Record<string, string>> {
	const rows: Array<Record<string, string>> = [];
	for (const locale of ["en", "es"] as const) {
		const ofLocale = (g: Graded) => CORPORA.find(c => c.name === g.question.corpus)?.locale === locale;
		rows.push({ lang: locale, questions: "as written", ...summaryColumns(result.graded[current.name].filter(ofLocale)) });
		for (const [system, graded] of Object.entries(result.slips)) rows.push({ lang: locale, questions: `one slip, ${system === current.name ? "corrected" : "no correction"}`, ...summaryColumns(graded.filter(ofLocale)) });
	}
	return rows;
}

export function printTable(result: AnswerBenchResult): void {
	printMarkdownTable(splitTable(result, false), "Dev split (tuned on):");
	console.log("");
	printMarkdownTable(splitTable(result, true), "Held-out split (never tuned on):");
	console.log("");
	printMarkdownTable(tradeOff(result), "Answer/decline trade-off of the new answerer (dev split):");
	console.log("");
	printMarkdownTable(slipTable(result), "One slip of the keyboard in each question's longest word (both splits, new answerer):");
	if (process.env.ANSWERS_DUMP) dumpMisses(result);
}

if (require.main === module) runStandalone("answers", run, printTable);
