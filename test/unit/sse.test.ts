import { sseData } from "../../lib/ai/sse";

async function collect(parts: string[]): Promise<string[]> {
	const encoder = new TextEncoder();
	async function* body() {
		for (const part of parts) yield encoder.encode(part);
	}
	const out: string[] = [];
	for await (const data of sseData(body())) out.push(data);
	return out;
}

describe("sseData", () => {
	test("yields the data of each event and skips comments and other fields", async () => {
		expect(await collect([": hello\n\nevent: x\nid: 1\ndata: one\n\ndata:two\n\n"])).toEqual(["one", "two"]);
	});

	test("joins multi-line data with newlines", async () => {
		expect(await collect(["data: a\ndata: b\n\n"])).toEqual(["a\nb"]);
	});

	test("handles CRLF and CR line endings, including a CRLF split across reads", async () => {
		expect(await collect(["data: a\r", "\n\r", "\ndata: b\r\r"])).toEqual(["a", "b"]);
	});

	test("reassembles events and multi-byte characters split across reads", async () => {
		const bytes = new TextEncoder().encode("data: año 😀\n\n");
		async function* body() {
			for (let i = 0; i < bytes.length; i++) yield bytes.slice(i, i + 1);
		}
		const out: string[] = [];
		for await (const data of sseData(body())) out.push(data);
		expect(out).toEqual(["año 😀"]);
	});

	test("dispatches a final event that lacks the closing blank line", async () => {
		expect(await collect(["data: [DONE]"])).toEqual(["[DONE]"]);
	});

	test("reads a web ReadableStream", async () => {
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new TextEncoder().encode("data: x\n\n"));
				controller.close();
			}
		});
		const out: string[] = [];
		for await (const data of sseData(stream)) out.push(data);
		expect(out).toEqual(["x"]);
	});
});
