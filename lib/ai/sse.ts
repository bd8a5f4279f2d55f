/**
 * Server-sent events reader (the WHATWG event-stream format) for streamed completions: yields the
 * data of each event, multi-line data joined with "\n". Only `data:` fields matter here; comments
 * (": keep-alive") and other fields are skipped.
 */
export async function* sseData(body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>): AsyncGenerator<string> {
	const decoder = new TextDecoder();
	let buffer = "";
	let data: string[] = [];

	function* lines(final: boolean): Generator<string | null> {
		for (;;) {
			const newline = buffer.search(/\r\n|\r|\n/);
			if (newline < 0) break;
			const line = buffer.slice(0, newline);
			const width = buffer.startsWith("\r\n", newline) ? 2 : 1;
			// A lone "\r" at the end of a read may be the first half of "\r\n": wait for more input.
			if (!final && width === 1 && buffer[newline] === "\r" && newline === buffer.length - 1) break;
			buffer = buffer.slice(newline + width);
			yield line;
		}
		if (final) yield null;
	}

	function* dispatch(line: string | null): Generator<string> {
		if (line === null || line === "") {
			if (data.length) yield data.join("\n");
			data = [];
			return;
		}
		if (line.startsWith(":")) return;
		const colon = line.indexOf(":");
		const field = colon < 0 ? line : line.slice(0, colon);
		let value = colon < 0 ? "" : line.slice(colon + 1);
		if (value.startsWith(" ")) value = value.slice(1);
		if (field === "data") data.push(value);
	}

	for await (const bytes of "getReader" in body ? readAll(body) : body) {
		buffer += decoder.decode(bytes, { stream: true });
		for (const line of lines(false)) yield* dispatch(line);
	}
	buffer += decoder.decode();
	if (buffer) buffer += "\n";
	for (const line of lines(true)) yield* dispatch(line);
}

/** Reads a web stream; stopping early (return/throw) cancels it, which closes the connection. */
async function* readAll(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
	const reader = stream.getReader();
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return;
			yield value;
		}
	} finally {
		await reader.cancel().catch(() => undefined);
		reader.releaseLock();
	}
}
