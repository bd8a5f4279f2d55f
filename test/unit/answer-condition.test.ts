import { DECISION, RANKER } from "../../lib/answer/calibration";
import { askedCondition, statedConditions } from "../../lib/answer/condition";
import { weighEvidence } from "../../lib/answer/extractive";
import { lexiconFor } from "../../lib/answer/lexicon";
import { parseQuestion } from "../../lib/answer/question";
import { chunkSources } from "../../lib/retrieval/chunker";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeChunks, vectorizeQuery } from "../../lib/retrieval/vectorize";
import { analyze } from "../../lib/text/tokenize";

describe("the condition a question sets", () => {
	test("is the words after its conjunction, to the end of the question", () => {
		expect(askedCondition("What should the client do if it does not support the version the server picked?", "en")).toEqual(
			analyze("it does not support the version the server picked?", "en")
		);
		expect(askedCondition("What may the sender do when a ping gets no reply, or a late one?", "en")).toEqual(analyze("a ping gets no reply, or a late one?", "en"));
	});

	test("opening the question, is a condition only when a comma closes it", () => {
		expect(askedCondition("When a ping times out, what should the sender do?", "en")).toEqual(analyze("a ping times out", "en"));
		// "When" asking for a time sets no condition.
		expect(askedCondition("When is support available?", "en")).toEqual([]);
		expect(askedCondition("When is support available if I write on a Sunday?", "en")).toEqual(analyze("I write on a Sunday?", "en"));
		expect(askedCondition("If I lose my key, can I see it again?", "en")).toEqual(analyze("I lose my key", "en"));
	});

	test("is none when 'when' or 'if' opens what a verb decides or knows", () => {
		// The question asks who decides; "a tool is used" is no case a rule is stated for.
		expect(askedCondition("Is it the model or the user that decides when a tool is used?", "en")).toEqual([]);
		expect(askedCondition("How does the client know if the server is still alive?", "en")).toEqual([]);
		expect(statedConditions("The host application determines when resources are read.", "en")).toEqual([]);
		// A rule's own case is still read after any other verb.
		expect(askedCondition("What does the client do when a tool is used?", "en")).toEqual(analyze("a tool is used?", "en"));
	});

	test("in Spanish, 'si' and 'cuando' open one, the question word 'cuándo' does not", () => {
		expect(askedCondition("¿Qué responde el servidor si falta la cabecera?", "es")).toEqual(analyze("falta la cabecera?", "es"));
		expect(askedCondition("¿Qué deja de funcionar cuando se borra un chatbot?", "es")).toEqual(analyze("se borra un chatbot?", "es"));
		expect(askedCondition("¿Cuándo caduca la sesión?", "es")).toEqual([]);
		expect(askedCondition("¿Si pierdo la clave, puedo verla otra vez?", "es")).toEqual(analyze("pierdo la clave", "es"));
	});

	test("is none for a question without one, and parseQuestion keeps only its content terms", () => {
		expect(askedCondition("Which header carries the session id?", "en")).toEqual([]);
		const parsed = parseQuestion("What does the server answer if the session has expired?", "en");
		expect(parsed.terms).toEqual(["server", "answer", "session", "expir"]);
		expect(parsed.condition).toEqual(["session", "expir"]);
		// "How long" is no content term, and is no part of the condition either.
		expect(parseQuestion("How long is a conversation kept if nobody writes?", "en").condition).toEqual(["nobodi", "write"]);
		expect(parseQuestion("What does the server answer to an expired session?", "en").condition).toEqual([]);
	});
});

describe("the conditions a sentence states", () => {
	test("run from the conjunction to the end of the clause", () => {
		expect(statedConditions("If the client does not support the version in the server's response, it SHOULD disconnect.", "en")).toEqual([
			analyze("the client does not support the version in the server's response,", "en")
		]);
		expect(statedConditions("The server MUST answer 404 when the session has ended.", "en")).toEqual([analyze("the session has ended.", "en")]);
		// A conjunction inside a condition belongs to it.
		expect(statedConditions("If a ping fails when the link is slow, retry.", "en")).toEqual([analyze("a ping fails when the link is slow,", "en")]);
	});

	test("every condition of the sentence counts, and a sentence without one states none", () => {
		expect(statedConditions("If the key is revoked, or when it has expired, the call is refused.", "en")).toEqual([
			analyze("the key is revoked,", "en"),
			analyze("it has expired,", "en")
		]);
		expect(statedConditions("The client MUST send the latest version it supports.", "en")).toEqual([]);
		expect(statedConditions("Si falta la cabecera, se supone la versión más antigua.", "es")).toEqual([analyze("falta la cabecera,", "es")]);
	});
});

describe("a passage stating its rule for the case asked about", () => {
	const page =
		"Version negotiation\n\n" +
		"In the initialize request, the client MUST send a protocol version it supports. This SHOULD be the latest version the client supports.\n\n" +
		"If the server supports the requested protocol version, it MUST respond with the same version. Otherwise, the server MUST respond with another protocol version it supports.\n\n" +
		"If the client does not support the version in the server's response, it SHOULD disconnect.";

	async function bestAnswer(question: string, conditionWeight: number): Promise<string | undefined> {
		const index = new GenerationIndex();
		const sources = [{ chatbotId: "bot", sourceId: "lifecycle", kind: "url" as const, title: "Lifecycle", url: "https://spec.test/lifecycle", text: page }];
		for (const item of await vectorizeChunks(chunkSources(sources), { locale: "en" })) index.add(item);
		const hits = index.search(await vectorizeQuery(question, { locale: "en" }), 16);
		const evidence = weighEvidence({ question, locale: "en", hits, ...lexiconFor("en"), model: { ranker: { ...RANKER, condition: conditionWeight }, decision: DECISION } });
		return evidence.best?.passage.parts.join(" ");
	}

	test("ranks first among sentences sharing the question's words", async () => {
		const question = "What must the server answer if it supports the version the client asked for?";
		expect(await bestAnswer(question, RANKER.condition)).toMatch(/^If the server supports the requested protocol version, it MUST respond with the same version/);
		// Without the condition's weight, the rule for the other case (the client's) came first.
		expect(await bestAnswer(question, 0)).toMatch(/SHOULD disconnect/);
	});

	test("leaves a question whose case one sentence alone states answered by it", async () => {
		expect(await bestAnswer("What should the client do if it does not support the version the server picked?", RANKER.condition)).toMatch(/SHOULD disconnect/);
	});
});
