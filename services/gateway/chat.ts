/**
 * Gateway-local handlers of the chat surface:
 * - `chatMessage` (POST /api/chat/{slug}/messages): one JSON reply, or the answer relayed as
 *   server-sent events when the client accepts `text/event-stream`. The chat service returns an
 *   object stream of events; each is written as soon as it arrives, so LLM tokens reach the
 *   browser as they are generated. A failure before the stream is a normal JSON error; one after
 *   it started becomes an `error` event, since the status line has been sent.
 * - `chatPage` (GET /c/{slug}): the chat link, or the negotiated 404 for an unknown slug.
 * - `staticAsset` (GET /widget.js): the widget script, with a strong ETag.
 */
import type { ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { renderError } from "../../lib/http/error-body";
import { ifNoneMatchMatches } from "../../lib/http/etag";
import { negotiate } from "../../lib/http/negotiate";
import { ChatStreamEvent, sseFrame, streamEventFrame } from "../../lib/chat/wire";
import { loadAsset, StaticAsset } from "../../lib/widget/assets";
import { chatPageHtml } from "../../lib/widget/chat-page";
import type { Locale } from "../../lib/text/tokenize";
import { GatewayHandler, GatewayRequest, send, sendJson } from "./context";
import { sendNotFound } from "./not-found";
import { markNotModified, PublicDocument, sendPublicDocument } from "./public-documents";

/** Long enough for an LLM to write a whole answer when the client wants one JSON reply. */
const ANSWER_TIMEOUT_MS = 120_000;
/** Until the stream starts: lookup, cap, retrieval. */
const STREAM_START_TIMEOUT_MS = 30_000;

function askParams(req: GatewayRequest): Record<string, unknown> {
	const body = (req.body ?? {}) as { message?: unknown; conversation_id?: unknown; channel?: unknown };
	return {
		slug: String(req.$params?.slug ?? ""),
		message: body.message,
		...(body.conversation_id !== undefined ? { conversation_id: body.conversation_id } : {}),
		// The route's schema lets a caller name only `widget` or `link`; the channels are named by their service.
		...(body.channel !== undefined ? { channel: body.channel } : {})
	};
}

async function relay(events: Readable, res: ServerResponse, publicUrl: string): Promise<void> {
	res.writeHead(200, {
		"Content-Type": "text/event-stream; charset=utf-8",
		"Cache-Control": "no-store",
		// Proxies (nginx) must pass each event on at once instead of buffering the answer.
		"X-Accel-Buffering": "no"
	});
	const stop = () => events.destroy();
	res.once("close", stop);
	try {
		for await (const event of events as AsyncIterable<ChatStreamEvent>) {
			if (res.destroyed) break;
			res.write(streamEventFrame(event));
		}
	} catch (err) {
		if (!res.destroyed) res.write(sseFrame("error", renderError(err, publicUrl).body));
	} finally {
		res.off("close", stop);
		res.end();
	}
}

export const chatMessageHandler: GatewayHandler = async (deps, req, res) => {
	const wantsStream = negotiate(req.headers.accept, ["application/json", "text/event-stream"]) === "text/event-stream";
	if (wantsStream) {
		const events = await deps.call<Readable>("chat.askStream", askParams(req), { timeout: STREAM_START_TIMEOUT_MS });
		await relay(events, res, deps.config.publicUrl);
		return;
	}
	const reply = await deps.call("chat.ask", askParams(req), { timeout: ANSWER_TIMEOUT_MS });
	sendJson(res, 200, reply, { "Cache-Control": "no-store" });
};

export const chatPageHandler: GatewayHandler = async (deps, req, res) => {
	const slug = String(req.$params?.slug ?? "");
	let info: { slug: string; name: string; locale: Locale };
	try {
		info = await deps.call("chat.info", { slug });
	} catch (err) {
		const type = (err as { type?: string }).type;
		if (type === "not_found" || type === "VALIDATION_ERROR") return sendNotFound(res, req.$path, req.headers.accept, deps.config.publicUrl);
		throw err;
	}
	send(res, 200, chatPageHtml(info), "text/html; charset=utf-8", {
		"Cache-Control": "no-store",
		// The page runs only our script and talks only to us; answers are inserted as text anyway.
		"Content-Security-Policy":
			"default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'",
		"Referrer-Policy": "no-referrer",
		"X-Content-Type-Options": "nosniff"
	});
};

/** Serves the assets named by path; each is read once and kept in memory. */
export function createStaticAssetHandler(): GatewayHandler {
	const cache = new Map<string, Promise<{ asset: StaticAsset; document: PublicDocument }>>();
	return async (_deps, req, res) => {
		let loaded = cache.get(req.$path);
		if (!loaded) {
			loaded = loadAsset(req.$path).then(asset => ({ asset, document: new PublicDocument(asset.body, asset.contentType) }));
			loaded.catch(() => cache.delete(req.$path));
			cache.set(req.$path, loaded);
		}
		const { asset, document } = await loaded;
		const { etag } = asset;
		const headers = { ETag: etag, "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" };
		for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
		if (ifNoneMatchMatches(req.headers["if-none-match"], etag)) {
			markNotModified(req, res);
			res.statusCode = 304;
			res.end();
			return;
		}
		await sendPublicDocument(req, res, document);
	};
}
