/**
 * The pure parts of the messaging channels (lib/channels): message splitting and cleaning, reading
 * Telegram updates and Crisp hook events, Crisp signatures, sealed credentials, the outbound retry
 * rules (against a loopback server standing in for a provider), reply text, and the configuration.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError, loadConfig } from "../../config";
import { answerText, notTextReply, welcomeText } from "../../lib/channels/copy";
import { crispSignatureValid, readCrispEvent } from "../../lib/channels/crisp-event";
import { cleanText, clipText, splitMessage, TELEGRAM_MAX_CHARS } from "../../lib/channels/message-text";
import { callProvider, ProviderFailure, requestedWaitMs, RetryPolicy } from "../../lib/channels/provider-call";
import { createSecretBox, resolveChannelsKey } from "../../lib/channels/secret-box";
import { readTelegramUpdate } from "../../lib/channels/telegram-update";
import { crispSignature } from "../helpers/crisp-stand-in";
import { startJsonServer } from "../helpers/provider-stand-in";

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("splitMessage", () => {
	function expectWellFormed(parts: string[], limit: number): void {
		for (const part of parts) {
			expect(part.length).toBeGreaterThan(0);
			expect(part.length).toBeLessThanOrEqual(limit);
			expect(part).toBe(part.trim());
			// No lone surrogate at either end: a pair was never cut in half.
			expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(part)).toBe(false);
		}
	}

	it("keeps a message that fits as it is", () => {
		expect(splitMessage("  The warranty lasts 37 months.  ")).toEqual(["The warranty lasts 37 months."]);
		expect(splitMessage("   \n ")).toEqual([]);
	});

	it("splits at paragraph breaks, packing paragraphs up to the limit", () => {
		const paragraph = (n: number) => `Paragraph ${n}. ${"Some words about the product. ".repeat(40).trim()}`;
		const text = Array.from({ length: 8 }, (_, i) => paragraph(i + 1)).join("\n\n");
		expect(text.length).toBeGreaterThan(TELEGRAM_MAX_CHARS * 2);
		const parts = splitMessage(text);
		expectWellFormed(parts, TELEGRAM_MAX_CHARS);
		expect(parts.length).toBeGreaterThanOrEqual(3);
		// Every part starts a paragraph and ends one: nothing was cut inside.
		for (const part of parts) {
			expect(part.startsWith("Paragraph ")).toBe(true);
			expect(part.endsWith("product.")).toBe(true);
		}
		expect(words(parts.join(" "))).toEqual(words(text));
	});

	it("splits a paragraph longer than the limit after a sentence", () => {
		const text = Array.from({ length: 300 }, (_, i) => `Sentence number ${i + 1} says something useful!`).join(" ");
		const parts = splitMessage(text, 1000);
		expectWellFormed(parts, 1000);
		for (const part of parts) expect(part).toMatch(/^Sentence number \d+ says something useful!.*useful!$/s);
		expect(words(parts.join(" "))).toEqual(words(text));
	});

	it("falls back to spaces, then to a hard cut that never splits a surrogate pair", () => {
		const spaced = "word ".repeat(1000);
		const bySpace = splitMessage(spaced, 333);
		expectWellFormed(bySpace, 333);
		expect(bySpace.every(part => part.split(" ").every(w => w === "word"))).toBe(true);

		const emoji = "😀".repeat(5000); // 10,000 UTF-16 units, no break anywhere
		const cut = splitMessage(emoji, 4095);
		expectWellFormed(cut, 4095);
		expect(cut.join("")).toBe(emoji);
	});

	it("takes a megabyte without a break in linear time (no backtracking)", () => {
		const parts = splitMessage("x".repeat(1_000_000) + ". Done.");
		expect(parts.length).toBe(245);
		expectWellFormed(parts, TELEGRAM_MAX_CHARS);
	});

	it("drops control characters and replaces lone surrogates, keeping line breaks and tabs", () => {
		expect(cleanText("a\u0000b\u0007c\r\nd\re\tf\u007f\ud800g\udc00")).toBe("abc\nd\ne\tf\ufffdg\ufffd");
		expect(cleanText("😀")).toBe("😀");
	});

	it("clips without cutting a surrogate pair", () => {
		expect(clipText("abc", 5)).toBe("abc");
		expect(clipText("ab😀", 3)).toBe("ab");
		expect(clipText("ab😀c", 4)).toBe("ab😀");
	});
});

describe("readTelegramUpdate", () => {
	const message = (fields: Record<string, unknown>, chat: Record<string, unknown> = { id: 42, type: "private" }) => ({
		update_id: 7,
		message: { message_id: 1, date: 0, from: { id: 42, is_bot: false, first_name: "Ana" }, chat, ...fields }
	});

	it("answers text in private chats; /start and /help get the welcome", () => {
		expect(readTelegramUpdate(message({ text: "  How long is the warranty? " }))).toEqual({ kind: "message", update_id: 7, chat_id: "42", what: "text", text: "How long is the warranty?" });
		for (const text of ["/start", "/start@harbor_bot", "/START payload", "/help"]) {
			expect(readTelegramUpdate(message({ text }))).toMatchObject({ kind: "message", what: "welcome" });
		}
		expect(readTelegramUpdate(message({ text: "/prices" }))).toMatchObject({ what: "text", text: "/prices" });
	});

	it("says only text is understood for photos, voice notes, stickers and files", () => {
		for (const field of ["photo", "voice", "sticker", "document", "video", "audio", "animation"]) {
			expect(readTelegramUpdate(message({ [field]: {} }))).toMatchObject({ kind: "message", what: "not_text", chat_id: "42" });
		}
	});

	it("ignores what the bot does not answer", () => {
		const ignored = [
			{ update_id: 7, edited_message: message({ text: "edited" }).message },
			{ update_id: 7, channel_post: { message_id: 1, chat: { id: -100, type: "channel" }, text: "post" } },
			{ update_id: 7, callback_query: {} },
			message({ text: "hello group" }, { id: -5, type: "group" }),
			message({ new_chat_members: [{ id: 1 }] }),
			message({ pinned_message: {} }),
			message({ text: "   " }),
			{ update_id: 7, message: { message_id: 1, from: { id: 9, is_bot: true }, chat: { id: 42, type: "private" }, text: "bot" } },
			{ update_id: "seven", message: message({ text: "x" }).message },
			[],
			"text",
			null
		];
		for (const update of ignored) expect(readTelegramUpdate(update).kind).toBe("ignore");
	});
});

describe("Crisp hooks", () => {
	const event = (name: string, data: Record<string, unknown>) => ({ website_id: "w-1", event: name, data: { session_id: "session_1", website_id: "w-1", ...data }, timestamp: 1 });

	it("reads visitor messages, operator messages and the end of a session", () => {
		expect(readCrispEvent(event("message:send", { from: "user", type: "text", content: " Hi ", fingerprint: 123 }))).toEqual({
			kind: "visitor_message",
			website_id: "w-1",
			session_id: "session_1",
			fingerprint: "123",
			what: "text",
			text: "Hi"
		});
		expect(readCrispEvent(event("message:send", { from: "user", type: "file", content: { url: "x" }, fingerprint: 124 }))).toMatchObject({ what: "not_text" });
		expect(readCrispEvent(event("message:received", { from: "operator", type: "text", content: "Hello, I'm Eva", fingerprint: 125 }))).toEqual({
			kind: "operator_message",
			website_id: "w-1",
			session_id: "session_1",
			fingerprint: "125"
		});
		expect(readCrispEvent(event("session:removed", {}))).toEqual({ kind: "session_removed", website_id: "w-1", session_id: "session_1" });
	});

	it("ignores the rest", () => {
		for (const payload of [
			event("message:send", { from: "operator", type: "text", content: "x", fingerprint: 1 }),
			event("message:send", { from: "user", type: "text", content: "x" }),
			event("message:received", { from: "user", type: "text", content: "x", fingerprint: 1 }),
			event("message:updated", { from: "user" }),
			event("session:set_email", {}),
			{ event: "message:send", data: { from: "user" } },
			{ website_id: "w", data: {} },
			42
		]) {
			expect(readCrispEvent(payload).kind).toBe("ignore");
		}
	});

	it("checks signatures over the exact raw body", () => {
		const body = JSON.stringify(event("message:send", { from: "user", type: "text", content: "Hi", fingerprint: 1 }));
		const signature = crispSignature("hook-secret", "1700000000", body);
		expect(crispSignatureValid("hook-secret", "1700000000", Buffer.from(body), signature)).toBe(true);
		expect(crispSignatureValid("hook-secret", "1700000001", Buffer.from(body), signature)).toBe(false);
		expect(crispSignatureValid("other-secret", "1700000000", Buffer.from(body), signature)).toBe(false);
		expect(crispSignatureValid("hook-secret", "1700000000", Buffer.from(`${body} `), signature)).toBe(false);
		expect(crispSignatureValid("hook-secret", "1700000000", Buffer.from(body), signature.slice(2))).toBe(false);
		expect(crispSignatureValid("hook-secret", "1700000000", Buffer.from(body), "not hex at all")).toBe(false);
	});
});

describe("sealed credentials", () => {
	const key = Buffer.alloc(32, 7);

	it("open only with the same key and context, and never carry the plain text", () => {
		const box = createSecretBox(key);
		const sealed = box.seal("123456:AAH-secret-token", "telegram:bot-1:token");
		expect(sealed).not.toContain("secret-token");
		expect(box.seal("123456:AAH-secret-token", "telegram:bot-1:token")).not.toBe(sealed); // fresh nonce
		expect(box.open(sealed, "telegram:bot-1:token")).toBe("123456:AAH-secret-token");
		expect(() => box.open(sealed, "telegram:bot-2:token")).toThrow();
		expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, "telegram:bot-1:token")).toThrow();
		const [v, nonce, body, tag] = sealed.split(".");
		const flipped = Buffer.from(body, "base64url");
		flipped[0] ^= 1;
		expect(() => box.open([v, nonce, flipped.toString("base64url"), tag].join("."), "telegram:bot-1:token")).toThrow();
	});

	it("use the configured key, else one kept under DATA_DIR, and refuse to invent one for shared documents", () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbb-channels-key-"));
		try {
			expect(resolveChannelsKey({ configured: key.toString("base64"), dataDir: dir, sharedDocuments: true })).toEqual(key);
			const generated = resolveChannelsKey({ configured: undefined, dataDir: dir, sharedDocuments: false });
			expect(generated).toHaveLength(32);
			expect(resolveChannelsKey({ configured: undefined, dataDir: dir, sharedDocuments: false })).toEqual(generated);
			expect(fs.statSync(path.join(dir, "channels-key")).mode & 0o077).toBe(0);
			expect(() => resolveChannelsKey({ configured: undefined, dataDir: dir, sharedDocuments: true })).toThrow(/CHANNELS_KEY is required when MONGO_URI is set/);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("outbound calls", () => {
	const fast: RetryPolicy = { attempts: 4, baseDelayMs: 20, maxDelayMs: 50, maxRetryAfterMs: 2_000, timeoutMs: 300 };

	it("read the wait a provider asks for", () => {
		expect(requestedWaitMs({ ok: false, parameters: { retry_after: 3 } }, null)).toBe(3000);
		expect(requestedWaitMs(undefined, "7")).toBe(7000);
		expect(requestedWaitMs(undefined, new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
		expect(requestedWaitMs(undefined, "soon")).toBeUndefined();
		expect(requestedWaitMs({}, null)).toBeUndefined();
	});

	it("retry 429 after the wait asked for, 5xx and hangs with back-off, and stop at once on other 4xx", async () => {
		// A loopback server standing in for a provider's HTTP API.
		const provider = await startJsonServer(() => ({ status: 200, body: { ok: true, result: "sent" } }));
		const request = { method: "POST" as const, url: `${provider.base}/send`, body: { text: "hi" } };
		const options = { policy: fast, provider: "Stand-in", describe: (body: unknown) => (body as { description?: string })?.description };
		try {
			provider.failNext(() => true, [{ status: 429, body: { ok: false, description: "Too Many Requests: retry after 1", parameters: { retry_after: 1 } } }, { status: 502 }, "hang"]);
			const res = await callProvider(request, options);
			expect(res.body).toEqual({ ok: true, result: "sent" });
			const [limited, bad, hung, done] = provider.calls;
			expect([limited.status, bad.status, hung.outcome, done.status]).toEqual([429, 502, "hung", 200]);
			expect(bad.at - limited.at).toBeGreaterThanOrEqual(950); // waited the second Telegram asked for

			provider.failNext(() => true, [{ status: 400, body: { ok: false, description: "Bad Request: chat not found" } }]);
			const refused = await callProvider(request, options).catch(err => err as ProviderFailure);
			expect(refused).toBeInstanceOf(ProviderFailure);
			expect(refused).toMatchObject({ status: 400, attempts: 1, message: "Stand-in answered 400: Bad Request: chat not found" });

			provider.failNext(() => true, [{ status: 500 }, { status: 500 }, { status: 503 }, { status: 500 }]);
			expect(await callProvider(request, options).catch(err => err as ProviderFailure)).toMatchObject({ status: 500, attempts: 4, message: "Stand-in answered 500 (4 tries)" });

			provider.failNext(() => true, [{ status: 429, headers: { "Retry-After": "60" } }]);
			expect(await callProvider(request, options).catch(err => err as ProviderFailure)).toMatchObject({ attempts: 1, message: "Stand-in answered 429; it asked to wait 60 s" });
		} finally {
			await provider.stop();
		}
	});

	it("do not retry a request the provider confirmed another way (Crisp's echo)", async () => {
		const provider = await startJsonServer(() => ({ status: 200, body: {} }));
		try {
			provider.failNext(() => true, ["hang-after-accept"]);
			let asked = 0;
			const res = await callProvider({ method: "POST", url: provider.base }, { policy: fast, provider: "Stand-in", confirmed: async () => ++asked > 0 });
			expect(res).toEqual({ status: 0, body: undefined, confirmedElsewhere: true });
			expect([asked, provider.calls.length]).toEqual([1, 1]);
		} finally {
			await provider.stop();
		}
	});

	it("stop waiting when the job stops", async () => {
		const provider = await startJsonServer(() => ({ status: 200, body: {} }));
		try {
			provider.failNext(() => true, [{ status: 429, body: { parameters: { retry_after: 1 } } }]);
			const controller = new AbortController();
			const pending = callProvider({ method: "POST", url: provider.base }, { policy: fast, provider: "Stand-in", signal: controller.signal });
			setTimeout(() => controller.abort(new Error("halted")), 100);
			await expect(pending).rejects.toThrow("halted");
			expect(provider.calls).toHaveLength(1);
		} finally {
			await provider.stop();
		}
	});
});

describe("reply text", () => {
	it("puts sources under the answer as plain links, once each, in the chatbot's language", () => {
		const citations = [
			{ source_id: "a", title: "Warranty", url: "https://example.com/warranty" },
			{ source_id: "b", title: "Warranty", url: "https://example.com/warranty" },
			{ source_id: "c", title: "Manual", file_name: "manual.pdf" },
			{ source_id: "d", title: "", url: "javascript:alert(1)" }
		];
		expect(answerText(" It lasts 37 months. ", citations, "es")).toBe("It lasts 37 months.\n\nFuentes:\n• Warranty: https://example.com/warranty\n• Manual (manual.pdf)\n• javascript:alert(1)");
		expect(answerText("No sources.", [], "en")).toBe("No sources.");
		expect(welcomeText("es")).toMatch(/^¡Hola!/);
		expect(notTextReply("en")).toMatch(/only read text/);
	});
});

describe("channel configuration", () => {
	it("has provider defaults and reads the key as hex or base64", () => {
		const config = loadConfig({});
		expect(config.channels).toEqual({ telegramApiUrl: "https://api.telegram.org", crispApiUrl: "https://api.crisp.chat", key: undefined, handoffQuietSeconds: 1800 });
		const key = Buffer.alloc(32, 3);
		expect(loadConfig({ CHANNELS_KEY: key.toString("hex") }).channels.key).toBe(key.toString("base64"));
		expect(loadConfig({ CHANNELS_KEY: key.toString("base64") }).channels.key).toBe(key.toString("base64"));
		expect(loadConfig({ CHANNELS_KEY: key.toString("base64url"), TELEGRAM_API_URL: "http://127.0.0.1:9/", CRISP_HANDOFF_QUIET_SECONDS: "60" }).channels).toMatchObject({
			key: key.toString("base64"),
			telegramApiUrl: "http://127.0.0.1:9",
			handoffQuietSeconds: 60
		});
	});

	it.each([
		[{ CHANNELS_KEY: "too-short" }, "CHANNELS_KEY"],
		[{ CHANNELS_KEY: Buffer.alloc(31).toString("hex") + "00" + "0" }, "CHANNELS_KEY"],
		[{ TELEGRAM_API_URL: "ftp://telegram" }, "TELEGRAM_API_URL"],
		[{ CRISP_API_URL: "not a url" }, "CRISP_API_URL"],
		[{ CRISP_HANDOFF_QUIET_SECONDS: "-1" }, "CRISP_HANDOFF_QUIET_SECONDS"]
	])("refuses %j naming %s", (env, variable) => {
		expect(() => loadConfig(env)).toThrow(ConfigError);
		expect(() => loadConfig(env)).toThrow(variable);
	});
});
