/**
 * A loopback HTTP server in front of the in-memory Qdrant (`qdrant-emulator.ts`) that checks every
 * exchange against Qdrant's published OpenAPI document (`openapi-contract.ts`).
 *
 * A request that the document does not allow is answered 400 and recorded in `violations`; so is a
 * request the emulation does not support, and so is any response of ours that the document would
 * not allow. Tests assert `violations` is empty.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { OpenApiContract, OpenApiDocument } from "./openapi-contract";
import { QdrantEmulator, WrongInput } from "./qdrant-emulator";

interface Reply {
	status: number;
	body: unknown;
}

export interface ExchangeRecord {
	operationId: string;
	method: string;
	path: string;
	query: string;
	body: unknown;
}

export interface QdrantContractServer {
	url: string;
	emulator: QdrantEmulator;
	/** Every request received, in order. */
	exchanges: ExchangeRecord[];
	/** Contract violations and unsupported requests; a passing test leaves this empty. */
	violations: string[];
	stop(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		req.on("error", reject);
	});
}

/** Starts the validating emulator on 127.0.0.1 with a free port. */
export async function startQdrantContractServer(openApiPath: string): Promise<QdrantContractServer> {
	const contract = new OpenApiContract(JSON.parse(fs.readFileSync(openApiPath, "utf8")) as OpenApiDocument);
	const emulator = new QdrantEmulator();
	const exchanges: ExchangeRecord[] = [];
	const violations: string[] = [];

	const server = http.createServer(async (req, res) => {
		const started = process.hrtime.bigint();
		const url = new URL(req.url ?? "/", "http://127.0.0.1");
		const raw = await readBody(req);
		const check = contract.checkRequest(req.method ?? "GET", url, req.headers["content-type"], raw);
		const label = `${req.method} ${url.pathname}${url.search}`;
		exchanges.push({ operationId: check.match?.operationId ?? "?", method: req.method ?? "", path: url.pathname, query: url.search, body: check.body });

		let reply: Reply;
		if (check.errors.length || !check.match) {
			violations.push(...check.errors.map(e => `request ${label}: ${e}`));
			reply = { status: 400, body: { status: { error: `Contract violation: ${check.errors.join("; ")}` }, time: 0 } };
		} else {
			try {
				const result = emulator.handle(check.match.operationId, check.match.pathParams, (check.body ?? {}) as Record<string, unknown>);
				reply = { status: 200, body: { result, status: "ok", time: Number(process.hrtime.bigint() - started) / 1e9 } };
			} catch (err) {
				if (err instanceof WrongInput) {
					reply = { status: err.status, body: { status: { error: err.message }, time: 0 } };
				} else {
					violations.push(`request ${label}: ${(err as Error).message}`);
					reply = { status: 400, body: { status: { error: (err as Error).message }, time: 0 } };
				}
			}
			for (const error of contract.checkResponse(check.match, reply.status, reply.body)) violations.push(`our response to ${label}: ${error}`);
		}
		res.writeHead(reply.status, { "content-type": "application/json" });
		res.end(JSON.stringify(reply.body));
	});
	await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		emulator,
		exchanges,
		violations,
		stop: () =>
			new Promise<void>((resolve, reject) => {
				server.closeAllConnections();
				server.close(err => (err ? reject(err) : resolve()));
			})
	};
}
