/**
 * A chatbot's lifecycle survives workers that are not running, with no human action:
 *
 * - an anonymous `create_chatbot` whose site crawl finishes while no trainer runs reports
 *   `training` (not forever: its training request is data), and once a trainer joins the cluster it
 *   is trained and answers;
 * - a `create_chatbot` made while no crawler runs keeps its chatbot, reports `crawling`, and is
 *   crawled and trained once a crawler and a trainer join.
 *
 * Real parts: the gateway over HTTP, the MCP tool server, the crawler reading a loopback site, the
 * trainer, vectors and chat services. The workers are added to the running broker later, as a
 * process that joins the cluster would be.
 */
import { startApp, TestApp } from "../helpers/app";
import { ask } from "../helpers/chat-client";
import { html, LoopbackSite, startSite } from "../helpers/loopback-site";
import { callTool, nextIp } from "../helpers/mcp-http";
import { eventually } from "../helpers/processes";
import createCrawlerService from "../../services/crawler.service";
import createTrainerService from "../../services/trainer.service";

let site: LoopbackSite;

const page = (title: string, body: string, links: string[] = []) =>
	html(`<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${body}</p>${links.map(l => `<a href="${l}">${l}</a>`).join(" ")}</main></body></html>`);

beforeAll(async () => {
	site = await startSite({
		"/": page("Fjord Ferries", "Fjord Ferries sails from Bergen to Flåm every morning at seven.", ["/tickets"]),
		"/tickets": page("Tickets", "A return ticket from Bergen to Flåm costs 74 euros; children under six travel free.")
	});
});
afterAll(() => site?.stop());

const ENV = { TRUST_PROXY: "1", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" };

async function getChatbot(app: TestApp, id: string): Promise<Record<string, unknown>> {
	return (await callTool(app.baseUrl, "get_chatbot", { chatbot_id: id }, { ip: nextIp() })).data as Record<string, unknown>;
}

async function createSandbox(app: TestApp): Promise<Record<string, unknown>> {
	const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: "en" }, { ip: nextIp() });
	expect(created.isError).toBe(false);
	return created.data as Record<string, unknown>;
}

async function answersTickets(app: TestApp, chatbot: Record<string, unknown>): Promise<void> {
	const slug = String(chatbot.chat_url).split("/c/")[1];
	const reply = await ask(app.baseUrl, slug, "How much is a return ticket from Bergen to Flåm?", {}, nextIp());
	expect(reply.status).toBe(200);
	expect(reply.body.answer).toContain("74 euros");
}

it("a crawl that ends while no trainer runs is trained once a trainer joins", async () => {
	const app = await startApp({ env: { ...ENV, SERVICES: "gateway,chatbots,accounts,mcp,storage,crawler,vectors,chat" } });
	try {
		const created = await createSandbox(app);
		const id = created.chatbot_id as string;
		const crawled = await eventually(async () => {
			const chatbot = await getChatbot(app, id);
			return (chatbot.pages as { crawled: number }).crawled === 2 && chatbot.status !== "crawling" ? chatbot : undefined;
		}, 30_000, "the crawl to finish");
		// The crawl asked for training; with no trainer it waits, and says so.
		expect(crawled).toMatchObject({ status: "training", ready: false });

		app.broker.createService(createTrainerService(app.config));
		const ready = await eventually(async () => {
			const chatbot = await getChatbot(app, id);
			return chatbot.status === "ready" ? chatbot : undefined;
		}, 30_000, "the chatbot to be trained after the trainer joined");
		expect(ready).toMatchObject({ ready: true, usage: { messages_used: 0 } });
		await answersTickets(app, ready);
	} finally {
		await app.stop();
	}
});

it("a chatbot created while no crawler runs is kept, and crawled and trained once the workers join", async () => {
	const app = await startApp({ env: { ...ENV, SERVICES: "gateway,chatbots,accounts,mcp,storage,vectors,chat" } });
	try {
		const created = await createSandbox(app);
		expect(created).toMatchObject({ status: "crawling", ready: false, pages: { found: 0, crawled: 0 } });
		const id = created.chatbot_id as string;
		expect((await getChatbot(app, id)).status).toBe("crawling");

		app.broker.createService(createCrawlerService(app.config));
		app.broker.createService(createTrainerService(app.config));
		const ready = await eventually(async () => {
			const chatbot = await getChatbot(app, id);
			return chatbot.status === "ready" ? chatbot : undefined;
		}, 60_000, "the chatbot to be crawled and trained after the workers joined");
		expect(ready).toMatchObject({ pages: { crawled: 2 } });
		await answersTickets(app, ready);
	} finally {
		await app.stop();
	}
});
