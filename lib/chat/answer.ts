/**
 * Which answer path runs: the grounded LLM when one is configured, else the extractive answer.
 * An LLM that fails before its first token (down, overloaded, timed out) falls back to the
 * extractive answer, so a visitor still gets a grounded reply; once tokens have been streamed, a
 * failure is reported instead (the text already shown cannot be taken back).
 */
import type { AnswerEvent } from "../answer/events";
import { answerExtractively, AnswerInput } from "../answer/extractive";
import { answerWithLlm, ChatStreamFn } from "../answer/grounded-llm";

export interface ChatAnswerInput extends AnswerInput {
	/** Streams the LLM's completion; absent: extractive answers only. */
	llm?: ChatStreamFn;
	/** Told when the LLM failed and the extractive answer is used instead. */
	onFallback?: (err: unknown) => void;
}

export async function* answerQuestion(input: ChatAnswerInput): AsyncGenerator<AnswerEvent> {
	const { llm, onFallback, ...base } = input;
	if (!llm) {
		yield* answerExtractively(base);
		return;
	}
	let streamed = false;
	try {
		for await (const event of answerWithLlm({ ...base, stream: llm })) {
			streamed = true;
			yield event;
		}
	} catch (err) {
		if (streamed) throw err;
		onFallback?.(err);
		yield* answerExtractively(base);
	}
}
