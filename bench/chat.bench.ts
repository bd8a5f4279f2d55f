/**
 * The chat API's extractive answer at 10,000 indexed chunks (chat/setup.ts), three ways, in one run:
 *
 * - baseline: the library's answer path called directly (chat/direct.ts: query, index search,
 *   extractive answer), one call after another in this process;
 * - one process: `POST /api/chat/{slug}/messages` against the all-in-one app (every service in this
 *   process, on tsx), which also counts the message against the cap and stores the conversation;
 * - over NATS: the gateway in this process, every other service in a child process started by the
 *   real runner (`bin/start.ts`), talking through a real nats-server (JetStream on).
 *
 * HTTP load: 16 keep-alive connections from a client process (load/client.ts), the same question
 * every time, 1 s warm-up, then BENCH_SECONDS (default 8) measured.
 *
 * Run alone: `npx tsx bench/chat.bench.ts` (about 1.5 min).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ServiceBroker } from "moleculer";
import { startApp, TestApp } from "../test/helpers/app";
import { NodeProcess, startNodeProcess } from "../test/helpers/processes";
import { RunningServer, startNats } from "../test/helpers/servers";
import { measureDirect } from "./chat/direct";
import { benchQuestion, CHUNK_COUNT } from "./chat/knowledge";
import { BenchChatbot, chatbotWithKnowledge } from "./chat/setup";
import { raisedPolicies } from "./gateway/fixture";
import type { LoadResult, LoadTarget } from "./load/client";
import { defaultLoadOptions, loadInChild } from "./load/spawn";
import { printMarkdownTable, runStandalone } from "./table";

export interface ChatRow {
	way: string;
	result: LoadResult;
	note: string;
}

/** Every service but the gateway: what runs beside it when the chat path crosses NATS. */
const BACKEND_SERVICES = "chatbots,demo-session,storage,janitor,accounts,mcp,discovery,crawler,extractor,trainer,vectors,chat,channels,billing";

function chatTarget(baseUrl: string, slug: string, question: string): LoadTarget {
	return {
		url: `${baseUrl}/api/chat/${slug}/messages`,
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: "application/json" },
		body: JSON.stringify({ message: question })
	};
}

async function checkAnswer(target: LoadTarget): Promise<string> {
	const res = await fetch(target.url, { method: "POST", headers: target.headers, body: target.body });
	const body = (await res.json()) as { answer?: string; answered?: boolean };
	if (res.status !== 200 || !body.answered || !body.answer) throw new Error(`The chat API did not answer (${res.status}): ${JSON.stringify(body).slice(0, 300)}`);
	return body.answer;
}

async function onePass(broker: ServiceBroker, baseUrl: string, question: string): Promise<{ chatbot: BenchChatbot; result: LoadResult; answer: string }> {
	const chatbot = await chatbotWithKnowledge(broker);
	const target = chatTarget(baseUrl, chatbot.slug, question);
	const answer = await checkAnswer(target);
	return { chatbot, answer, result: await loadInChild(target) };
}

export async function run(): Promise<ChatRow[]> {
	const question = benchQuestion();
	const options = defaultLoadOptions();
	const rows: ChatRow[] = [];
	const gateway = { ratePolicies: raisedPolicies(["chat"]) };

	const app = await startApp({ env: { LOG_LEVEL: "error" }, gateway });
	try {
		const local = await onePass(app.broker, app.baseUrl, question);
		const direct = await measureDirect(local.chatbot.items, question, options);
		rows.push({ way: "answer function called directly (baseline)", result: direct, note: "query + index search + extractive answer, no I/O" });
		const same = direct.sample === local.answer ? "same answer as the baseline" : "answer differs from the baseline (the trained text is one more chunk)";
		rows.push({ way: "HTTP, all services in one process", result: local.result, note: same });
	} finally {
		await app.stop();
	}

	let nats: RunningServer | undefined;
	let backend: NodeProcess | undefined;
	let front: TestApp | undefined;
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-chat-nats-"));
	try {
		nats = await startNats();
		backend = startNodeProcess("bin/start.ts", { TRANSPORTER: nats.url, SERVICES: BACKEND_SERVICES, DATA_DIR: dataDir, NODE_ID: "bench-backend", LOG_LEVEL: "error" });
		front = await startApp({ env: { SERVICES: "gateway", TRANSPORTER: nats.url, NODE_ID: "bench-gateway", LOG_LEVEL: "error" }, gateway });
		await front.broker.waitForServices(["chat", "chatbots", "vectors", "trainer"], 60_000);
		const remote = await onePass(front.broker, front.baseUrl, question);
		rows.push({ way: "HTTP, gateway and chat in separate processes over NATS", result: remote.result, note: "" });
	} finally {
		await front?.stop();
		await backend?.stop();
		await nats?.stop();
		fs.rmSync(dataDir, { recursive: true, force: true });
	}
	return rows;
}

export function printTable(rows: ChatRow[]): void {
	const direct = rows[0]?.result.requestsPerSecond ?? NaN;
	const local = rows[1]?.result.requestsPerSecond ?? NaN;
	const table = rows.map((row, i) => {
		let ratio = "";
		if (i === 1) ratio = `${(row.result.requestsPerSecond / direct).toFixed(2)}× baseline (goal ≥ 0.5: ${row.result.requestsPerSecond / direct >= 0.5 ? "met" : "not met"})`;
		if (i === 2) ratio = `${(row.result.requestsPerSecond / local).toFixed(2)}× one process (goal ≥ 0.5: ${row.result.requestsPerSecond / local >= 0.5 ? "met" : "not met"})`;
		return {
			way: row.way,
			"answers/s": Math.round(row.result.requestsPerSecond).toLocaleString("en-US"),
			"p50 ms": row.result.p50Ms.toFixed(2),
			"p99 ms": row.result.p99Ms.toFixed(2),
			ratio,
			note: row.note
		};
	});
	const { connections, durationMs } = defaultLoadOptions();
	printMarkdownTable(table, `Extractive answers at ${CHUNK_COUNT.toLocaleString("en-US")} indexed chunks; HTTP rows: ${connections} keep-alive connections, ${durationMs / 1000} s after 1 s of warm-up`);
}

if (require.main === module) runStandalone("Chat", run, printTable);
