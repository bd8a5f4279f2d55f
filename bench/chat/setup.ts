/**
 * A chatbot ready to answer from 10,000 chunks, made through the services as far as they allow:
 * created with a message cap no benchmark reaches, trained for real on one text, then its active
 * generation filled up to 10,000 chunks through `vectors.upsert` (the training of 8 MB of text
 * would take minutes and measure the trainer, not the chat path).
 */
import type { ServiceBroker } from "moleculer";
import type { IndexedChunk } from "../../lib/retrieval/vector-index";
import { eventually } from "../../test/helpers/processes";
import { knowledgeChunks } from "./knowledge";

export interface BenchChatbot {
	id: string;
	slug: string;
	items: IndexedChunk[];
}

// Small enough for one NATS message (1 MB by default), as the trainer sends them.
const UPSERT_BATCH = 200;

export async function chatbotWithKnowledge(broker: ServiceBroker): Promise<BenchChatbot> {
	const chatbot = await broker.call<{ _id: string; slug: string }, object>("chatbots.create", {
		kind: "sandbox",
		locale: "en",
		name: "chat bench",
		limits: { max_urls: 5, max_files: 0, max_chars: 50_000, max_messages: 1_000_000_000, max_pages: 5 },
		ttl_ms: 86_400_000
	});
	await broker.call("chatbots.addSource", { id: chatbot._id, kind: "text", status: "ready", text: "Benchmark chatbot. It answers from the project's documentation." });
	await broker.call("trainer.start", { chatbot_id: chatbot._id });
	const generation = await eventually(
		async () => {
			const { chatbot: got } = await broker.call<{ chatbot: { generation: number; training: unknown } }, object>("chatbots.get", { id: chatbot._id, with_sources: false });
			return got.generation > 0 && got.training === null ? got.generation : undefined;
		},
		120_000,
		"the benchmark chatbot's first training"
	);
	const items = await knowledgeChunks(chatbot._id);
	for (let at = 0; at < items.length; at += UPSERT_BATCH) {
		await broker.call("vectors.upsert", { chatbot_id: chatbot._id, generation, items: items.slice(at, at + UPSERT_BATCH) }, { timeout: 120_000 });
	}
	return { id: chatbot._id, slug: chatbot.slug, items };
}
