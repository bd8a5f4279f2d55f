/**
 * A loopback stand-in for the Crisp REST API (api.crisp.chat cannot be reached from these
 * machines): `POST /v1/website/{website_id}/conversation/{session_id}/message` as a plugin — Basic
 * authentication of a registered plugin token and `X-Crisp-Tier: plugin`, else 401/403 — answering
 * `{error: false, reason: "dispatched", data: {fingerprint}}` like Crisp.
 *
 * Like Crisp, it sends web hooks (`hook`): keyed (`?key=` in the hook URL) or signed
 * (`X-Crisp-Signature`, the hex HMAC-SHA256 of `[<timestamp>;<raw body>]` with the hook secret). When
 * told where (`echoTo`), it sends every message it accepted back as `message:received`, as Crisp
 * does with an operator's (and so the bot's) messages. Faults come from provider-stand-in.ts.
 */
import { createHmac, randomUUID } from "node:crypto";
import { Fault, RecordedCall, startJsonServer } from "./provider-stand-in";

export interface CrispPlugin {
	identifier: string;
	key: string;
}

export interface CrispMessage {
	website_id: string;
	session_id: string;
	content: unknown;
	type: unknown;
	from: unknown;
	origin: unknown;
	fingerprint: unknown;
	at: number;
}

export interface HookTarget {
	/** The hook URL to call (with `?key=` for keyed hooks). */
	url: string;
	/** Sign with this hook secret. */
	secret?: string;
}

export interface CrispStandIn {
	/** CRISP_API_URL */
	base: string;
	calls: RecordedCall[];
	/** Messages accepted, in order. */
	messages: CrispMessage[];
	addPlugin(): CrispPlugin;
	/** Where accepted messages are echoed as `message:received` (undefined: not echoed). */
	echoTo: HookTarget | undefined;
	failNext(faults: Fault[]): void;
	/** Sends a hook event as Crisp does. `raw` replaces the body; `headers` adds to (or spoils) the request. */
	hook(target: HookTarget, event: string, data: Record<string, unknown>, options?: { raw?: string; headers?: Record<string, string>; websiteId?: string }): Promise<{ status: number; body: Record<string, unknown> }>;
	stop(): Promise<void>;
}

export function crispSignature(secret: string, timestamp: string, rawBody: string): string {
	return createHmac("sha256", secret).update(`[${timestamp};${rawBody}]`).digest("hex");
}

let nextFingerprint = 163_400_000_000_000;
export const newFingerprint = () => nextFingerprint++;

export async function startCrispStandIn(websiteId: string): Promise<CrispStandIn> {
	const plugins: CrispPlugin[] = [];
	const messages: CrispMessage[] = [];
	const standIn = {} as CrispStandIn;

	const hook: CrispStandIn["hook"] = async (target, event, data, options = {}) => {
		const website_id = options.websiteId ?? websiteId;
		const raw = options.raw ?? JSON.stringify({ website_id, event, data: { website_id, ...data }, timestamp: Date.now() });
		const headers: Record<string, string> = { "Content-Type": "application/json" };
		if (target.secret) {
			const timestamp = String(Date.now());
			headers["X-Crisp-Request-Timestamp"] = timestamp;
			headers["X-Crisp-Signature"] = crispSignature(target.secret, timestamp, raw);
		}
		const res = await fetch(target.url, { method: "POST", headers: { ...headers, ...options.headers }, body: raw });
		const text = await res.text();
		return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
	};

	const server = await startJsonServer(call => {
		const match = /^\/v1\/website\/([^/]+)\/conversation\/([^/]+)\/message$/.exec(call.path);
		if (!match || call.method !== "POST") return { status: 404, body: { error: true, reason: "not_found" } };
		const auth = String(call.headers.authorization ?? "");
		const [identifier, key] = Buffer.from(auth.replace(/^Basic /, ""), "base64").toString("utf8").split(":");
		if (!auth.startsWith("Basic ") || !plugins.some(p => p.identifier === identifier && p.key === key)) return { status: 401, body: { error: true, reason: "invalid_session" } };
		if (call.headers["x-crisp-tier"] !== "plugin") return { status: 403, body: { error: true, reason: "not_allowed" } };
		const body = (call.body ?? {}) as Record<string, unknown>;
		if (body.type !== "text" || typeof body.content !== "string" || body.content.trim() === "") return { status: 400, body: { error: true, reason: "invalid_data" } };
		const fingerprint = typeof body.fingerprint === "number" ? body.fingerprint : newFingerprint();
		const message: CrispMessage = { website_id: decodeURIComponent(match[1]), session_id: decodeURIComponent(match[2]), content: body.content, type: body.type, from: body.from, origin: body.origin, fingerprint, at: Date.now() };
		messages.push(message);
		const echo = standIn.echoTo;
		if (echo) {
			void hook(echo, "message:received", { session_id: message.session_id, type: "text", from: "operator", origin: "chat", content: message.content, fingerprint, user: { nickname: "Bot" } }).catch(() => undefined);
		}
		return { status: 200, body: { error: false, reason: "dispatched", data: { fingerprint } } };
	});

	return Object.assign(standIn, {
		base: server.base,
		calls: server.calls,
		messages,
		echoTo: undefined,
		addPlugin() {
			const plugin = { identifier: randomUUID(), key: randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "") };
			plugins.push(plugin);
			return plugin;
		},
		failNext(faults: Fault[]) {
			server.failNext(call => call.path.endsWith("/message"), faults);
		},
		hook,
		stop: server.stop
	});
}
