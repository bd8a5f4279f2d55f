/**
 * Questions with one slip of the keyboard, for the answer benchmark's typo table: each question's
 * longest plain word (six letters or more, not a name: no capital past the first word, no digit or
 * joiner beside it) gets its two middle letters swapped ("warranty" → "wararnty"), or, when they
 * are the same letter, loses one of them ("support" → "suport"). Deterministic, so runs compare.
 * The word is not chosen to suit the correction: it is the one a question can least do without.
 */
import { isPlainWord } from "../../lib/answer/spelling";

const WORD = /\p{L}+/gu;
const MIN_LETTERS = 6;

export function withSlip(question: string): string {
	let longest: { word: string; at: number } | undefined;
	for (const match of question.matchAll(WORD)) {
		const word = match[0];
		const at = match.index;
		if (word.length < MIN_LETTERS || !isPlainWord(question, at, word, at === 0)) continue;
		if (!longest || word.length > longest.word.length) longest = { word, at };
	}
	if (!longest) return question;
	const { word, at } = longest;
	const middle = Math.floor(word.length / 2);
	const slipped = word[middle - 1] !== word[middle] ? word.slice(0, middle - 1) + word[middle] + word[middle - 1] + word.slice(middle + 1) : word.slice(0, middle) + word.slice(middle + 1);
	return question.slice(0, at) + slipped + question.slice(at + word.length);
}
