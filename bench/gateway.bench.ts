/**
 * Public hot paths under load, each beside its anchor measured in the same run:
 *
 * | path                           | anchor                                                      |
 * |--------------------------------|-------------------------------------------------------------|
 * | GET /v2/health                 | bare node:http answering "ok"                               |
 * | POST /mcp tools/list           | bare node, and the MCP SDK's stateless Streamable HTTP server |
 * |                                | (shown, not judged: node:http sending the same 21 KB answer)  |
 * | the same, gzip accepted        | the same two                                                |
 * | POST /mcp tools/call get_chatbot | bare node                                                 |
 * | GET /api/tools/sessions/{id}   | bare node                                                   |
 *
 * The project is the all-in-one app (every service in one process, on tsx as `npm start` runs it;
 * gateway/project.ts), the anchors run in processes of their own (anchors.ts), and the load client
 * (load/client.ts: 16 keep-alive connections, closed loop, 1 s warm-up, then 8 s measured) in
 * another, so no server shares its process with the client or with this harness. Each project
 * row is measured between two runs of each of its anchors (bare, SDK, project, SDK, bare), and the
 * anchor's figures are the mean of its two runs: on a machine whose speed drifts during the run
 * (seen here: bare node at 5,600 req/s, then 41,900 a minute later), an anchor measured on one side
 * only made ratios swing by a factor of two.
 *
 * The "client CPU" column is the load client's own share of a core: near 100 % it, not the server,
 * bounds the figure (the bare anchor runs at about 75-80 % on a 2-core machine). To compare two
 * commits, server CPU per request (bench/gateway/server-cpu.ts) varies less than req/s.
 *
 * tools/list is measured twice: as a client that sends no Accept-Encoding gets it (21 KB of JSON),
 * and as the official SDK client gets it (its fetch sends `Accept-Encoding: gzip, deflate`): 2.4 KB
 * of gzip prepared once (lib/http/gzip-prefix.ts). The SDK's server answers both uncompressed.
 * Writing 21 KB costs a Node server about as much again as a bare "ok" (seen here: 30 µs of server
 * CPU per request against 16), so the plain row also shows, without a goal, node:http answering
 * the same bytes and nothing else: how much of the gap to bare node any server would keep.
 *
 * Run alone: `npx tsx bench/gateway.bench.ts` (about 3.5 min; BENCH_SECONDS=3 shortens each run).
 */
import type { LoadResult, LoadTarget } from "./load/client";
import { defaultLoadOptions, loadInChild } from "./load/spawn";
import { jsonRpc, MCP_HEADERS } from "./gateway/fixture";
import { AnchorProcess, startAnchor, startProject } from "./gateway/processes";
import { printMarkdownTable, runStandalone } from "./table";

/** What the official SDK client sends (its fetch adds Accept-Encoding). */
const GZIP_HEADERS = { ...MCP_HEADERS, "Accept-Encoding": "gzip, deflate" };

export interface LoadRow {
	path: string;
	server: string;
	result: LoadResult;
	/** Ratios this row is judged by: anchor name → goal (minimum ratio to that anchor). */
	goals?: Record<string, number>;
	/** Anchors whose ratio is shown for context, with no goal. */
	shown?: string[];
	/** Anchor rows are named by `server`; project rows point at theirs. */
	anchors?: Record<string, LoadResult>;
}

export async function run(): Promise<LoadRow[]> {
	const options = defaultLoadOptions();
	const project = await startProject();
	const anchors: AnchorProcess[] = [];
	try {
		const bare = await startAnchor("bare");
		anchors.push(bare);
		const sdk = await startAnchor("sdk");
		anchors.push(sdk);
		const sameBytes = await startAnchor("same-bytes");
		anchors.push(sameBytes);
		const base = project.baseUrl;
		const toolsList = jsonRpc("tools/list");
		const targets: Record<string, LoadTarget> = {
			health: { url: `${base}/v2/health` },
			toolsList: { url: `${base}/mcp`, method: "POST", headers: MCP_HEADERS, body: toolsList },
			toolsListGzip: { url: `${base}/mcp`, method: "POST", headers: GZIP_HEADERS, body: toolsList },
			getChatbot: {
				url: `${base}/mcp`,
				method: "POST",
				headers: MCP_HEADERS,
				body: jsonRpc("tools/call", { name: "get_chatbot", arguments: { chatbot_id: project.chatbotId } })
			},
			demoSession: { url: `${base}/api/tools/sessions/${project.demoSessionId}` }
		};
		await checkAnswers(targets, [`${sdk.baseUrl}/mcp`, `${sameBytes.baseUrl}/mcp`], toolsList);

		const rows: LoadRow[] = [];
		const measure = (target: LoadTarget) => loadInChild(target, options);
		const bareTarget: LoadTarget = { url: `${bare.baseUrl}/` };
		const sdkTarget = (headers: Record<string, string>): LoadTarget => ({ url: `${sdk.baseUrl}/mcp`, method: "POST", headers, body: toolsList });

		// Each project row between runs of its anchors, in mirrored order: bare, sdk, project, sdk, bare.
		const bracketed = async (project: LoadTarget, anchorTargets: Record<string, LoadTarget>) => {
			const before: Record<string, LoadResult> = {};
			for (const [name, target] of Object.entries(anchorTargets)) before[name] = await measure(target);
			const result = await measure(project);
			const anchors: Record<string, LoadResult> = {};
			for (const [name, target] of Object.entries(anchorTargets).reverse()) anchors[name] = meanOf(before[name], await measure(target));
			return { result, anchors };
		};

		let pair = await bracketed(targets.health, { bare: bareTarget });
		rows.push({ path: "GET /v2/health", server: "project", result: pair.result, anchors: pair.anchors, goals: { bare: 0.6 } });
		rows.push({ path: "GET /v2/health", server: "bare node", result: pair.anchors.bare });

		const sameBytesTarget: LoadTarget = { url: `${sameBytes.baseUrl}/mcp`, method: "POST", headers: MCP_HEADERS, body: toolsList };
		pair = await bracketed(targets.toolsList, { bare: bareTarget, sdk: sdkTarget(MCP_HEADERS), "same bytes": sameBytesTarget });
		rows.push({ path: "POST /mcp tools/list", server: "project", result: pair.result, anchors: pair.anchors, goals: { bare: 0.4, sdk: 10 }, shown: ["same bytes"] });
		rows.push({ path: "POST /mcp tools/list", server: "bare node", result: pair.anchors.bare });
		rows.push({ path: "POST /mcp tools/list", server: "MCP SDK stateless", result: pair.anchors.sdk });
		rows.push({ path: "POST /mcp tools/list", server: "node:http, same bytes", result: pair.anchors["same bytes"] });

		pair = await bracketed(targets.toolsListGzip, { bare: bareTarget, sdk: sdkTarget(GZIP_HEADERS) });
		const gzipPath = "POST /mcp tools/list, gzip accepted";
		rows.push({ path: gzipPath, server: "project", result: pair.result, anchors: pair.anchors, goals: { bare: 0.4, sdk: 10 } });
		rows.push({ path: gzipPath, server: "bare node", result: pair.anchors.bare });
		rows.push({ path: gzipPath, server: "MCP SDK stateless", result: pair.anchors.sdk });

		pair = await bracketed(targets.getChatbot, { bare: bareTarget });
		rows.push({ path: "POST /mcp get_chatbot", server: "project", result: pair.result, anchors: pair.anchors, goals: { bare: 0.3 } });
		rows.push({ path: "POST /mcp get_chatbot", server: "bare node", result: pair.anchors.bare });

		pair = await bracketed(targets.demoSession, { bare: bareTarget });
		rows.push({ path: "GET getDemoSession", server: "project", result: pair.result, anchors: pair.anchors, goals: { bare: 0.3 } });
		rows.push({ path: "GET getDemoSession", server: "bare node", result: pair.anchors.bare });
		return rows;
	} finally {
		for (const anchor of anchors) await anchor.stop();
		await project.stop();
	}
}

/**
 * An anchor's two runs, just before and just after its project row, as one: on a machine whose speed
 * drifts (a VM whose neighbours come and go), the ratio then compares like with like.
 */
export function meanOf(before: LoadResult, after: LoadResult): LoadResult {
	const mean = (a: number, b: number) => (a + b) / 2;
	return {
		requests: before.requests + after.requests,
		requestsPerSecond: mean(before.requestsPerSecond, after.requestsPerSecond),
		p50Ms: mean(before.p50Ms, after.p50Ms),
		p99Ms: mean(before.p99Ms, after.p99Ms),
		clientCpu: before.clientCpu === undefined || after.clientCpu === undefined ? undefined : mean(before.clientCpu, after.clientCpu)
	};
}

/** Every target answers 200 (the load client checks each status too) and the anchors list the project's tools. */
async function checkAnswers(targets: Record<string, LoadTarget>, anchorUrls: readonly string[], toolsList: string): Promise<void> {
	const answer = async (target: LoadTarget) => {
		// As the load client asks: fetch would otherwise add Accept-Encoding by itself.
		const headers = { "Accept-Encoding": "identity", ...target.headers };
		const res = await fetch(target.url, { method: target.method ?? "GET", headers, body: target.body });
		const text = await res.text();
		if (res.status !== 200) throw new Error(`${target.url} answered ${res.status}: ${text.slice(0, 200)}`);
		// fetch decodes gzip by itself; the header says whether the wire carried it.
		const gzipped = res.headers.get("content-encoding") === "gzip";
		if (gzipped !== (target === targets.toolsListGzip)) throw new Error(`${target.url} answered ${gzipped ? "gzip" : "uncompressed"} unexpectedly`);
		return text;
	};
	for (const target of Object.values(targets)) await answer(target);
	const ours = JSON.parse(await answer(targets.toolsList)) as { result: unknown };
	for (const url of anchorUrls) {
		const theirs = JSON.parse(await answer({ url, method: "POST", headers: MCP_HEADERS, body: toolsList })) as { result: unknown };
		if (JSON.stringify(ours.result) !== JSON.stringify(theirs.result)) throw new Error(`The project and the anchor at ${url} list different tools`);
	}
	const got = JSON.parse(await answer(targets.getChatbot)) as { result?: { isError?: boolean } };
	if (got.result?.isError !== false) throw new Error(`get_chatbot did not succeed: ${JSON.stringify(got).slice(0, 300)}`);
}

const number = (n: number) => Math.round(n).toLocaleString("en-US");

/** `0.42× bare (goal ≥ 0.6: not met)` for each anchor a project row is judged against, then `0.70× same bytes` for those only shown. */
export function verdicts(row: LoadRow): string {
	const anchors = row.anchors;
	if (!anchors || !row.goals) return "";
	const ratio = (name: string) => row.result.requestsPerSecond / anchors[name].requestsPerSecond;
	const judged = Object.entries(row.goals).map(([name, goal]) => `${ratio(name).toFixed(2)}× ${name} (goal ≥ ${goal}: ${ratio(name) >= goal ? "met" : "not met"})`);
	const shown = (row.shown ?? []).map(name => `${ratio(name).toFixed(2)}× ${name}`);
	return [...judged, ...shown].join("; ");
}

export function loadTable(rows: LoadRow[]): Array<Record<string, string>> {
	return rows.map(row => ({
		path: row.path,
		server: row.server,
		"req/s": number(row.result.requestsPerSecond),
		"p50 ms": row.result.p50Ms.toFixed(2),
		"p99 ms": row.result.p99Ms.toFixed(2),
		"p99 < 5 ms": row.server === "project" ? (row.result.p99Ms < 5 ? "yes" : "no") : "",
		"client CPU": row.result.clientCpu === undefined ? "" : `${Math.round(row.result.clientCpu * 100)} %`,
		"vs anchor": verdicts(row)
	}));
}

export function printTable(rows: LoadRow[]): void {
	const { connections, durationMs } = defaultLoadOptions();
	printMarkdownTable(
		loadTable(rows),
		`${connections} keep-alive connections, ${durationMs / 1000} s each after 1 s of warm-up; project = all services in one process on tsx; anchors = mean of a run just before and one just after their project row`
	);
}

if (require.main === module) runStandalone("Gateway", run, printTable);
