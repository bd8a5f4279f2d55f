import { expectedAnswerType, holdsAnswerType, identifierTerms } from "../../lib/answer/answer-type";
import { ANSWER_THRESHOLD, declinedByRule } from "../../lib/answer/calibration";
import { extractiveAnswer, weighEvidence } from "../../lib/answer/extractive";
import { formRelatedness, MAX_RELATED_TERMS } from "../../lib/answer/evidence";
import { lexiconFor } from "../../lib/answer/lexicon";
import { parseQuestion } from "../../lib/answer/question";
import { weightedQuestion } from "../../lib/answer/follow-up";
import { Chunk, chunkSources, ChunkSource } from "../../lib/retrieval/chunker";
import { GenerationIndex } from "../../lib/retrieval/embedded-generation";
import { vectorizeChunks, vectorizeQuery } from "../../lib/retrieval/vectorize";
import type { SearchHit } from "../../lib/retrieval/vector-index";
import { analyze } from "../../lib/text/tokenize";
import type { Locale } from "../../lib/text/tokenize";

async function retrieve(sources: ChunkSource[], question: string, locale: Locale): Promise<SearchHit[]> {
	const index = new GenerationIndex();
	for (const item of await vectorizeChunks(chunkSources(sources), { locale })) index.add(item);
	return index.search(await vectorizeQuery(question, { locale }), 16);
}

const page = (sourceId: string, text: string, locale: Locale = "en"): ChunkSource => ({
	chatbotId: "bot",
	sourceId,
	kind: "url",
	title: sourceId,
	url: `https://shop.test/${locale}/${sourceId}`,
	text
});

/** A retrieved chunk of typed text, as the answerer reads it. */
const textHit = (id: string, sourceId: string, text: string): SearchHit => ({ chunk: { id, chatbotId: "bot", sourceId, ordinal: 0, text, title: sourceId, kind: "text" }, score: 3 });

describe("expected answer type", () => {
	test.each([
		["How much does the Pro plan cost per month?", "en", "money"],
		["What does a spare lid cost?", "en", "money"],
		["How long is a conversation kept?", "en", "duration"],
		["How long can a question be?", "en", "length"],
		["How long may the scheme of a URI in an autolink be?", "en", "length"],
		["How large may a resource's binary contents be?", "en", "length"],
		["How big can an upload be?", "en", "length"],
		["¿Qué tamaño puede tener un archivo?", "es", "length"],
		["¿Cuán grande puede ser un archivo?", "es", "length"],
		["How big is the team?", "en", undefined],
		["How long can a conversation be idle before it expires?", "en", "duration"],
		["How often does the sweep run?", "en", "frequency"],
		["What hours is support open?", "en", "clock"],
		["How many chatbots can I own?", "en", "count"],
		["How many days is a conversation kept?", "en", "number"],
		// A size is asked for, not any number: "one JSON object" does not say how big a message may be.
		["What is the maximum file size?", "en", "length"],
		["What is the maximum size of a JSON-RPC message?", "en", "length"],
		["How much memory may a parser use?", "en", "length"],
		["¿Cuál es el tamaño máximo de un archivo?", "es", "length"],
		["What is the most pages a PDF may have?", "en", "number"],
		["Which attribute names the chatbot?", "en", "identifier"],
		["Which request header carries the key?", "en", "identifier"],
		["Which notification cancels a request in progress?", "en", "identifier"],
		// A request is asked for by its name in code ("prompts/get")...
		["Which request fetches one particular prompt?", "en", "identifier"],
		["¿Qué petición devuelve las herramientas de un servidor?", "es", "identifier"],
		// "When" opening a question with no comma asks for a moment; with one, it sets a case.
		["When do clients and servers declare their features?", "en", "moment"],
		["And when does the clock start?", "en", "moment"],
		["When a ping times out, what should the sender do?", "en", undefined],
		["¿Cuándo caduca la sesión?", "es", "moment"],
		["¿En qué momento se borra un chatbot de prueba?", "es", "moment"],
		// A negation outside the case asked about asks what is forbidden.
		["What must never appear in log messages?", "en", "prohibition"],
		["Why can't a server ask for a model by its name?", "en", "prohibition"],
		["¿Qué no debe pedir nunca un servidor?", "es", "prohibition"],
		["What happens if the client does not support the version?", "en", undefined],
		["¿Qué pasa si no hay clave?", "es", undefined],
		["Does the server not answer?", "en", "polar"],
		// "How does / is…" asks in what way; "How do I…" how to do it.
		["How are messages separated from each other on stdio?", "en", "manner"],
		["How does a client end a session?", "en", "manner"],
		["¿Cómo se separan los mensajes?", "es", "manner"],
		["How do I install the widget?", "en", undefined],
		// "What is X?" asks what a thing is; a longer question asks something of it.
		["What is a resource template?", "en", "definition"],
		["What are agent skills?", "en", "definition"],
		["What does idempotent mean?", "en", "definition"],
		["¿Qué es la API de demostración?", "es", "definition"],
		["¿Qué significa reclamar?", "es", "definition"],
		["What is the source of truth for the protocol's messages?", "en", undefined],
		["What is the default port?", "en", "default"],
		["What is it?", "en", undefined],
		["¿Cómo hago una copia de seguridad?", "es", undefined],
		["How long is a conversation kept?", "en", "duration"],
		["¿Qué notificación cancela una petición?", "es", "identifier"],
		["Which plan does a new account start on?", "en", undefined],
		["Should the agent open the claim link itself?", "en", "polar"],
		["And can I get the key back later?", "en", "polar"],
		["Can I own more than 3 chatbots, and how many does Pro allow?", "en", "count"],
		["What happens to the YAML header of an upload?", "en", undefined],
		["¿Cuánto cuesta el plan Pro al mes?", "es", "money"],
		["¿Cuánto tiempo dura una sesión?", "es", "duration"],
		["¿Cada cuánto se revisa?", "es", "frequency"],
		["¿A qué hora abre el soporte?", "es", "clock"],
		["¿Cuántas URL admite una sesión?", "es", "count"],
		["¿Cuántos días se guarda?", "es", "number"],
		["¿Qué pasa si pierdo el enlace?", "es", undefined],
		["¿Qué métodos ofrece el servidor?", "es", "identifier"],
		["¿Qué cabecera HTTP lleva la fecha?", "es", "identifier"],
		// Spanish marks a yes/no question by no word of its own: read as one only when it opens with a verb that asks one.
		["¿Hace falta una cuenta?", "es", "polar"],
		["What depth does debug use by default?", "en", "default"],
		["Which status codes get retried out of the box?", "en", "default"],
		["Is X-Forwarded-For trusted by default?", "en", "polar"],
		["¿Qué profundidad usa por defecto?", "es", "default"],
		["¿Se puede borrar una conversación?", "es", "polar"],
		["¿Los límites se cuentan por clave o por IP?", "es", undefined]
	] as const)("%s → %s", (question, locale, type) => {
		expect(expectedAnswerType(question, locale)).toBe(type);
	});

	test("a passage says when, or does not", () => {
		expect(holdsAnswerType("Clients and servers declare their features during initialization.", "moment", "en")).toBe(true);
		expect(holdsAnswerType("Clients SHOULD send the notification when the list changes.", "moment", "en")).toBe(true);
		expect(holdsAnswerType("The desk opens at 08:15.", "moment", "en")).toBe(true);
		expect(holdsAnswerType("Servers declare capabilities like tool support.", "moment", "en")).toBe(false);
		expect(holdsAnswerType("El chatbot se borra tras ocho días.", "moment", "es")).toBe(true);
		expect(holdsAnswerType("El chatbot aparece en la lista de la cuenta.", "moment", "es")).toBe(false);
	});

	test("a passage saying when ranks before one that does not, for a question asking when", () => {
		const hits = [
			textHit("c1", "architecture", "Clients and servers declare their supported features, such as tool support and sampling."),
			textHit("c2", "architecture", "Clients and servers declare their supported features during initialization.")
		];
		const evidence = weighEvidence({ question: "When do clients and servers declare their supported features?", locale: "en", hits, ...lexiconFor("en") });
		expect(evidence.best?.passage.chunk.id).toBe("c2");
		expect(evidence.candidates.find(s => s.passage.chunk.id === "c1")?.features.typeMissing).toBe(1);
		// It only ranks: a passage not saying when is not declined for it.
		expect(weighEvidence({ question: "When do clients and servers declare their supported features?", locale: "en", hits: [hits[0]], ...lexiconFor("en") }).features.typeMissing).toBe(0);
	});

	test("a passage forbidding something ranks first for a question asking what is forbidden", () => {
		expect(holdsAnswerType("Log messages MUST NOT contain credentials.", "prohibition", "en")).toBe(true);
		expect(holdsAnswerType("The client doesn't have access to that model.", "prohibition", "en")).toBe(true);
		expect(holdsAnswerType("Los mensajes no deben llevar claves.", "prohibition", "es")).toBe(true);
		expect(holdsAnswerType("Log messages appear in the client's window.", "prohibition", "en")).toBe(false);
		const hits = [
			textHit("c1", "logging", "Clients may show log messages in a window, each with its level."),
			textHit("c2", "logging", "Log messages MUST NOT contain credentials or secrets.")
		];
		expect(weighEvidence({ question: "What must never appear in log messages?", locale: "en", hits, ...lexiconFor("en") }).best?.passage.chunk.id).toBe("c2");
	});

	test("a passage naming the means ranks first for a question asking in what way", () => {
		expect(holdsAnswerType("Messages are delimited by newlines.", "manner", "en")).toBe(true);
		expect(holdsAnswerType("Los mensajes se envían mediante peticiones POST.", "manner", "es")).toBe(true);
		expect(holdsAnswerType("Messages are JSON-RPC objects.", "manner", "en")).toBe(false);
		const hits = [
			textHit("c1", "transports", "On stdio, messages are separated from the server's logs, which go to stderr."),
			textHit("c2", "transports", "On stdio, messages are separated by newlines.")
		];
		expect(weighEvidence({ question: "How are messages separated on stdio?", locale: "en", hits, ...lexiconFor("en") }).best?.passage.chunk.id).toBe("c2");
	});

	test("a passage saying what the thing asked about is ranks first for a question asking what it is", () => {
		const subject = parseQuestion("What is a resource template?", "en").defined ?? [];
		expect(subject).toEqual(analyze("resource template", "en"));
		for (const sentence of ["A resource template is a URI with parameters.", "Resource Templates - dynamic URIs with parameters.", "Resource templates: URIs with parameters.", "Resource templates mean URIs with parameters."]) {
			expect(holdsAnswerType(sentence, "definition", "en", [], subject)).toBe(true);
		}
		// Not where the subject stands later, or is followed by another verb.
		for (const sentence of ["So, this is not a resource template:", "Resource templates include metadata such as a title.", "The list of a resource template is empty."]) {
			expect(holdsAnswerType(sentence, "definition", "en", [], subject)).toBe(false);
		}
		expect(holdsAnswerType("La API de demostración es una API sin cuenta.", "definition", "es", [], parseQuestion("¿Qué es la API de demostración?", "es").defined)).toBe(true);
		// Words without a term may stand between the subject's words, not before them.
		expect(holdsAnswerType("The source of truth is the schema.", "definition", "en", [], analyze("source of truth", "en"))).toBe(true);
		const hits = [
			textHit("c1", "resources", "Resource templates include a title, a description and the resource template's MIME type."),
			textHit("c2", "resources", "A resource template is a URI with parameters for flexible queries.")
		];
		expect(weighEvidence({ question: "What is a resource template?", locale: "en", hits, ...lexiconFor("en") }).best?.passage.chunk.id).toBe("c2");
	});

	test("a name in code naming what the question asks about is the one asked for, when a passage has one", () => {
		expect(identifierTerms("Clients send a tools/list request (see `getCookies`).", "en")).toEqual([analyze("tools/list", "en"), analyze("getCookies", "en")]);
		const hits = [
			textHit("c1", "tools", "Links returned by a tool may not appear in a resources/list request."),
			textHit("c2", "tools", "Clients send a tools/list request to discover what a server offers.")
		];
		const features = (question: string, chunks: SearchHit[]) =>
			Object.fromEntries(
				weighEvidence({ question, locale: "en", hits: chunks, ...lexiconFor("en") }).candidates.map(s => [s.passage.chunk.id, [s.features.typeFound, s.features.namesAsked]])
			);
		// Both write a name in code; only "tools/list" names a tool ("request", the kind of name asked for, does not count).
		expect(features("Which request returns the tools a server has?", hits)).toEqual({ c1: [1, 0], c2: [1, 1] });
		expect(weighEvidence({ question: "Which request returns the tools a server has?", locale: "en", hits, ...lexiconFor("en") }).best?.passage.chunk.id).toBe("c2");
		// With no passage naming a tool in code, no passage is preferred for it.
		expect(features("Which request returns the tools a server has?", [hits[0]])).toEqual({ c1: [1, 0] });
	});

	test("a passage holds a price, a duration, a time or a number, or does not", () => {
		expect(holdsAnswerType("Replacement lids cost 14 euros.", "money", "en")).toBe(true);
		expect(holdsAnswerType("Pro: 10 chatbots, 1,000 pages, 5,000 messages a month.", "money", "en")).toBe(false);
		expect(holdsAnswerType("Conversations are kept for a day after their last message.", "duration", "en")).toBe(true);
		expect(holdsAnswerType("Conversations are kept after their last message.", "duration", "en")).toBe(false);
		expect(holdsAnswerType("An upload may be up to 10 megabytes.", "length", "en")).toBe(true);
		expect(holdsAnswerType("Each message is one JSON object.", "length", "en")).toBe(false);
		// A unit glued to a figure counts ("15s"); glued to a word it is another word ("as", "ah", "ones", "unas").
		expect(holdsAnswerType("It times out after 15s, or 10ms when idle.", "duration", "en")).toBe(true);
		expect(holdsAnswerType("The session cookie comes from the log-in, as before; ah, the ones we keep.", "duration", "en")).toBe(false);
		expect(holdsAnswerType("Tarda unas cuantas peticiones.", "duration", "es")).toBe(false);
		expect(holdsAnswerType("Tarda una hora.", "duration", "es")).toBe(true);
		expect(holdsAnswerType("It answers between 08:15 and 16:45.", "clock", "en")).toBe(true);
		expect(holdsAnswerType("La sesión dura 72 horas.", "duration", "es")).toBe(true);
		expect(holdsAnswerType("El plan Pro cuesta 20 €.", "money", "es")).toBe(true);
		expect(holdsAnswerType("The text layer of every page.", "number", "en")).toBe(false);
		// Amounts and hours written in words, as a small business's page spells them.
		expect(holdsAnswerType("A single crossing costs nine euros.", "money", "en")).toBe(true);
		expect(holdsAnswerType("El billete cuesta dos euros.", "money", "es")).toBe(true);
		expect(holdsAnswerType("Pricing starts at USD 20 a month.", "money", "en")).toBe(true);
		expect(holdsAnswerType("Nine crossings a day.", "money", "en")).toBe(false);
		expect(holdsAnswerType("The morning ferry leaves at seven from the north pier.", "clock", "en")).toBe(true);
		expect(holdsAnswerType("The desk closes at noon on Fridays.", "clock", "en")).toBe(true);
		expect(holdsAnswerType("El ferry sale a las siete.", "clock", "es")).toBe(true);
		expect(holdsAnswerType("It is kept at seven days.", "clock", "en")).toBe(false);
		expect(holdsAnswerType("The ferry leaves from the north pier.", "clock", "en")).toBe(false);
		expect(holdsAnswerType("Revoke a key and it stops working at once.", "duration", "en")).toBe(true);
		expect(holdsAnswerType("La clave deja de funcionar de inmediato.", "duration", "es")).toBe(true);
		for (const code of ["Call getCookies first.", "Keys start with cbk_live_.", "Send Retry-After.", "Call enable() once.", "POST to /mcp.", "Run with --verbose.", "Then tools/list."]) {
			expect(holdsAnswerType(code, "identifier", "en")).toBe(true);
		}
		expect(holdsAnswerType("The widget shows the chatbot's name.", "identifier", "en")).toBe(false);
		// A hyphen between lower-case words makes an English compound, not a name in code.
		expect(holdsAnswerType("Either side can cancel an in-progress or previously-issued request.", "identifier", "en")).toBe(false);
		expect(holdsAnswerType("It sends a notifications/cancelled notification.", "identifier", "en")).toBe(true);
		for (const says of [
			"Hand it over; do not open it yourself.",
			"There is no OCR.",
			"It is shown only once.",
			"It can't be undone.",
			"Every request must carry it.",
			"Four spaces of indentation is too many.",
			// Whether something is needed is answered by its being optional or required.
			"The closing sequence of #s is optional.",
			"A space after the marker is required."
		]) {
			expect(holdsAnswerType(says, "polar", "en")).toBe(true);
		}
		expect(holdsAnswerType("The claim link opens a page with a button.", "polar", "en")).toBe(false);
		// "optionally" describes how a thing may be written, in definitions of every kind: no answer to "do I have to".
		expect(holdsAnswerType("A line of three or more dashes, each optionally followed by spaces.", "polar", "en")).toBe(false);
		expect(holdsAnswerType("El campo de versión es opcional.", "polar", "es")).toBe(true);
		expect(holdsAnswerType("La cabecera es obligatoria en cada petición.", "polar", "es")).toBe(true);
		expect(holdsAnswerType("No necesita cuenta ni clave.", "polar", "es")).toBe(true);
		expect(holdsAnswerType("La primera llamada crea una sesión.", "polar", "es")).toBe(false);
		expect(holdsAnswerType("Cuatro espacios de sangría son demasiados.", "polar", "es")).toBe(true);
		for (const size of ["A question may hold up to 2000 characters.", "Uploads are limited to 10MB.", "A scheme is any sequence of 2--32 characters.", "The closing fence must be at least as long as the opening fence.", "Una pregunta admite 2000 caracteres."]) {
			expect(holdsAnswerType(size, "length", size.startsWith("Una") ? "es" : "en")).toBe(true);
		}
		// A figure in a code example, an encoded space or "a line" is no size.
		for (const none of ["<h2>foo</h2>", "Encode it as %20 for a space.", "Read a line at a time.", "It is kept for 2 days."]) {
			expect(holdsAnswerType(none, "length", "en")).toBe(false);
		}
		// "too" alone says nothing of excess.
		expect(holdsAnswerType("Tildes work too.", "polar", "en")).toBe(false);
	});

	test("a count is a quantity that is not a length of time, a price, a time of day or part of a name", () => {
		for (const counts of ["Up to 5 pages.", "It was made in a batch of exactly 4,812 units.", "Pro 10 1,000"]) {
			expect(holdsAnswerType(counts, "count", "en")).toBe(true);
		}
		// A sign written after an amount is that amount's: a table row "Team 99 € 50" counts 50 of something.
		expect(holdsAnswerType("Team 99 € 50", "count", "en")).toBe(true);
		expect(holdsAnswerType("Team costs € 50", "count", "en")).toBe(false);
		for (const measures of ["The warranty lasts 37 months.", "Lids cost 14 euros.", "It costs $5.", "Open between 08:15 and 16:45.", "Rules fail on 5xx, HTTP/2, IPv6 or SHA-256."]) {
			expect(holdsAnswerType(measures, "count", "en")).toBe(false);
		}
		// "Once" says how many times, not how many things.
		expect(holdsAnswerType("A key is shown once, when it is created.", "count", "en")).toBe(false);
		// "One" standing for a noun counts nothing; "only one", "at most one" do.
		for (const pronoun of ["If you lose it, create a new one and revoke the old one.", "The one you created is listed first.", "No one can see it."]) {
			expect(holdsAnswerType(pronoun, "count", "en")).toBe(false);
		}
		for (const one of ["An account may have only one.", "At most one key per account.", "One key per account.", "More than one key is allowed."]) {
			expect(holdsAnswerType(one, "count", "en")).toBe(true);
		}
		// "One of" picks one among others and counts none of them; "3 of them" still counts.
		expect(holdsAnswerType("For one of these servers, clients will have to register by hand.", "count", "en")).toBe(false);
		expect(holdsAnswerType("Para una de las claves, el límite es otro.", "count", "es")).toBe(false);
		expect(holdsAnswerType("Only 3 of them are kept.", "count", "en")).toBe(true);
		expect(holdsAnswerType("It retries only once.", "times", "en")).toBe(true);
		expect(holdsAnswerType("Up to 5 tries.", "times", "en")).toBe(true);
		expect(holdsAnswerType("El enlace sirve una vez.", "times", "es")).toBe(true);
		expect(expectedAnswerType("How many times is the listener called?", "en")).toBe("times");
		expect(expectedAnswerType("¿Cuántas veces sirve un enlace?", "es")).toBe("times");
		// Spanish "una" is an article unless it counts ("una sola vez").
		expect(holdsAnswerType("Usa una clave de API.", "count", "es")).toBe(false);
		expect(holdsAnswerType("Un enlace funciona una sola vez.", "count", "es")).toBe(true);
		expect(holdsAnswerType("Caben 3 URL por sesión.", "count", "es")).toBe(true);
	});

	test("a count said of something else does not count what the question asks about", () => {
		const keys = parseQuestion("How many API keys can one account have at the same time?", "en");
		expect(keys.counted).toEqual(["api", "key"]);
		expect(parseQuestion("¿Cuántas URL admite una sesión?", "es").counted).toEqual(["url", "admit"]);
		expect(parseQuestion("How long is the warranty?", "en").counted).toBeUndefined();
		const counts = (text: string) => holdsAnswerType(text, "count", "en", [], keys.counted);
		expect(counts("Keys look like cbk_live_ followed by 32 letters and digits.")).toBe(false);
		for (const text of ["An account may have 5 keys.", "Up to 5 per account.", "At most 5 API keys.", "It was made in a batch of exactly 4,812 units."]) expect(counts(text)).toBe(true);
		// A word qualifying the thing may stand between: "5 API keys" counts keys for "How many keys…?".
		const keysOnly = (text: string) => holdsAnswerType(text, "count", "en", [], ["key"]);
		expect(keysOnly("An account may hold up to 5 API keys or tokens at once.")).toBe(true);
		expect(keysOnly("Keys look like cbk_live_ followed by 32 letters and digits.")).toBe(false);
		expect(keysOnly("Each request carries 3 custom headers.")).toBe(false);
		// Without the question's counted words, any count counts.
		expect(holdsAnswerType("Keys look like cbk_live_ followed by 32 letters and digits.", "count", "en")).toBe(true);
		// A follow-up asks for the same kind of answer, but may count something else: "and pages?".
		const followUp = weightedQuestion("and pages?", ["How many URLs can a session hold?"], "en");
		expect([followUp.expects, followUp.counted]).toEqual(["count", undefined]);
	});

	test("a question asking for a default wants a passage that states one, in the sentence after the option's own", async () => {
		const options = page("options", "maxRetries number (optional) - Maximum number of retries. Default: 5\nminTimeout number (optional) - Minimum delay before a retry. Default: 500");
		const variables = page("variables", "Environment variables:\nDEBUG_DEPTH Object inspection depth.\nDEBUG_COLORS Whether or not to use colors.\nDEBUG_HIDE_DATE Hide the date from the output.");
		const ask = async (question: string) => weighEvidence({ question, locale: "en", hits: await retrieve([options, variables], question, "en"), ...lexiconFor("en") });
		const retries = await ask("What is the default for maxRetries?");
		expect(retries.features.typeMissing).toBe(0);
		expect(retries.best?.passage.parts.join(" ")).toContain("Default: 5");
		// The table names the variable but states no default: declined by rule.
		const question = "What object inspection depth does debug use by default?";
		const depth = weighEvidence({ question, locale: "en", hits: await retrieve([variables], question, "en"), ...lexiconFor("en") });
		expect(depth.features.typeMissing).toBe(1);
		expect(declinedByRule(depth.features)).toBe(true);
		// Beside a page that states defaults of other options, one of those ranks first (the table
		// could not answer), and is declined for what it lacks: it shares almost nothing asked.
		const beside = await ask(question);
		expect(beside.best?.passage.parts.join(" ")).toContain("Default:");
		expect(beside.probability).toBeLessThan(ANSWER_THRESHOLD);
	});

	test("a price must be said of the thing priced, in its sentence or under its heading", async () => {
		expect(parseQuestion("How much does a new Zephyr-9 kettle cost?", "en").priced).toEqual(["kettl"]);
		expect(parseQuestion("What does a spare lid for the Zephyr-9 cost?", "en").priced).toEqual(["lid"]);
		expect(parseQuestion("¿Cuánto cuesta una tapa de repuesto?", "es").priced).toEqual(analyze("tapa", "es"));
		// A name priced is read by the name rule.
		expect(parseQuestion("How much does the Zephyr-9 cost?", "en").priced).toBeUndefined();
		const shop = page("shop", "The Zephyr-9 kettle comes in steel. Replacement lids for the Zephyr-9 cost 14 euros in Tromsø.");
		const ask = async (question: string, sources: ChunkSource[]) => weighEvidence({ question, locale: "en", hits: await retrieve(sources, question, "en"), ...lexiconFor("en") });
		expect((await ask("How much does a new Zephyr-9 kettle cost?", [shop])).features.typeMissing).toBe(1);
		expect((await ask("What does a spare lid for the Zephyr-9 cost?", [shop])).features.typeMissing).toBe(0);
		// Under a heading that names the thing, its rows are its prices.
		const prices = page("prices", "# Kettle prices\n\nZephyr-9: 89 euros.\nAurora: 120 euros.");
		expect((await ask("How much does a Zephyr-9 kettle cost?", [prices])).features.typeMissing).toBe(0);
	});

	test("a sentence counting the thing itself need not repeat the name that qualifies it ('API' in 'API keys')", async () => {
		const question = "How many API keys can an account have?";
		const ask = async (text: string) => weighEvidence({ question, locale: "en", hits: await retrieve([page("keys", text)], question, "en"), ...lexiconFor("en") });
		const stated = await ask("API keys look like acme_ followed by 32 letters and digits. Each account may hold up to 5 keys.");
		expect(stated.features.typeMissing).toBe(0);
		expect(stated.best?.passage.parts.join(" ")).toContain("up to 5 keys");
		// A count of something else in the next sentence says nothing of the keys.
		const unstated = await ask("API keys look like acme_ followed by 32 letters and digits. Each account may have 3 owners.");
		expect(unstated.features.typeMissing).toBe(1);
	});

	test("a count said of a word related to what is counted still counts it", async () => {
		const chain = page("chain", "The chain runs 12 stores in the north. Each store has its own bakery and 3 tills.");
		const question = "How many shops does the chain run in the north?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve([chain], question, "en"), ...lexiconFor("en") });
		expect(evidence.features.typeMissing).toBe(0);
		expect(evidence.best?.passage.parts.join(" ")).toContain("12 stores");
	});

	test("a name's own digits are not the number a question asks for", () => {
		const names = parseQuestion("What is the largest Zephyr-9 kettle?", "en").numerals;
		expect(names).toEqual(["zephyr-9"]);
		expect(holdsAnswerType("The ZEPHYR-9 kettle comes in steel.", "number", "en", names)).toBe(false);
		expect(holdsAnswerType("The Zephyr-9 kettle holds 2 litres.", "number", "en", names)).toBe(true);
		// Without the question's names, the digit reads as a number.
		expect(holdsAnswerType("The ZEPHYR-9 kettle comes in steel.", "number", "en")).toBe(true);
	});

	test("the focus is the rarest word that is not common in general use", async () => {
		const sources = [
			page("limits", "The webhook limit is 60 calls a minute per address."),
			page("plans", "Each plan sets a webhook limit, whatever the address."),
			page("pages", "A single page can hold many sections.")
		];
		const question = "What is the webhook limit for a single address?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve(sources, question, "en"), ...lexiconFor("en") });
		// "single" is the rarest word among the retrieved chunks, but a common one: the answer need not repeat it.
		const limit = evidence.ranked.find(s => s.passage.parts.join(" ").includes("60 calls"));
		expect(limit?.features.focusMissing).toBe(0);
		expect(limit?.unmatched.map(u => u.term)).toEqual(["singl"]);
	});

	test("a name the question writes is its focus, before a rarer word", async () => {
		const sources = [
			page("beacons", "The beacon endpoint answers 204 No Content."),
			page("policies", "Policies: the endpoint replies 429 when a budget is spent, and succeeds otherwise."),
			page("widget", "The widget sends a beacon when it opens.")
		];
		const question = "What does the beacon endpoint reply when it succeeds?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve(sources, question, "en"), ...lexiconFor("en") });
		// "succeeds" is rarer among the retrieved chunks, but the question is about the beacon endpoint.
		const beacon = evidence.ranked.find(s => s.passage.chunk.sourceId === "beacons");
		const policies = evidence.ranked.find(s => s.passage.chunk.sourceId === "policies");
		expect(beacon?.features.focusMissing).toBe(0);
		expect(policies?.features.focusMissing).toBe(1);
	});

	test("the value asked for must be said of the thing the question names", async () => {
		const handbook = page("handbook", "The Zephyr-9 kettle warranty lasts 37 months from the date of purchase. The limited-edition Aurora kettle was made in a batch of exactly 4,812 units.");
		const about = async (question: string) => {
			const evidence = weighEvidence({ question, locale: "en", hits: await retrieve([handbook], question, "en") });
			return { typeFound: evidence.features.typeFound, typeMissing: evidence.features.typeMissing };
		};
		expect(await about("How many Zephyr-9 kettles have been made?")).toEqual({ typeFound: 0, typeMissing: 1 });
		expect(await about("How many Aurora kettles have been made?")).toEqual({ typeFound: 1, typeMissing: 0 });
	});

	test("a passage holding the kind of value asked for ranks above every one without it, however much those share", async () => {
		const warranty = page("warranty", "Every kettle warranty lasts as long as its warranty card says, and the kettle warranty covers parts and labour.\n\nThe card says 37 months.");
		const question = "How long does the kettle warranty last?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve([warranty], question, "en"), ...lexiconFor("en") });
		const withoutValue = evidence.candidates.find(c => c.lacksValue);
		expect(withoutValue?.passage.parts.join(" ")).toContain("lasts as long as its warranty card says");
		expect(withoutValue && evidence.best && withoutValue.score > evidence.best.score).toBe(true);
		expect(evidence.best?.lacksValue).toBe(false);
		expect(evidence.best?.passage.parts.join(" ")).toContain("37 months");
	});

	test("a best passage without the kind of answer asked for is declined by rule, however much it shares", async () => {
		const handbook = page("handbook", "The Zephyr-9 kettle warranty lasts 37 months from the date of purchase. The limited-edition Aurora kettle was made in a batch of exactly 4,812 units.");
		const ask = async (question: string) => {
			const hits = await retrieve([handbook], question, "en");
			return { evidence: weighEvidence({ question, locale: "en", hits, ...lexiconFor("en") }), answer: extractiveAnswer({ question, locale: "en", hits, ...lexiconFor("en") }) };
		};
		const zephyr = await ask("How many Zephyr-9 kettles have been made?");
		expect(zephyr.evidence.features).toMatchObject({ typeMissing: 1, missingName: 0 });
		expect(declinedByRule(zephyr.evidence.features)).toBe(true);
		expect(zephyr.evidence.probability).toBe(0);
		expect(zephyr.answer).toMatchObject({ answered: false, citations: [] });
		const aurora = await ask("How many Aurora kettles have been made?");
		expect(declinedByRule(aurora.evidence.features)).toBe(false);
		expect(aurora.answer).toMatchObject({ answered: true, text: expect.stringContaining("4,812") });
	});

});

describe("follow-up questions", () => {
	test("an elliptical follow-up keeps the kind of answer asked before; one with its own question word does not", () => {
		expect(weightedQuestion("and the sandbox?", ["How many messages does a demo session answer?"], "en").expects).toBe("count");
		expect(weightedQuestion("¿y el modo de prueba?", ["¿Cuántos mensajes responde una sesión?"], "es").expects).toBe("count");
		const place = weightedQuestion("Where do orders ship from?", ["How long is the warranty?"], "en");
		expect(place.usedContext).toBe(true);
		expect(place.expects).toBeUndefined();
		expect(weightedQuestion("¿Dónde se envían los pedidos?", ["¿Cuánto dura la garantía?"], "es").expects).toBeUndefined();
	});
});

describe("words that frame a question", () => {
	test.each([
		["What happens when a conversation id has expired?", "en", ["convers", "id", "expir"]],
		["What does the code -32601 mean?", "en", ["code", "32601"]],
		["Where is the help desk located?", "en", ["help", "desk"]],
		["¿Qué significa el código -32601?", "es", ["codig", "32601"]],
		["¿Qué quiere decir el error -32700?", "es", ["error", "32700"]],
		["¿Hace falta una cuenta?", "es", ["cuent"]],
		// The verb of an English duration question; Spanish keeps "dura" (its stem meets "duración").
		["How long does a key last?", "en", ["key"]],
		["How long does training take?", "en", ["train"]],
		["What is the last event id?", "en", ["last", "event", "id"]],
		["¿Cuánto dura una sesión?", "es", ["dur", "sesion"]]
	] as const)("%s → %j", (question, locale, terms) => {
		expect(parseQuestion(question, locale).terms).toEqual(terms);
	});

	test("a question of frame words alone keeps them rather than asking nothing", () => {
		expect(parseQuestion("What does it mean?", "en").terms).toEqual(["mean"]);
	});
});

describe("names in a question", () => {
	test.each([
		["What does a replacement lid for the Aurora cost?", "en", ["aurora"]],
		["Does on-finished work with HTTP/2 streams?", "en", ["http", "2"]],
		["Is the Zephyr-9 warranty longer than two years?", "en", ["zephyr-9", "zephyr", "9"]],
		["Does the tool server accept OAuth tokens?", "en", ["oauth"]],
		["Where should the script tag go?", "en", []],
		["¿El servidor MCP admite autenticación con OAuth?", "es", ["mcp", "oauth"]],
		["¿Cuánto dura la garantía?", "es", []]
	] as const)("%s → %j", (question, locale, names) => {
		expect(parseQuestion(question, locale).names).toEqual(names);
	});

	test("a passage that lacks a name the question writes is read as missing it", () => {
		const lids: Chunk = { id: "n1", chatbotId: "bot", sourceId: "notes", ordinal: 0, text: "Replacement lids for the Zephyr-9 cost 14 euros.", title: "Service notes", kind: "text" };
		const aurora: Chunk = { ...lids, id: "n2", ordinal: 1, text: "The Aurora kettle was made in a batch of 4,812 units." };
		const hits = [{ chunk: lids, score: 2 }, { chunk: aurora, score: 1 }];
		expect(weighEvidence({ question: "What does a replacement lid for the Aurora cost?", locale: "en", hits }).features.missingName).toBe(1);
		expect(weighEvidence({ question: "What does a replacement lid for the Zephyr-9 cost?", locale: "en", hits }).features.missingName).toBe(0);
	});

	test("names offered as choices are one choice: the passage needs only the one it holds", () => {
		expect(parseQuestion("Is a kilobyte 1000 or 1024 bytes for this parser?", "en").choices).toEqual([["1000", "1024"]]);
		// What both sides share ("HTTP") tells them apart from nothing.
		expect(parseQuestion("¿Admite HTTP/2 o HTTP/3?", "es").choices).toEqual([["2", "3"]]);
		expect(parseQuestion("Does the Aurora use 1000 watts?", "en").choices).toEqual([]);
		const units: Chunk = { id: "u1", chatbotId: "bot", sourceId: "bytes", ordinal: 0, text: "Units are binary: 1kb = 1024 bytes, 1mb = 1024 kb.", title: "bytes", kind: "text" };
		const hits = [{ chunk: units, score: 2 }];
		expect(weighEvidence({ question: "Is a kilobyte 1000 or 1024 bytes for this parser?", locale: "en", hits }).features.missingName).toBe(0);
		// Neither choice held: the names are missing.
		expect(weighEvidence({ question: "Is a kilobyte 1000 or 999 bytes for this parser?", locale: "en", hits }).features.missingName).toBe(1);
	});

	test("any alternatives joined by 'or' are a choice; 'or not', 'or later' and the like are not", () => {
		const choices = (question: string, locale: Locale = "en") => parseQuestion(question, locale).choices;
		expect(choices("Is clientTtl given in seconds or in milliseconds?")).toEqual([["second", "millisecond"]]);
		expect(choices("Are budgets tracked per API key or per address?")).toEqual([["key", "address"]]);
		expect(choices("¿Los límites se cuentan por clave o por IP?", "es")).toEqual([["clav", "ip"]]);
		expect(choices("Does it work in Chrome or Firefox or Safari?")).toEqual([["chrome", "firefox", "safari"]]);
		expect(choices("Does it run whether or not the page loads?")).toEqual([]);
		expect(choices("Does it need Node 18 or later?")).toEqual([]);
		expect(choices("¿Hacen falta 10 o más?", "es")).toEqual([]);
		// What a count question counts, joined by "or", is counted either way, not chosen between.
		expect(choices("How many dashes or asterisks does a thematic break need?")).toEqual([]);
		expect(choices("¿Cuántas claves o tokens puede tener una cuenta?", "es")).toEqual([]);
		expect(choices("How many keys can an account hold, 5 or 10?")).toEqual([["5", "10"]]);
	});

	test("a passage that holds none of the alternatives offered does not answer the choice", () => {
		const pool: Chunk = { id: "p1", chatbotId: "bot", sourceId: "pool", ordinal: 0, text: "clientTtl sets how long a Client instance stays in the Pool before it is closed. Default: null.", title: "Pool", kind: "text" };
		const hits = [{ chunk: pool, score: 3 }];
		const neither = weighEvidence({ question: "Is clientTtl given in seconds or in milliseconds?", locale: "en", hits });
		expect(neither.features.missingChoice).toBe(1);
		expect(neither.probability).toBe(0);
		expect(extractiveAnswer({ question: "Is clientTtl given in seconds or in milliseconds?", locale: "en", hits }).answered).toBe(false);
		const stated: Chunk = { ...pool, id: "p2", text: "clientTtl is the time in milliseconds a Client instance stays in the Pool before it is closed. Default: null." };
		expect(weighEvidence({ question: "Is clientTtl given in seconds or in milliseconds?", locale: "en", hits: [{ chunk: stated, score: 3 }] }).features.missingChoice).toBe(0);
	});

	test("...but the word before 'request' names no request the way 'the percent field' names a field", () => {
		expect(parseQuestion("What must the server do with the original request?", "en").names).toEqual([]);
		expect(parseQuestion("What does the server do with the percent field?", "en").names).toEqual(analyze("percent", "en"));
	});

	test("a question offering alternatives asks which, not yes or no: a 'not' in a passage does not rank it", () => {
		expect(parseQuestion("Are prompts picked by the user or by the model?", "en").expects).toBeUndefined();
		expect(parseQuestion("¿Es la clave o la dirección lo que cuenta?", "es").expects).toBeUndefined();
		expect(parseQuestion("Are prompts picked by the user?", "en").expects).toBe("polar");
		expect(parseQuestion("Is the header required or not?", "en").expects).toBe("polar");
		const hits = [
			textHit("c1", "prompts", "Implementors are free to expose prompts through any interface pattern that suits their needs; the protocol does not mandate any specific user interaction model."),
			textHit("c2", "prompts", "Prompts are designed to be user-controlled, meaning the user can explicitly select them for use.")
		];
		const typeOf = (question: string) =>
			weighEvidence({ question, locale: "en", hits, ...lexiconFor("en") }).candidates.map(s => [s.passage.chunk.id, s.features.typeFound, s.features.typeMissing]);
		// Neither passage is credited or faulted for a "not" it holds or lacks...
		expect(typeOf("Are prompts picked by the user or by the model?")).toEqual(expect.arrayContaining([["c1", 0, 0], ["c2", 0, 0]]));
		// ...as they are when the question is a yes/no one.
		expect(typeOf("Are prompts picked by the user?")).toEqual(expect.arrayContaining([["c1", 1, 0], ["c2", 0, 1]]));
	});

	test("an answer that lacks a name the question writes is declined; the same passage answers the question naming its product", () => {
		const lids: Chunk = { id: "n1", chatbotId: "bot", sourceId: "notes", ordinal: 0, text: "Replacement lids for the Zephyr-9 kettle cost 14 euros.", title: "Service notes", kind: "text" };
		const hits = [{ chunk: lids, score: 3 }];
		const aurora = weighEvidence({ question: "What does a replacement lid for the Aurora kettle cost?", locale: "en", hits });
		expect(aurora.features.missingName).toBe(1);
		// The price is said of the Zephyr-9, so it is not read as the Aurora's either.
		expect(aurora.features.typeMissing).toBe(1);
		expect(aurora.probability).toBe(0);
		expect(extractiveAnswer({ question: "What does a replacement lid for the Aurora kettle cost?", locale: "en", hits }).answered).toBe(false);
		expect(extractiveAnswer({ question: "What does a replacement lid for the Zephyr-9 kettle cost?", locale: "en", hits })).toMatchObject({ answered: true, text: expect.stringContaining("14 euros") });
	});
});

describe("word forms", () => {
	test("derivations and compounds relate; unrelated words and numbers do not", () => {
		expect(formRelatedness("pars", "parser")).toBeGreaterThan(0);
		expect(formRelatedness("bot", "chatbot")).toBeGreaterThan(0);
		expect(formRelatedness("reclam", "reclamacion")).toBeGreaterThan(0);
		expect(formRelatedness("cost", "custom")).toBe(0);
		expect(formRelatedness("10", "100")).toBe(0);
	});
});

describe("long messages", () => {
	test("related words are sought for the heaviest terms of a long message only, so its cost stays bounded", async () => {
		// 60 made-up words, each on a line of the page and in the message, and a message of 2,000 characters.
		const words = Array.from({ length: 60 }, (_, i) => `zorblax${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
		const text = words.map(word => `The ${word} setting is documented here.`).join("\n");
		const message = `${words.join(" ")} `.repeat(10).slice(0, 2000);
		const hits = await retrieve([page("settings", text)], message, "en");
		// The terms whose related words were looked for.
		const sought = new Set<string>();
		const related = (term: string) => {
			sought.add(term);
			return 0;
		};
		const evidence = weighEvidence({ question: message, locale: "en", hits, related });
		expect(evidence.terms.size).toBe(words.length);
		expect(sought.size).toBe(MAX_RELATED_TERMS);
		// A question of a few words is searched in full.
		sought.clear();
		const question = `Where is the ${words[0]} setting documented?`;
		weighEvidence({ question, locale: "en", hits, related });
		expect(sought).toEqual(new Set(analyze(question, "en")));
	});
});

describe("passage answers", () => {
	const plans = page(
		"plans",
		[
			"# Plans",
			"Plan | Chatbots | Messages a month",
			"Free | 3 | 100",
			"Pro | 10 | 5,000",
			"Business | 50 | 40,000",
			"",
			"# Support",
			"Our team is based in Leeds. The help desk answers on weekdays between 09:00 and 17:00."
		].join("\n")
	);

	test("'what time' frames a question as 'a qué hora' does: the answer need not say 'time'", () => {
		expect(parseQuestion("What time does the morning ferry leave?", "en").terms).not.toContain("time");
		expect(parseQuestion("¿A qué hora sale el ferry de la mañana?", "es").terms).not.toContain("hora");
		expect(parseQuestion("What time does the morning ferry leave?", "en").expects).toBe("clock");
	});

	test("a price or an hour spelled out in words answers a question asking for one", async () => {
		const fares = page("fares", "The morning ferry leaves at seven from the north pier. A single crossing costs nine euros and bicycles ride free.");
		for (const [question, expected] of [
			["How much does a single crossing cost?", "nine euros"],
			["What time does the morning ferry leave?", "at seven"]
		]) {
			const answer = extractiveAnswer({ question, locale: "en", hits: await retrieve([fares], question, "en"), ...lexiconFor("en") });
			expect([question, answer.answered, answer.text.includes(expected)]).toEqual([question, true, true]);
		}
	});

	test("a code name asked for ('which header…') may be written in plain words: its absence is no rule", async () => {
		const auth = page("auth", "Send the key in the Authorization header as a bearer token. Keys never leave the server.");
		const question = "Which header carries the key?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve([auth], question, "en"), ...lexiconFor("en") });
		expect(evidence.best?.features.typeMissing).toBe(1);
		expect(evidence.features.typeMissing).toBe(0);
		expect(declinedByRule(evidence.features)).toBe(false);
	});

	test("a yes/no question ranks first the sentence that says no, or only, over one that shares more words", async () => {
		const guide = page(
			"sandbox",
			"An agent can build a chatbot for the person it works for. The chatbot stays in a sandbox until a person claims it with the claim link the agent was given.\n\n" +
				"The claim link has the form https://example.test/claim/{token}. Hand it to the person; do not open it yourself."
		);
		const question = "Should the agent open the claim link on its own?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve([guide], question, "en"), ...lexiconFor("en") });
		expect(evidence.best?.passage.parts.join(" ")).toContain("do not open it yourself");
		// It ranks, and never declines: a yes can be said by stating the fact.
		expect(evidence.features.typeMissing).toBe(0);
		expect(evidence.features.typeFound).toBe(0);
	});

	test("words in quotes are a literal the answer must say, not a word like it", async () => {
		expect(parseQuestion("What does ms return for '1 week'?", "en").names).toEqual(["1", "week"]);
		expect(parseQuestion("Is “fast mode” on by default?", "en").names).toEqual(["fast", "mode"]);
		expect(parseQuestion("¿Qué devuelve «veinte horas»?", "es").names).toEqual(["veint", "hor"]);
		// An apostrophe inside a word opens no quote.
		expect(parseQuestion("Which code comes back if the chatbot hasn't finished its site's first training?", "en").names).toEqual([]);
		const examples = page("ms", "Examples of what ms returns:\nms('2 days') gives 172800000.\nms('1d') gives 86400000.\nms('10h') gives 36000000.\nms('100') gives 100.");
		const literal = async (question: string) => weighEvidence({ question, locale: "en", hits: await retrieve([examples], question, "en"), ...lexiconFor("en") }).features.missingName;
		// "week" is related to "days" by the word vectors, yet no passage says "1 week".
		expect(await literal("What does ms return for '1 week'?")).toBe(1);
		expect(await literal("What does ms return for '100'?")).toBe(0);
	});

	test("the word naming one field, option or header is a name the answer must say", async () => {
		expect(parseQuestion("What does the progress notification's percent field mean?", "en").names).toEqual(["percent"]);
		expect(parseQuestion("What happens when the retry option is off?", "en").names).toEqual(["retri"]);
		expect(parseQuestion("¿Qué significa el campo percent?", "es").names).toEqual(["percent"]);
		// "Which request header" asks for a header's name: "request" qualifies what is asked for, it names nothing.
		expect(parseQuestion("Which request header carries the key?", "en").names).toEqual([]);
		expect(parseQuestion("¿Qué cabecera de versión hace falta?", "es").names).toEqual([]);
		const progress = page("progress", "A progress notification carries the token, the progress value so far, an optional total and an optional message. The progress value must increase with each notification.");
		const missing = async (question: string) => weighEvidence({ question, locale: "en", hits: await retrieve([progress], question, "en"), ...lexiconFor("en") }).features.missingName;
		expect(await missing("What does the progress notification's percent field mean?")).toBe(1);
		expect(await missing("What does the progress notification's total field mean?")).toBe(0);
	});

	test("an acronym most retrieved chunks use is the site's vocabulary, not a name the answer must repeat", async () => {
		const site = [
			page("auth", "Send the key in the Authorization header as a bearer token. Keys never leave the server."),
			page("limits", "The API allows 60 calls a minute per key."),
			page("errors", "Every API error has a code and a message."),
			page("versions", "The API is versioned; the current version is 1.0.0.")
		];
		const question = "Which header carries the API key?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve(site, question, "en"), ...lexiconFor("en") });
		expect(evidence.best?.passage.parts.join(" ")).toContain("Authorization header");
		expect(evidence.features.missingName).toBe(0);
		// On a site where one page in five says it, "API" still names something the answer must hold.
		const rare = [site[0], page("shop", "Kettles ship from Leeds."), page("care", "Descale the kettle monthly."), page("lids", "Lids cost 14 euros; the shop API lists them."), page("team", "Our team answers on weekdays.")];
		const strict = weighEvidence({ question, locale: "en", hits: await retrieve(rare, question, "en"), ...lexiconFor("en") });
		expect(strict.features.missingName).toBe(1);
	});

	test("a phrasal verb in the question meets the one word the page uses for it", async () => {
		const readme = [
			page("wildcards", "The * character may be used as a wildcard. You can also exclude specific debuggers by prefixing them with a - character."),
			page("colours", "Every debug instance has a colour derived from its namespace name.")
		];
		const question = "How do I leave out one namespace while using a wildcard?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve(readme, question, "en"), ...lexiconFor("en") });
		expect(evidence.best?.passage.parts.join(" ")).toContain("exclude specific debuggers");
		expect(evidence.best?.unmatched.map(u => u.term)).not.toContain(analyze("leave", "en")[0]);
	});

	test("declines a near miss that asks for a price the page does not give", async () => {
		const question = "How much does the Pro plan cost per month?";
		const answer = extractiveAnswer({ question, locale: "en", hits: await retrieve([plans], question, "en") });
		expect(answer.answered).toBe(false);
		expect(answer.citations).toEqual([]);
	});

	test("a passage without the expected kind of answer ranks below one with it", async () => {
		const question = "What hours is the help desk open?";
		const evidence = weighEvidence({ question, locale: "en", hits: await retrieve([plans], question, "en") });
		expect(evidence.best?.passage.parts.join(" ")).toContain("09:00 and 17:00");
		expect(evidence.best?.features.typeMissing).toBe(0);
	});

	test("drops opening sentences that hold none of the question's words", async () => {
		const source = page("care", "Our kettles are built to last. The descaling interval is eleven weeks. Rinse after descaling.");
		const question = "What is the descaling interval?";
		const answer = extractiveAnswer({ question, locale: "en", hits: await retrieve([source], question, "en") });
		expect(answer.answered).toBe(true);
		expect(answer.text.startsWith("The descaling interval is eleven weeks.")).toBe(true);
	});
});
