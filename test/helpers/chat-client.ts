/**
 * A client for the demo and chat APIs as a program would use them: create a demo, add sources,
 * train, wait for `ready` (polling getDemoSession), and ask through the chat API as JSON or as a
 * server-sent event stream. Every request gets its own client IP (TRUST_PROXY=1 in the app) unless
 * one is given, so per-IP budgets do not mix tests together.
 */
import { eventually } from "./processes";

let ipCounter = 0;
/** A fresh documentation-range address for X-Forwarded-For. */
export const nextIp = (): string => `198.51.100.${(++ipCounter % 250) + 1}`;

export interface HttpReply<T = Record<string, unknown>> {
	status: number;
	headers: Headers;
	body: T;
}

export async function request<T = Record<string, unknown>>(
	url: string,
	init: { method?: string; body?: unknown; headers?: Record<string, string>; ip?: string } = {}
): Promise<HttpReply<T>> {
	const res = await fetch(url, {
		method: init.method ?? (init.body === undefined ? "GET" : "POST"),
		headers: { "Content-Type": "application/json", Accept: "application/json", "X-Forwarded-For": init.ip ?? nextIp(), ...init.headers },
		body: init.body === undefined ? undefined : JSON.stringify(init.body)
	});
	const text = await res.text();
	return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

export interface DemoView {
	session_id: string;
	slug: string;
	status: string;
	needs_retrain: boolean;
	messages_used: number;
	chat_url: string;
	embed_snippet: string;
	sources: { urls: Array<{ id: string; status: string }>; files: Array<{ id: string; status: string; failure: unknown }>; texts: Array<{ id: string; status: string }> };
}

export class DemoClient {
	constructor(
		readonly baseUrl: string,
		readonly demo: DemoView
	) {}

	static async create(baseUrl: string, locale?: "en" | "es"): Promise<DemoClient> {
		const created = await request<{ demo: DemoView }>(`${baseUrl}/api/tools/sessions`, { method: "POST", body: locale ? { locale } : {} });
		if (created.status !== 200) throw new Error(`createDemoSession answered ${created.status}`);
		return new DemoClient(baseUrl, created.body.demo);
	}

	get slug(): string {
		return this.demo.slug;
	}

	private path(suffix = ""): string {
		return `${this.baseUrl}/api/tools/sessions/${this.demo.session_id}${suffix}`;
	}

	get(): Promise<HttpReply<{ demo: DemoView }>> {
		return request(this.path());
	}

	addText(text: string): Promise<HttpReply<{ demo: DemoView }>> {
		return request(this.path("/texts"), { body: { text } });
	}

	addUrl(url: string): Promise<HttpReply<{ demo: DemoView }>> {
		return request(this.path("/urls"), { body: { url } });
	}

	/** The three-step file flow: presigned target, PUT of the bytes, attach. */
	async addFile(fileName: string, contentType: string, bytes: Buffer): Promise<HttpReply<{ demo: DemoView }>> {
		const target = await request<{ upload_url: string; s3_key: string; headers: Record<string, string> }>(this.path("/uploads"), {
			body: { filename: fileName, content_type: contentType, size: bytes.length }
		});
		if (target.status !== 200) throw new Error(`createDemoSessionUpload answered ${target.status}: ${JSON.stringify(target.body)}`);
		const put = await fetch(target.body.upload_url, { method: "PUT", headers: { ...target.body.headers, "X-Forwarded-For": nextIp() }, body: new Uint8Array(bytes) });
		if (put.status !== 200) throw new Error(`upload PUT answered ${put.status}`);
		return request(this.path("/files"), { body: { file_name: fileName, file_s3_key: target.body.s3_key, file_content_type: contentType } });
	}

	/** The session on success; an Error body (with `code`) on a refusal. */
	train(): Promise<HttpReply<{ demo: DemoView; code?: string }>> {
		return request(this.path("/training"), { method: "POST" });
	}

	/** Polls getDemoSession until `check` accepts the session. */
	until(check: (demo: DemoView) => boolean, what: string, timeoutMs = 30_000): Promise<DemoView> {
		return eventually(
			async () => {
				const { body } = await this.get();
				return check(body.demo) ? body.demo : undefined;
			},
			timeoutMs,
			what
		);
	}

	untilReady(timeoutMs = 30_000): Promise<DemoView> {
		return this.until(demo => demo.status === "ready" && !demo.needs_retrain, "the demo to be ready", timeoutMs);
	}
}

export interface WireCitation {
	source_id: string;
	title: string;
	url?: string;
	file_name?: string;
}

export interface ChatReplyBody {
	ok: boolean;
	answer: string;
	citations: WireCitation[];
	answered: boolean;
	conversation_id: string;
	messages_used: number;
	max_messages: number;
	code?: string;
	message?: string;
}

export function ask(baseUrl: string, slug: string, message: string, extra: Record<string, unknown> = {}, ip?: string): Promise<HttpReply<ChatReplyBody>> {
	return request<ChatReplyBody>(`${baseUrl}/api/chat/${slug}/messages`, { body: { message, ...extra }, ip });
}

export interface SseEvent {
	event: string;
	data: Record<string, unknown>;
}

/** Parses a complete text/event-stream body into events (`event:` name, JSON `data:`). */
export function parseSse(text: string): SseEvent[] {
	return text
		.replace(/\r\n?/g, "\n")
		.split("\n\n")
		.filter(frame => frame.trim())
		.map(frame => {
			let event = "message";
			let data = "";
			for (const line of frame.split("\n")) {
				if (line.startsWith("event:")) event = line.slice(6).trim();
				else if (line.startsWith("data:")) data += line.slice(5).replace(/^ /, "");
			}
			return { event, data: data ? (JSON.parse(data) as Record<string, unknown>) : {} };
		});
}

/** Asks with `Accept: text/event-stream`; calls `onEvent` for each event as it arrives. */
export async function askStream(
	baseUrl: string,
	slug: string,
	message: string,
	onEvent: (event: SseEvent) => void | Promise<void> = () => undefined,
	ip?: string
): Promise<{ status: number; headers: Headers; events: SseEvent[]; errorBody?: Record<string, unknown> }> {
	const res = await fetch(`${baseUrl}/api/chat/${slug}/messages`, {
		method: "POST",
		headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-Forwarded-For": ip ?? nextIp() },
		body: JSON.stringify({ message })
	});
	if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
		return { status: res.status, headers: res.headers, events: [], errorBody: (await res.json()) as Record<string, unknown> };
	}
	const events: SseEvent[] = [];
	const reader = (res.body as ReadableStream<Uint8Array>).getReader();
	const decoder = new TextDecoder();
	let buffer = "";
	for (;;) {
		const { done, value } = await reader.read();
		buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
		let end: number;
		while ((end = buffer.indexOf("\n\n")) >= 0) {
			const [event] = parseSse(buffer.slice(0, end + 2));
			buffer = buffer.slice(end + 2);
			if (event) {
				events.push(event);
				await onEvent(event);
			}
		}
		if (done) break;
	}
	return { status: res.status, headers: res.headers, events };
}
