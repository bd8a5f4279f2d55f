/**
 * Answer quality end to end, the way people build chatbots: each corpus's pages are served as HTML
 * by a loopback website, an agent creates a chatbot from it with the MCP tool `create_chatbot`
 * (POST /mcp, with the API key of a freshly signed-up account, because an anonymous sandbox answers
 * only 10 messages in all), the real crawler reads the site, the real trainer indexes it, and every
 * dev-set question of the corpus (both splits; follow-ups in one conversation_id) is asked through
 * POST /api/chat/{slug}/messages. Citations are mapped back to page keys by their URL path.
 *
 * Beside it, in the same run: the answerer before issue 12 and the new one, in process, over the
 * same pages read by the benchmark's own loader (what bench/answers.bench.ts measures), so the
 * table shows what the HTTP path loses or keeps.
 *
 * Run: `npx tsx bench/answers-e2e.bench.ts` (`ANSWERS_DUMP=1` also lists the questions graded
 * differently in process and over HTTP, with both answers).
 */
import { startApp, TestApp } from "../test/helpers/app";
import { html, LoopbackSite, startSite } from "../test/helpers/loopback-site";
import { callTool, createApiKey, signUp } from "../test/helpers/mcp-http";
import { corpusHtmlPages } from "./answers/corpus";
import { CORPORA, Corpus, DevQuestion, QUESTIONS } from "./answers/dev-set";
import { grade, Graded, summaryColumns } from "./answers/evaluate";
import { indexCorpus } from "./answers/index-corpus";
import { baseline, current, SystemResult } from "./answers/systems";
import { printMarkdownTable, runStandalone } from "./table";

/** Corpora asked over HTTP: two English, one Spanish, and the specification. */
const E2E_CORPORA = ["docs-en-a", "docs-es", "undici", "commonmark"];
/** Chatbots a free account holds: each group of this many corpora is built by a new account. */
const CHATBOTS_PER_ACCOUNT = 3;
const READY_TIMEOUT_MS = 120_000;
/** Chat requests per client address before switching (the chat budget is 60 a minute per IP). */
const REQUESTS_PER_IP = 50;

export interface E2eResult {
	graded: Record<string, Graded[]>;
}

async function serveCorpus(corpus: Corpus): Promise<LoopbackSite> {
	const pages = corpusHtmlPages(corpus);
	const index = `<!doctype html><html><head><title>${corpus.name}</title></head><body><main><h1>${corpus.name}</h1><ul>${pages
		.map(p => `<li><a href="/${p.key}">${p.key}</a></li>`)
		.join("")}</ul></main></body></html>`;
	return startSite({ "/": html(index), ...Object.fromEntries(pages.map(p => [`/${p.key}`, html(p.html)])) });
}

interface ChatBody {
	answer: string;
	answered: boolean;
	citations: Array<{ url?: string; source_id: string }>;
	conversation_id: string;
}

let ipCounter = 0;
function clientIp(): string {
	ipCounter++;
	return `198.51.100.${Math.floor(ipCounter / REQUESTS_PER_IP) + 1}`;
}

async function post(url: string, body: unknown, ip: string): Promise<{ status: number; body: ChatBody }> {
	const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Forwarded-For": ip }, body: JSON.stringify(body) });
	return { status: res.status, body: (await res.json()) as ChatBody };
}

async function untilReady(app: TestApp, chatbotId: string, key: string): Promise<void> {
	const deadline = Date.now() + READY_TIMEOUT_MS;
	for (;;) {
		const got = await callTool(app.baseUrl, "get_chatbot", { chatbot_id: chatbotId }, { key });
		const status = got.data?.status;
		if (status === "ready") return;
		if (status === "failed" || Date.now() > deadline) throw new Error(`chatbot ${chatbotId} did not become ready: ${got.text}`);
		await new Promise(resolve => setTimeout(resolve, 250));
	}
}

/** Builds the corpus's chatbot through MCP and asks every question of the corpus over HTTP. */
async function askOverHttp(app: TestApp, key: string, corpus: Corpus, questions: DevQuestion[]): Promise<Graded[]> {
	const site = await serveCorpus(corpus);
	try {
		const created = await callTool(app.baseUrl, "create_chatbot", { website_url: `${site.origin}/`, language: corpus.locale }, { key, ip: clientIp() });
		if (created.isError || !created.data) throw new Error(`create_chatbot failed: ${created.text}`);
		const chatbotId = created.data.chatbot_id as string;
		const slug = String(created.data.chat_url).split("/").pop() as string;
		await untilReady(app, chatbotId, key);
		const conversations = new Map<string, string>();
		const graded: Graded[] = [];
		for (const question of questions) {
			const conversationId = question.conv ? conversations.get(question.conv) : undefined;
			const reply = await post(`${app.baseUrl}/api/chat/${slug}/messages`, { message: question.q, ...(conversationId ? { conversation_id: conversationId } : {}) }, clientIp());
			if (reply.status !== 200) throw new Error(`chat answered HTTP ${reply.status}: ${JSON.stringify(reply.body)}`);
			if (question.conv) conversations.set(question.conv, reply.body.conversation_id);
			const cited = reply.body.citations.map(c => (c.url ? new URL(c.url).pathname.replace(/^\//, "") : c.source_id));
			graded.push(grade(question, { answered: reply.body.answered, text: reply.body.answer, cited }));
		}
		return graded;
	} finally {
		await site.stop();
	}
}

/** The in-process answerers over the same corpus, conversations in order. */
async function askInProcess(corpus: Corpus, questions: DevQuestion[]): Promise<Record<string, Graded[]>> {
	const index = await indexCorpus(corpus);
	const out: Record<string, Graded[]> = {};
	for (const system of [baseline, current]) {
		const histories = new Map<string, string[]>();
		out[system.name] = [];
		for (const question of questions) {
			const history = question.conv ? (histories.get(question.conv) ?? []) : [];
			const result: SystemResult = await system.ask(index, { question: question.q, history: [...history], locale: corpus.locale });
			if (question.conv) histories.set(question.conv, [...history, question.q]);
			out[system.name].push(grade(question, result));
		}
	}
	return out;
}

const HTTP = "new, over HTTP (crawled, trained, asked)";

export async function run(): Promise<E2eResult> {
	const app = await startApp({ env: { TRUST_PROXY: "1", CRAWL_ALLOW_PRIVATE: "true", CRAWL_USE_BROWSER: "false" } });
	const graded: Record<string, Graded[]> = { [`${baseline.name}, in process`]: [], [`${current.name}, in process`]: [], [HTTP]: [] };
	try {
		let key = "";
		for (const [i, name] of E2E_CORPORA.entries()) {
			if (i % CHATBOTS_PER_ACCOUNT === 0) {
				const { cookie } = await signUp(app.baseUrl, `bench-${Date.now()}-${i}@example.com`);
				key = await createApiKey(app.baseUrl, cookie);
			}
			const corpus = CORPORA.find(c => c.name === name) as Corpus;
			const questions = QUESTIONS.filter(q => q.corpus === name);
			const local = await askInProcess(corpus, questions);
			graded[`${baseline.name}, in process`].push(...local[baseline.name]);
			graded[`${current.name}, in process`].push(...local[current.name]);
			graded[HTTP].push(...(await askOverHttp(app, key, corpus, questions)));
		}
	} finally {
		await app.stop();
	}
	return { graded };
}

export function printTable(result: E2eResult): void {
	const rows: Array<Record<string, string>> = [];
	const groups = [...E2E_CORPORA.map(name => ({ label: name, match: (q: DevQuestion) => q.corpus === name })), { label: "ALL", match: () => true }];
	for (const group of groups) {
		for (const [answerer, graded] of Object.entries(result.graded)) {
			rows.push({ corpus: group.label, answerer, ...summaryColumns(graded.filter(g => group.match(g.question))) });
		}
	}
	printMarkdownTable(rows, "End to end (both splits): chatbot created with MCP create_chatbot from a loopback site, crawled and trained by the services, asked over POST /api/chat/{slug}/messages:");
	if (process.env.ANSWERS_DUMP) printDifferences(result.graded[`${current.name}, in process`], result.graded[HTTP]);
}

/** `ANSWERS_DUMP=1`: each question graded differently in process and over HTTP, with both answers (what crawling and training change). */
function printDifferences(inProcess: readonly Graded[], overHttp: readonly Graded[]): void {
	const line = (g: Graded) => `${g.verdict} cited=${g.outcome.cited.join(",")} ${g.outcome.text.replace(/\n/g, " ⏎ ").slice(0, 220)}`;
	inProcess.forEach((local, i) => {
		const remote = overHttp[i];
		if (remote.verdict === local.verdict && remote.citationOk === local.citationOk) return;
		console.log(`\n[${local.question.id}] ${local.question.q}\n   in process: ${line(local)}\n   over HTTP:  ${line(remote)}`);
	});
}

if (require.main === module) runStandalone("answers end to end", run, printTable);
