/**
 * How well each candidate passage supports the answer to a question, and the evidence the
 * answer-or-decline decision reads (see calibration.ts).
 *
 * Each question term weighs its conversation weight (1 for the question's own terms) times its
 * rarity among the retrieved chunks, so a term every chunk shares counts little and a term no
 * chunk has counts most; the heaviest own term (past common words) is the question's focus. A
 * passage matches a term exactly, through its heading or page title (the context a crawled
 * section carries), or through a related word (a shared word stem across derivations such as
 * "rastrea"/"rastreadas", or a related word from the optional `related` lexicon). From these come
 * the passage's features: the weight
 * share matched each way, whether the focus is matched at all, whether it holds the kind of answer
 * the question expects (answer-type.ts), whether a condition it states holds the case the question
 * asks about (condition.ts), how close together the matched words stand, how much it
 * says beyond the question's own words, its chunk's retrieval rank and its length. A passage's
 * score is a weighted sum of them, with weights fitted on the development set of the answer
 * benchmark (calibration.ts `RANKER`).
 */
import type { Locale } from "../text/tokenize";
import { AnswerType, countsTheThing, CUE_ONLY, holdsAnswerType, identifierTerms, RANKING_ONLY } from "./answer-type";
import { RANKER } from "./calibration";
import { analyzedChunk } from "./chunk-analysis";
import type { WeightedQuestion } from "./follow-up";
import { statedConditions } from "./condition";
import type { Passage } from "./passages";

/** A term ranked below this in general use is common enough to be a paraphrase rather than a new topic. */
const COMMON_RANK = 8000;
/** Relatedness from which a word counts as standing for the term. */
const KNOWN_RELATEDNESS = 0.5;
/** Fewer retrieved chunks than this means a tiny index, whose BM25 scores say little about strength. */
const SMALL_POOL = 8;
/** Retrieval strength of a typical answerable question in the dev set (median top BM25 per term). */
const TYPICAL_RETRIEVAL = 2;
/** Relatedness of two stems that share a long prefix (derivations the stemmer keeps apart). */
const PREFIX_RELATEDNESS = 0.8;
const MIN_SHARED_PREFIX = 4;
/** Relatedness of a word and a compound that begins or ends with it. */
const COMPOUND_RELATEDNESS = 0.6;
const MIN_COMPOUND_PART = 3;
const LONG_PASSAGE_CHARS = 450;
/** Words of its own (not the question's) beyond which a passage is not more informative. */
const NOVEL_TERMS_CAP = 8;
/**
 * Related words are sought for this many of the question's terms, the heaviest: each search reads
 * every word of the retrieved passages, and a message of 2,000 characters (the chat API's longest)
 * has some 300 terms, where a question has a handful. Such a message took 36 to 82 ms to answer
 * over the benchmark's English corpora, 11 to 15 ms with this bound; the other terms still match
 * word for word.
 */
export const MAX_RELATED_TERMS = 32;
/** Share of the retrieved chunks from which an acronym is the site's common vocabulary ("API" on API docs). */
const GENERIC_ACRONYM_SHARE = 0.25;

/** Relatedness of two analysed terms in [0, 1]; 0 when unrelated. */
export type RelatednessFn = (a: string, b: string) => number;

/** The features of a passage, in the order of `RANKER` weights. */
export interface PassageFeatures {
	/** Weight share of the question's own terms found in the passage itself. */
	exact: number;
	/** … found only in the chunk's heading or page title. */
	heading: number;
	/** … matched only by a related word, times its relatedness. */
	related: number;
	/** Weight share of the earlier turns' terms matched (0 when the question stands alone). */
	context: number;
	/** 1 when the question's focus (its heaviest own term, common words passed over) is matched in no way. */
	focusMissing: number;
	/** 1 when the question expects a kind of answer (a price, a duration…) and the passage has one. */
	typeFound: number;
	/** 1 when it expects one and the passage has none. */
	typeMissing: number;
	/** How close the matched words stand: matched terms over the words spanned, in (0, 1]. */
	proximity: number;
	/** Words the passage says beyond the question's, capped, in [0, 1]. */
	novelty: number;
	/** 1 / (1 + rank of the chunk in retrieval). */
	rank: number;
	/** Sentences or items beyond the first (a list counts one). */
	extraUnits: number;
	/** 1 when the passage is longer than `LONG_PASSAGE_CHARS`. */
	long: number;
	/** Weight share of the question's condition found in a condition the passage states (condition.ts; 0 when it sets none). */
	condition: number;
	/**
	 * Weight share of the question's own terms that the passage holds only in lines of code (an
	 * example's keys and values), not in its sentences; 0 for a question asking how to do something.
	 */
	codeOnly: number;
	/**
	 * 1 when the question asks for a name in code ("Which request returns the tools…?") and the
	 * passage writes one naming what the question speaks of ("tools/list", not "resources/list"),
	 * while some retrieved passage does; 0 otherwise.
	 */
	namesAsked: number;
}

export const PASSAGE_FEATURES: Array<keyof PassageFeatures> = [
	"exact",
	"heading",
	"related",
	"context",
	"focusMissing",
	"typeFound",
	"typeMissing",
	"proximity",
	"novelty",
	"rank",
	"extraUnits",
	"long",
	"condition",
	"codeOnly",
	"namesAsked"
];

export interface ScoredPassage {
	passage: Passage;
	score: number;
	features: PassageFeatures;
	/** The question's own terms the passage does not match in any way, with their weight shares. */
	unmatched: ReadonlyArray<{ term: string; share: number }>;
	/** The question's own terms that neither the passage nor its heading or page title holds (a related word is not the name itself). */
	unsaid: ReadonlySet<string>;
	/**
	 * True when the question asks for a kind of value that declines when absent (not a code name or
	 * a yes/no) and the passage holds none, said of what the question names: as the best passage it
	 * would be declined by rule (calibration.ts `declinedByRule`), so it ranks below every passage
	 * that holds one.
	 */
	lacksValue: boolean;
}

/** What the answer-or-decline decision reads (calibration.ts `DECISION`). */
export interface DecisionFeatures {
	/** Ranker score of the best passage. */
	best: number;
	/** Its lead over the best passage of any other chunk. */
	margin: number;
	exact: number;
	focusMissing: number;
	/**
	 * 1 when the question expects a value (a price, a duration, a count, a number, a time of day,
	 * a stated default) and the best passage holds none. A code name ("which header…") and a "not"
	 * in a yes/no answer are not counted here (`RANKING_ONLY`; the best passage's `lacksValue`):
	 * pages name a header in plain words as often as in code ("the Authorization header"), and say
	 * yes by stating the fact, so their absence only lowers a passage's rank.
	 */
	typeMissing: number;
	/**
	 * Weight share of the heaviest own term that nothing retrieved knows: in no retrieved chunk,
	 * related to no word there, and not a common word in general use. A question about something the
	 * sources never mention ("Can I pay with PayPal?") has one; a paraphrase mostly swaps common words.
	 */
	unknown: number;
	/** Top retrieval score per own term (BM25 strength, independent of question length). */
	retrieval: number;
	/** Weight share of the own terms the best passage matches in any way (exactly, by heading, by a related word). */
	covered: number;
	/**
	 * Weight share of the heaviest own term the best passage does not match and that is specific:
	 * not a common word in general use (every term counts as specific where the locale has no
	 * frequency list). "Does on-finished work with HTTP/2 streams?" answered by a passage without
	 * "HTTP/2" is a near miss; "start from zero" answered by "start at 1" only swaps a common word.
	 */
	missingSpecific: number;
	/** 1 when the question expects a kind of answer and the best passage holds one. */
	typeFound: number;
	/** 1 when a word the question writes as a name ("Aurora", "HTTP/2") is not matched by the best passage. */
	missingName: number;
	/** 1 when the question offers alternatives ("in seconds or in milliseconds?") and the best passage matches none of them. */
	missingChoice: number;
}

interface Credit {
	exact: number;
	heading: number;
	related: number;
	via?: string;
}

interface TermWeight {
	term: string;
	weight: number;
	own: boolean;
}

function sharedPrefix(a: string, b: string): number {
	const max = Math.min(a.length, b.length);
	let i = 0;
	while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
	return i;
}

/**
 * Derivations the stemmer leaves apart ("reclamacion"/"reclam", "rastread"/"rastre", "pars"/"parser")
 * and compounds holding the word ("bot" in "chatbot", "limit" in "ratelimit-remaining").
 */
export function formRelatedness(a: string, b: string): number {
	if (a === b) return 1;
	if (HAS_DIGIT.test(a) || HAS_DIGIT.test(b)) return 0;
	return lettersRelatedness(a, b);
}

const HAS_DIGIT = /\p{N}/u;

/** `formRelatedness` of two different terms already known to hold no digit (figures are never forms of each other). */
function lettersRelatedness(a: string, b: string): number {
	const shared = sharedPrefix(a, b);
	if (shared >= MIN_SHARED_PREFIX && shared >= 0.75 * Math.min(a.length, b.length)) return PREFIX_RELATEDNESS;
	const [short, long] = a.length <= b.length ? [a, b] : [b, a];
	if (short.length >= MIN_COMPOUND_PART && long.length > short.length + 2 && (long.endsWith(short) || long.startsWith(short))) return COMPOUND_RELATEDNESS;
	return 0;
}

/** IDF-like rarity of each question term among the retrieved chunks. */
function termWeights(question: WeightedQuestion, chunkTerms: ReadonlyMap<string, ReadonlySet<string>>): TermWeight[] {
	const n = Math.max(1, chunkTerms.size);
	const own = new Set(question.ownTerms);
	return [...question.terms].map(([term, weight]) => {
		let df = 0;
		for (const set of chunkTerms.values()) if (set.has(term)) df++;
		return { term, weight: weight * Math.log(1 + (n + 1) / (df + 0.5)), own: own.has(term) };
	});
}

/**
 * For each question term, the related terms present among the passages, with their relatedness. A
 * verb the question uses in a phrasal verb ("leave" in "leave out") is also related to what the
 * phrase means ("exclude"), through the phrase's key.
 */
function relatedTerms(weights: readonly TermWeight[], vocabulary: ReadonlySet<string>, phrases: WeightedQuestion["phrases"], related?: RelatednessFn): Map<string, Map<string, number>> {
	const out = new Map<string, Map<string, number>>();
	// Which words hold a figure is read once per word, not once per pair.
	const lettersOnly = new Set([...vocabulary].filter(word => !HAS_DIGIT.test(word)));
	const sought = [...weights].sort((a, b) => b.weight - a.weight).slice(0, MAX_RELATED_TERMS);
	for (const { term } of weights) out.set(term, new Map());
	for (const { term } of sought) {
		const keys = related ? phrases.filter(phrase => phrase.term === term).map(phrase => phrase.key) : [];
		const found = new Map<string, number>();
		const termLettersOnly = !HAS_DIGIT.test(term);
		for (const candidate of vocabulary) {
			if (candidate === term) continue;
			const form = termLettersOnly && lettersOnly.has(candidate) ? lettersRelatedness(term, candidate) : 0;
			let r = Math.max(form, related ? related(term, candidate) : 0);
			for (const key of keys) r = Math.max(r, (related as RelatednessFn)(key, candidate));
			if (r > 0) found.set(candidate, r);
		}
		out.set(term, found);
	}
	return out;
}

/** Matched terms over the span of word positions holding them: 1 when they stand side by side. */
function proximity(sequence: readonly string[], matched: ReadonlySet<string>): number {
	if (matched.size < 2) return matched.size === 1 ? 1 : 0;
	// Smallest window holding every matched term (two pointers over the sequence).
	const need = matched.size;
	const counts = new Map<string, number>();
	let have = 0;
	let best = Infinity;
	let left = 0;
	for (let right = 0; right < sequence.length; right++) {
		const term = sequence[right];
		if (!matched.has(term)) continue;
		const c = (counts.get(term) ?? 0) + 1;
		counts.set(term, c);
		if (c === 1) have++;
		while (have === need) {
			best = Math.min(best, right - left + 1);
			const leftTerm = sequence[left++];
			if (!matched.has(leftTerm)) continue;
			const lc = (counts.get(leftTerm) as number) - 1;
			counts.set(leftTerm, lc);
			if (lc === 0) have--;
		}
	}
	return Number.isFinite(best) ? need / best : 0;
}

/**
 * Weight share of the question's condition terms that one condition the passage states holds (the
 * best such condition), word for word or by a related word. `statedIn` reads a sentence's
 * conditions (cached per question).
 */
function conditionShare(
	p: Passage,
	asked: readonly TermWeight[],
	relatedByTerm: ReadonlyMap<string, ReadonlyMap<string, number>>,
	statedIn: (sentence: string) => readonly string[][]
): number {
	const total = asked.reduce((sum, w) => sum + w.weight, 0);
	let best = 0;
	for (const part of p.parts) {
		for (const stated of statedIn(part)) {
			let held = 0;
			for (const w of asked) {
				const related = relatedByTerm.get(w.term);
				if (stated.includes(w.term) || (related && stated.some(term => (related.get(term) ?? 0) >= KNOWN_RELATEDNESS))) held += w.weight;
			}
			best = Math.max(best, held / total);
		}
	}
	return best;
}

function linear(weights: Readonly<Record<string, number>>, features: Readonly<Record<string, number>>): number {
	let z = weights.intercept ?? 0;
	// A plain key loop: this runs once per candidate passage, and Object.entries allocated on each.
	for (const name in features) z += (weights[name] ?? 0) * features[name];
	return z;
}

export interface Scoring {
	scored: ScoredPassage[];
	features(best: ScoredPassage | undefined, runnerUp: ScoredPassage | undefined): DecisionFeatures;
}

export interface ScoringOptions {
	related?: RelatednessFn;
	/** Frequency rank of a term in general use (0 = most common). */
	rank?: (term: string) => number | undefined;
	/** The kind of answer the question expects (answer-type.ts). */
	expects?: AnswerType;
	/** Feature weights of the passage score; `RANKER` unless a fit is trying others. */
	ranker?: Readonly<Record<string, number>>;
	/** Whether the question asks how to do something, which a command or an example may answer (question.ts `asksHowTo`). */
	howTo?: boolean;
	/** Terms of the question's words naming a kind of code name ("request", "header": answer-type.ts `codeNounTerms`). */
	codeNouns?: ReadonlySet<string>;
}

/**
 * True when the question offers alternatives and the passage holds none of one choice's terms in any
 * way. `unmatched`: the question's own terms the best passage does not match (all of them when there
 * is no passage).
 */
function missingChoice(question: WeightedQuestion, unmatched: ReadonlySet<string>): boolean {
	return question.choices.some(choice => choice.every(term => unmatched.has(term)));
}

/**
 * True when the passage lacks a name the question writes, unless it holds another of the choices
 * that name was offered with. `generic` names are the site's own vocabulary, not one thing among
 * others, and need not be repeated.
 */
function missingName(question: WeightedQuestion, unsaid: ReadonlySet<string>, unmatched: ReadonlySet<string>, generic: ReadonlySet<string>): boolean {
	return question.names.some(
		name => !generic.has(name) && unsaid.has(name) && !question.choices.some(choice => choice.includes(name) && choice.some(other => !unmatched.has(other)))
	);
}

export function scorePassages(question: WeightedQuestion, passages: readonly Passage[], locale: Locale, options: ScoringOptions = {}): Scoring {
	const { related, rank, expects, ranker = RANKER, howTo = false, codeNouns = new Set<string>() } = options;
	// Terms of each chunk (heading included) and of its heading and title, read once per chunk.
	const chunkTerms = new Map<string, ReadonlySet<string>>();
	const contexts = new Map<string, ReadonlySet<string>>();
	for (const p of passages) {
		if (chunkTerms.has(p.chunk.id)) continue;
		const { terms, context } = analyzedChunk(p.chunk, locale);
		contexts.set(p.chunk.id, context);
		chunkTerms.set(p.chunk.id, terms);
	}
	const weights = termWeights(question, chunkTerms);
	const vocabulary = new Set<string>();
	for (const p of passages) for (const term of p.terms) vocabulary.add(term);
	const relatedByTerm = relatedTerms(weights, vocabulary, question.phrases, related);
	const vocabularyOrder = new Map([...vocabulary].map((word, i) => [word, i]));
	const ownWeights = weights.filter(w => w.own);
	const ownTotal = ownWeights.reduce((sum, w) => sum + w.weight, 0) || 1;
	const contextWeights = weights.filter(w => !w.own);
	const contextTotal = contextWeights.reduce((sum, w) => sum + w.weight, 0);
	const isCommon = (term: string) => (rank ? (rank(term) ?? Infinity) < COMMON_RANK : false);
	// The focus: the rarest own term that the retrieved chunks hold at all (a word none of them has
	// is a paraphrase or an unknown topic, read by `unknown`, not a focus any passage could match),
	// and not a common word in general use when the question has another: "single" or "make" can be
	// rare in a few chunks, yet the answer need not repeat them.
	const inPool = (term: string) => [...chunkTerms.values()].some(set => set.has(term));
	// An acronym most retrieved chunks use ("API", "URL" on an API's docs) names the site's topic, not a product.
	const genericAcronyms = new Set(
		question.acronyms.filter(term => [...chunkTerms.values()].filter(set => set.has(term)).length >= Math.max(2, GENERIC_ACRONYM_SHARE * chunkTerms.size))
	);
	const pooled = ownWeights.filter(w => inPool(w.term));
	const specific = pooled.filter(w => !isCommon(w.term));
	// A name the question writes ("the beacon endpoint", "Zephyr-9") is what it asks about: the focus
	// is the heaviest of those when it has any (best passage holding the fact: 117 -> 118 of 147).
	const named = pooled.filter(w => question.names.includes(w.term) && !genericAcronyms.has(w.term));
	const focus = (named.length > 0 ? named : specific.length > 0 ? specific : pooled).reduce<TermWeight | undefined>((top, w) => (!top || w.weight > top.weight ? w : top), undefined);
	const topScore = Math.max(1e-9, ...passages.map(p => p.hitScore));
	const questionTerms = new Set(weights.map(w => w.term));
	const typeCache = new Map<string, boolean>();
	const conditionWeights = ownWeights.filter(w => question.condition.includes(w.term));
	// Overlapping passages share sentences: each sentence's conditions are read once per question.
	const stated = new Map<string, readonly string[][]>();
	const statedIn = (sentence: string) => {
		let conditions = stated.get(sentence);
		if (!conditions) stated.set(sentence, (conditions = statedConditions(sentence, locale)));
		return conditions;
	};

	// What a count asked for counts, and the words of the passages related to it ("stores" for "shops").
	const withRelated = (terms: readonly string[]) => terms.flatMap(term => [term, ...[...(relatedByTerm.get(term) ?? [])].filter(([, r]) => r >= KNOWN_RELATEDNESS).map(([candidate]) => candidate)]);
	const counted = withRelated(question.counted ?? []);
	// The thing a price is asked of, and the words related to it: a part holding none prices something else.
	const priced = withRelated(question.priced ?? []);
	// Names the question writes outside a choice: the value asked for must be said of them.
	const boundNames = question.names.filter(name => !question.choices.some(choice => choice.includes(name)));
	// Names that only qualify the thing counted ("API" in "how many API keys"): a sentence counting
	// the thing itself ("Each account may hold up to 5 keys.") need not repeat them.
	const qualifiers = new Set(boundNames.filter(name => question.counted?.includes(name)));
	const countedThing = withRelated((question.counted ?? []).filter(term => !qualifiers.has(term)));
	/**
	 * Whether the passage holds the kind of answer asked for, in a part that holds the question's
	 * names (or under a heading that does): "How many Zephyr-9 kettles were made?" is not answered
	 * by the Aurora's batch size in the sentence after the Zephyr-9's warranty. A price must also
	 * stand in a part that holds the thing priced (or a related word), unless the heading does:
	 * "How much does a new Zephyr-9 kettle cost?" is not answered by "Replacement lids for the
	 * Zephyr-9 cost 14 euros".
	 */
	const holdsNamedAnswer = (p: Passage, context: ReadonlySet<string>, expects: AnswerType): boolean => {
		// A stated default is no value of its own: "Default: 5" follows the sentence naming the option.
		const missing = expects === "default" ? [] : boundNames.filter(name => !context.has(name));
		const pricedApart = priced.length > 0 && !priced.some(term => context.has(term));
		const saysIt = (i: number) =>
			missing.every(name => p.partTerms[i].includes(name) || (qualifiers.has(name) && countsTheThing(p.parts[i], locale, countedThing))) &&
			(!pricedApart || priced.some(term => p.partTerms[i].includes(term)));
		// A definition opens a sentence of its own: the passage's parts are read one by one.
		if (expects === "definition") return p.parts.some(part => holdsAnswerType(part, expects, locale, [], question.defined));
		const parts = missing.length === 0 && !pricedApart ? [p.parts.join(" ")] : p.parts.filter((_, i) => saysIt(i));
		return parts.some(part => holdsAnswerType(part, expects, locale, question.numerals, counted));
	};

	// A name in code asked for ("Which request returns the tools?") should name what the question
	// speaks of ("tools/list", not "resources/list") when some retrieved passage has such a name
	// (`namesAsked`, a weight: as a condition of holding a name at all, it declined answers whose
	// name is written apart from the words asked about); the word naming the kind ("request",
	// "header") does not count, every name of the kind has it.
	const ownSet = new Set(question.ownTerms.filter(term => !codeNouns.has(term)));
	// Overlapping passages share their parts, and each passage is read twice (is there any, is it one):
	// each part's names are read once.
	const partNamesAsked = new Map<string, boolean>();
	const namesAsked = (p: Passage) =>
		p.parts.some(part => {
			let names = partNamesAsked.get(part);
			if (names === undefined) partNamesAsked.set(part, (names = identifierTerms(part, locale).some(terms => terms.some(term => ownSet.has(term)))));
			return names;
		});
	const matchIdentifiers = expects === "identifier" && passages.some(namesAsked);
	const scored = passages.map((p): ScoredPassage => {
		const context = contexts.get(p.chunk.id) as ReadonlySet<string>;
		// An example uses words as keys and values; a sentence says something with them.
		const prose = !howTo && p.code.some(Boolean) ? new Set(p.partTerms.filter((_, i) => !p.code[i]).flat()) : p.terms;
		let codeOnly = 0;
		const credit = (term: string): Credit => {
			if (p.terms.has(term)) return { exact: 1, heading: 0, related: 0, via: term };
			if (context.has(term)) return { exact: 0, heading: 1, related: 0 };
			const relatedWords = relatedByTerm.get(term);
			if (!relatedWords || relatedWords.size === 0) return { exact: 0, heading: 0, related: 0 };
			let best = 0;
			let via: string | undefined;
			if (relatedWords.size <= p.terms.size) {
				for (const [candidate, r] of relatedWords) {
					if (r > best && p.terms.has(candidate)) {
						best = r;
						via = candidate;
					}
				}
			} else {
				// Fewer words in the passage than related to the term: look each up, keeping the
				// vocabulary's order among equals as the loop above does.
				for (const word of p.terms) {
					const r = relatedWords.get(word);
					if (r !== undefined && (r > best || (r === best && via !== undefined && (vocabularyOrder.get(word) as number) < (vocabularyOrder.get(via) as number)))) {
						best = r;
						via = word;
					}
				}
			}
			return { exact: 0, heading: 0, related: best, via };
		};
		let exact = 0;
		let heading = 0;
		let relatedShare = 0;
		let contextShare = 0;
		let focusMissing = 0;
		const unmatched: TermWeight[] = [];
		const unsaid = new Set<string>();
		const matchedInText = new Set<string>();
		for (const w of weights) {
			const c = credit(w.term);
			if (c.via && (c.exact > 0 || c.related >= KNOWN_RELATEDNESS)) matchedInText.add(c.via);
			if (!w.own) {
				contextShare += (w.weight * Math.max(c.exact, 0.6 * c.heading, c.related)) / (contextTotal || 1);
				continue;
			}
			if (c.exact === 0 && c.heading === 0) unsaid.add(w.term);
			exact += (w.weight * c.exact) / ownTotal;
			if (c.exact > 0 && !prose.has(w.term)) codeOnly += w.weight / ownTotal;
			heading += (w.weight * c.heading) / ownTotal;
			relatedShare += (w.weight * c.related) / ownTotal;
			const matched = c.exact > 0 || c.heading > 0 || c.related >= KNOWN_RELATEDNESS;
			if (!matched) unmatched.push(w);
			if (w === focus && !matched) focusMissing = 1;
		}
		const text = p.parts.join(" ");
		let typeFound = 0;
		let typeMissing = 0;
		if (expects) {
			const key = `${p.chunk.id}\u0000${text}`;
			let holds = typeCache.get(key);
			if (holds === undefined) {
				holds = holdsNamedAnswer(p, context, expects);
				typeCache.set(key, holds);
			}
			typeFound = holds ? 1 : 0;
			typeMissing = holds ? 0 : 1;
		}
		let novel = 0;
		for (const term of p.terms) if (!questionTerms.has(term) && !matchedInText.has(term)) novel++;
		const features: PassageFeatures = {
			exact,
			heading,
			related: relatedShare,
			context: contextTotal > 0 ? contextShare : 0,
			focusMissing,
			typeFound,
			typeMissing,
			proximity: proximity(p.sequence, matchedInText),
			novelty: Math.min(novel, NOVEL_TERMS_CAP) / NOVEL_TERMS_CAP,
			rank: 1 / (1 + p.hitRank),
			extraUnits: p.isList ? 1 : p.parts.length - 1,
			long: text.length > LONG_PASSAGE_CHARS ? 1 : 0,
			condition: conditionWeights.length > 0 ? conditionShare(p, conditionWeights, relatedByTerm, statedIn) : 0,
			codeOnly,
			namesAsked: matchIdentifiers && namesAsked(p) ? 1 : 0
		};
		return {
			passage: p,
			features,
			score: linear(ranker, features as unknown as Record<string, number>),
			unmatched: unmatched.map(w => ({ term: w.term, share: w.weight / ownTotal })),
			unsaid,
			lacksValue: typeMissing === 1 && !!expects && !RANKING_ONLY.has(expects)
		};
	});

	return {
		scored,
		features(best, runnerUp) {
			let unknown = 0;
			for (const w of ownWeights) {
				if ([...chunkTerms.values()].some(set => set.has(w.term)) || [...contexts.values()].some(set => set.has(w.term))) continue;
				if ([...(relatedByTerm.get(w.term)?.values() ?? [])].some(r => r >= KNOWN_RELATEDNESS)) continue;
				if (!isCommon(w.term)) unknown = Math.max(unknown, w.weight / ownTotal);
			}
			let missingSpecific = 0;
			const missing = best ? best.unmatched : ownWeights.map(w => ({ term: w.term, share: w.weight / ownTotal }));
			for (const { term, share } of missing) if (!isCommon(term)) missingSpecific = Math.max(missingSpecific, share);
			const unmatched = new Set(missing.map(m => m.term));
			const ownTerms = Math.max(1, question.ownTerms.length);
			return {
				best: best?.score ?? -10,
				margin: best ? best.score - (runnerUp?.score ?? best.score - 1) : 0,
				exact: best?.features.exact ?? 0,
				focusMissing: best?.features.focusMissing ?? 1,
				typeMissing: best?.lacksValue ? 1 : 0,
				unknown,
				// BM25 magnitudes shrink on a tiny index (every IDF is small), so there the typical strength stands in.
				retrieval: chunkTerms.size < SMALL_POOL ? Math.max(TYPICAL_RETRIEVAL, topScore / ownTerms) : topScore / ownTerms,
				covered: best ? best.features.exact + best.features.heading + best.features.related : 0,
				missingSpecific,
				// A cue word ("not" for a yes/no question, "during" for "When…?") ranks a passage; as evidence
				// of an answer, the yes/no cue answered one more near miss (answer-type.ts `CUE_ONLY`).
				typeFound: expects && CUE_ONLY.has(expects) ? 0 : (best?.features.typeFound ?? 0),
				missingName: missingName(question, best ? best.unsaid : unmatched, unmatched, genericAcronyms) ? 1 : 0,
				missingChoice: missingChoice(question, unmatched) ? 1 : 0
			};
		}
	};
}

/** The feature values in `PASSAGE_FEATURES` order (for fitting). */
export function passageFeatureVector(f: PassageFeatures): number[] {
	return PASSAGE_FEATURES.map(name => f[name]);
}

export { linear as linearScore };
