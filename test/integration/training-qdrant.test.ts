/**
 * The vectors service on its Qdrant back end, end to end: with QDRANT_URL set, a demo trains,
 * answers with citations, retrains atomically and is deleted by the janitor, while every request
 * the service sends to "Qdrant" is checked against Qdrant's published OpenAPI document. No Qdrant
 * server can be installed here, so the URL points at the loopback contract server and its
 * in-memory emulation (test/helpers/qdrant-contract-server.ts); the same app runs against a real
 * Qdrant when QDRANT_URL is set in the environment of this test.
 */
import * as path from "node:path";
import { startApp, TestApp } from "../helpers/app";
import { ask, DemoClient } from "../helpers/chat-client";
import { QdrantContractServer, startQdrantContractServer } from "../helpers/qdrant-contract-server";

const OPENAPI_PATH = path.resolve(__dirname, "../fixtures/qdrant-openapi-v1.19.json");

let server: QdrantContractServer | undefined;
let app: TestApp;

beforeAll(async () => {
	const realQdrant = process.env.QDRANT_URL;
	if (!realQdrant) server = await startQdrantContractServer(OPENAPI_PATH);
	app = await startApp({
		env: {
			TRUST_PROXY: "1",
			QDRANT_URL: realQdrant ?? (server as QdrantContractServer).url,
			...(process.env.QDRANT_API_KEY ? { QDRANT_API_KEY: process.env.QDRANT_API_KEY } : {}),
			QDRANT_COLLECTION: `chunks_e2e_${Date.now()}`
		}
	});
});
afterEach(() => {
	expect(server?.violations.splice(0) ?? []).toEqual([]);
});
afterAll(async () => {
	await app?.stop();
	await server?.stop();
});

it("trains, answers, retrains and forgets a chatbot with the index in Qdrant", async () => {
	const demo = await DemoClient.create(app.baseUrl);
	await demo.addText("Warranty\n\nThe warranty lasts 37 months from the day of delivery.");
	await demo.train();
	await demo.untilReady();
	expect(await app.broker.call("vectors.stats")).toMatchObject({ backend: "qdrant" });
	const first = await ask(app.baseUrl, demo.slug, "How long is the warranty?");
	expect(first.body.answer).toContain("37 months");
	expect(first.body.citations).toEqual([expect.objectContaining({ title: "Warranty" })]);

	await demo.addText("Returns\n\nUnused kettles can be returned within 45 days.");
	await demo.train();
	await demo.untilReady();
	expect((await ask(app.baseUrl, demo.slug, "Within how many days can kettles be returned?")).body.answer).toContain("45 days");
	expect((await ask(app.baseUrl, demo.slug, "How long is the warranty?")).body.answer).toContain("37 months");

	const chatbot = (await app.broker.call<{ _id: string } | null, object>("chatbots.findBySlug", { slug: demo.slug })) as { _id: string };
	await app.broker.call("vectors.deleteChatbot", { chatbot_id: chatbot._id });
	expect(await app.broker.call("vectors.search", { chatbot_id: chatbot._id, query: "warranty", limit: 5 })).toEqual([]);
	if (server) expect(server.exchanges.some(e => e.operationId === "query_points")).toBe(true);
});
