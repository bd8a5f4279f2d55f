/**
 * A small client of the demo-tool API (SPEC §4.1) for tests: JSON requests from a distinct client
 * IP each (run the app with TRUST_PROXY=1 so the per-IP demo-api budget does not mix requests), and
 * the two-step file flow.
 */
import { eventually } from "./processes";

export interface ApiResponse {
	res: Response;
	status: number;
	// The parsed JSON body; tests assert its shape field by field.
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	body: any;
}

export interface DemoFileView {
	id: string;
	status: string;
	title: string | null;
	file_name: string | null;
	char_count: number | null;
	failure: { code: string; message: string } | null;
}

export interface DemoView {
	session_id: string;
	slug: string;
	status: string;
	chars_used: number;
	sources: {
		urls: Array<{ id: string; url: string; status: string; domain: string | null; title: string | null; char_count: number | null; failure: unknown }>;
		files: DemoFileView[];
		texts: Array<{ id: string; status: string; char_count: number | null }>;
	};
}

export interface DemoClient {
	api(path: string, init?: { method?: string; body?: unknown }): Promise<ApiResponse>;
	newSession(): Promise<DemoView>;
	get(sessionId: string): Promise<DemoView>;
	/** createDemoSessionUpload, then the PUT with the declared Content-Type; returns the upload target. */
	upload(sessionId: string, fileName: string, contentType: string, bytes: Buffer): Promise<{ s3_key: string; upload_url: string }>;
	/** The whole two-step flow: upload, then addDemoSessionFile. Returns the attach response. */
	attach(sessionId: string, fileName: string, contentType: string, bytes: Buffer): Promise<ApiResponse>;
	/** Polls getDemoSession until the file leaves pending/processing. */
	settledFile(sessionId: string, fileId: string): Promise<DemoFileView>;
}

export function demoClient(baseUrl: string, ipPrefix: string): DemoClient {
	let counter = 0;
	const nextIp = () => `${ipPrefix}.${(++counter % 250) + 1}`;

	async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiResponse> {
		const res = await fetch(baseUrl + path, {
			method: init.method ?? (init.body === undefined ? "GET" : "POST"),
			headers: { "Content-Type": "application/json", "X-Forwarded-For": nextIp() },
			body: init.body === undefined ? undefined : JSON.stringify(init.body)
		});
		const text = await res.text();
		return { res, status: res.status, body: text ? JSON.parse(text) : undefined };
	}

	async function get(sessionId: string): Promise<DemoView> {
		const r = await api(`/api/tools/sessions/${sessionId}`);
		if (r.status !== 200) throw new Error(`getDemoSession answered ${r.status}: ${JSON.stringify(r.body)}`);
		return r.body.demo as DemoView;
	}

	async function upload(sessionId: string, fileName: string, contentType: string, bytes: Buffer) {
		const target = await api(`/api/tools/sessions/${sessionId}/uploads`, { body: { filename: fileName, content_type: contentType, size: bytes.length } });
		if (target.status !== 200) throw new Error(`createDemoSessionUpload answered ${target.status}: ${JSON.stringify(target.body)}`);
		// Its own client address too: PUTs have their own per-network budget (`uploads`).
		const put = await fetch(target.body.upload_url, { method: "PUT", headers: { "Content-Type": contentType, "X-Forwarded-For": nextIp() }, body: new Uint8Array(bytes) });
		if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${await put.text()}`);
		return { s3_key: target.body.s3_key as string, upload_url: target.body.upload_url as string };
	}

	return {
		api,
		get,
		upload,
		async newSession() {
			const r = await api("/api/tools/sessions", { method: "POST" });
			if (r.status !== 200) throw new Error(`createDemoSession answered ${r.status}`);
			return r.body.demo as DemoView;
		},
		async attach(sessionId, fileName, contentType, bytes) {
			const { s3_key } = await upload(sessionId, fileName, contentType, bytes);
			return api(`/api/tools/sessions/${sessionId}/files`, { body: { file_name: fileName, file_s3_key: s3_key, file_size: bytes.length, file_content_type: contentType } });
		},
		settledFile(sessionId, fileId) {
			return eventually(
				async () => {
					const file = (await get(sessionId)).sources.files.find(f => f.id === fileId);
					return file && file.status !== "pending" && file.status !== "processing" ? file : undefined;
				},
				30_000,
				`file ${fileId} to be extracted`
			);
		}
	};
}
