/*
 * Chatbot Builder widget. One tag adds a chat bubble to any page:
 *   <script src="https://…/widget.js" data-chatbot="SLUG" async></script>
 * With data-mode="page" it draws a full-page chat instead (the chat link, /c/SLUG).
 * The owner's widget settings (name, welcome message, suggested questions, accent colour, corner,
 * language) come with the chatbot's public info and are applied here.
 *
 * No framework and no build step. Everything the server sends (names, answers, citations) is put
 * on the page as text (textContent), never as HTML, and a citation becomes a link only when its URL
 * is http or https. The UI lives in a shadow root, so the host page's styles and ours stay apart.
 */
(function () {
	"use strict";
	var script = document.currentScript;
	var slug = script && script.getAttribute("data-chatbot");
	if (!slug) return;
	var pageMode = script.getAttribute("data-mode") === "page";
	var base = script.src.replace(/\/widget\.js(?:[?#].*)?$/, "");
	var api = base + "/api/chat/" + encodeURIComponent(slug);
	// Two copies of the snippet for one chatbot must not draw two bubbles.
	var loaded = (window.__chatbotBuilderWidgets = window.__chatbotBuilderWidgets || {});
	if (loaded[slug]) return;
	loaded[slug] = true;

	var COPY = {
		en: {
			open: "Open chat",
			close: "Close chat",
			placeholder: "Ask a question…",
			send: "Send",
			sources: "Sources",
			learning: "This chatbot is still learning its sources. Please try again in a moment.",
			network: "The chatbot could not be reached. Check your connection and try again.",
			busy: "Too many messages in a short time. Wait a minute and try again.",
			gone: "This chatbot is no longer available.",
			failed: "Something went wrong. Please try again.",
			note: "Answers come only from this chatbot's sources."
		},
		es: {
			open: "Abrir chat",
			close: "Cerrar chat",
			placeholder: "Escribe una pregunta…",
			send: "Enviar",
			sources: "Fuentes",
			learning: "Este chatbot todavía está aprendiendo sus fuentes. Vuelve a intentarlo en un momento.",
			network: "No se pudo contactar con el chatbot. Revisa tu conexión y vuelve a intentarlo.",
			busy: "Demasiados mensajes en poco tiempo. Espera un minuto y vuelve a intentarlo.",
			gone: "Este chatbot ya no está disponible.",
			failed: "Algo salió mal. Vuelve a intentarlo.",
			note: "Las respuestas salen solo de las fuentes de este chatbot."
		}
	};

	var CSS =
		":host{all:initial}" +
		".root{--accent:#2563eb;--ink:#fff}" +
		"*{box-sizing:border-box}" +
		".root{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111827}" +
		".full{height:100%}" +
		".bubble{position:fixed;right:20px;bottom:20px;z-index:2147483000;width:56px;height:56px;border:0;border-radius:50%;" +
		"background:var(--accent);color:var(--ink);cursor:pointer;box-shadow:0 6px 20px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center}" +
		".bubble:focus-visible,.send:focus-visible,.close:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}" +
		".bubble svg{width:28px;height:28px;fill:currentColor}" +
		".panel{display:flex;flex-direction:column;background:#fff;overflow:hidden}" +
		".floating{position:fixed;right:20px;bottom:88px;z-index:2147483000;width:min(380px,calc(100vw - 40px));" +
		"height:min(560px,calc(100vh - 120px));border-radius:14px;box-shadow:0 12px 40px rgba(0,0,0,.25)}" +
		".floating[hidden]{display:none}" +
		".page{height:100%;max-width:760px;margin:0 auto;border-left:1px solid #e5e7eb;border-right:1px solid #e5e7eb}" +
		".head{display:flex;align-items:center;gap:8px;padding:12px 16px;background:var(--accent);color:var(--ink)}" +
		".title{flex:1;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}" +
		".close{border:0;background:transparent;color:var(--ink);font-size:22px;line-height:1;cursor:pointer;padding:4px 8px}" +
		".log{flex:1;overflow-y:auto;padding:16px;display:flex;flex-direction:column;gap:10px;background:#f9fafb}" +
		".msg{max-width:85%;padding:9px 12px;border-radius:12px;white-space:pre-wrap;overflow-wrap:anywhere}" +
		".user{align-self:flex-end;background:var(--accent);color:var(--ink);border-bottom-right-radius:4px}" +
		".bot{align-self:flex-start;background:#fff;border:1px solid #e5e7eb;border-bottom-left-radius:4px}" +
		".bot.pending .text:empty::after{content:'…'}" +
		".notice{align-self:center;font-size:13px;color:#6b7280;text-align:center}" +
		".error{background:#fef2f2;border-color:#fecaca;color:#991b1b}" +
		".cites{margin-top:8px;padding-top:6px;border-top:1px solid #e5e7eb;font-size:13px;color:#4b5563;white-space:normal}" +
		".cites ul{margin:2px 0 0;padding-left:18px}" +
		".cites a{color:#1d4ed8;overflow-wrap:anywhere}" +
		".form{display:flex;gap:8px;padding:10px;border-top:1px solid #e5e7eb;background:#fff}" +
		".input{flex:1;min-width:0;font:inherit;font-size:16px;padding:10px 12px;border:1px solid #d1d5db;border-radius:10px}" +
		".send{font:inherit;font-weight:600;padding:0 16px;border:0;border-radius:10px;background:var(--accent);color:var(--ink);cursor:pointer}" +
		".left .bubble{right:auto;left:20px}.left .floating{right:auto;left:20px}" +
		".suggest{display:flex;flex-wrap:wrap;gap:6px;align-self:flex-start;max-width:95%}" +
		".chip{font:inherit;font-size:14px;padding:5px 12px;border-radius:999px;border:1px solid var(--accent);background:#fff;color:#111827;cursor:pointer;text-align:left}" +
		".chip:focus-visible{outline:3px solid #93c5fd;outline-offset:2px}" +
		".send:disabled{opacity:.5;cursor:default}" +
		".note{padding:0 12px 8px;font-size:12px;color:#6b7280;text-align:center;background:#fff}" +
		"@media (max-width:480px){.floating,.left .floating{right:0;left:0;bottom:0;width:100vw;height:100%;border-radius:0}" +
		".bubble{right:16px;bottom:16px}.left .bubble{right:auto;left:16px}.open .bubble{display:none}}";

	function el(tag, className, text) {
		var node = document.createElement(tag);
		if (className) node.className = className;
		if (text !== undefined && text !== null) node.textContent = String(text);
		return node;
	}

	/** A citation URL as a link target, only for http and https. */
	function safeHref(url) {
		if (typeof url !== "string") return null;
		try {
			var parsed = new URL(url);
			return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : null;
		} catch (e) {
			return null;
		}
	}

	function beacon(event) {
		try {
			fetch(base + "/t/e", {
				method: "POST",
				mode: "cors",
				credentials: "omit",
				keepalive: true,
				headers: { "Content-Type": "application/json" },
				body: JSON.stringify({ chatbot: slug, event: event })
			}).catch(function () {});
		} catch (e) {
			// Usage counting must never break the chat.
		}
	}

	/** `#rrggbb` from the server, or null: only a plain hex colour reaches the style. */
	function hexColor(value) {
		return typeof value === "string" && /^#[0-9a-fA-F]{6}$/.test(value) ? value : null;
	}

	function start(info) {
		var t = COPY[info.locale === "es" ? "es" : "en"];
		var conversationId = null;
		var busy = false;
		var opened = false;

		var mount = pageMode ? document.querySelector("[data-chatbot-root]") || document.body : document.body.appendChild(el("div"));
		var shadow = mount.attachShadow ? mount.attachShadow({ mode: "open" }) : mount;
		var style = el("style");
		style.textContent = CSS;
		shadow.appendChild(style);
		var root = el("div", pageMode ? "root full" : "root");
		root.setAttribute("lang", info.locale === "es" ? "es" : "en");
		if (hexColor(info.accent_color)) root.style.setProperty("--accent", info.accent_color);
		if (hexColor(info.accent_text_color)) root.style.setProperty("--ink", info.accent_text_color);
		if (info.position === "left") root.classList.add("left");
		shadow.appendChild(root);

		var panel = el("section", "panel " + (pageMode ? "page" : "floating"));
		panel.setAttribute("aria-label", info.name);
		var head = el("div", "head");
		head.appendChild(el("div", "title", info.name));
		var log = el("div", "log");
		log.setAttribute("role", "log");
		log.setAttribute("aria-live", "polite");
		var form = el("form", "form");
		var input = el("input", "input");
		input.type = "text";
		input.maxLength = 2000;
		input.autocomplete = "off";
		input.placeholder = t.placeholder;
		input.setAttribute("aria-label", t.placeholder);
		var send = el("button", "send", t.send);
		send.type = "submit";
		form.appendChild(input);
		form.appendChild(send);
		panel.appendChild(head);
		panel.appendChild(log);
		panel.appendChild(form);
		panel.appendChild(el("div", "note", t.note));
		root.appendChild(panel);

		function scroll() {
			log.scrollTop = log.scrollHeight;
		}

		function addMessage(kind, text) {
			var message = el("div", "msg " + kind);
			var body = el("div", "text", text);
			message.appendChild(body);
			log.appendChild(message);
			scroll();
			return { node: message, text: body };
		}

		function showCitations(message, citations) {
			if (!citations || !citations.length) return;
			var box = el("div", "cites");
			box.appendChild(el("div", null, t.sources + ":"));
			var list = el("ul");
			citations.forEach(function (citation) {
				var item = el("li");
				var label = citation.title || citation.file_name || citation.url || "";
				var href = safeHref(citation.url);
				if (href) {
					var link = el("a", null, label);
					link.href = href;
					link.target = "_blank";
					link.rel = "noopener noreferrer nofollow";
					item.appendChild(link);
				} else {
					item.textContent = citation.file_name && citation.file_name !== label ? label + " (" + citation.file_name + ")" : label;
				}
				list.appendChild(item);
			});
			box.appendChild(list);
			message.node.appendChild(box);
			scroll();
		}

		function fail(message, text) {
			message.node.classList.remove("pending");
			message.node.classList.add("error");
			message.text.textContent = text;
			scroll();
		}

		function messageForStatus(status, body) {
			// The service words cap and "still learning" refusals in the chatbot's language.
			if ((status === 409 || status === 422) && body && typeof body.message === "string") return body.message;
			if (status === 429) return t.busy;
			if (status === 404) return t.gone;
			return t.failed;
		}

		/** Applies one server-sent event (`event:` name, `data:` JSON) to the answer being written. */
		function applyEvent(message, frame) {
			var name = "message";
			var data = "";
			frame.split("\n").forEach(function (line) {
				if (line.indexOf("event:") === 0) name = line.slice(6).trim();
				else if (line.indexOf("data:") === 0) data += line.slice(5).replace(/^ /, "");
			});
			if (!data) return;
			var payload = JSON.parse(data);
			if (name === "token") {
				message.text.textContent += payload.text;
				scroll();
			} else if (name === "citations") {
				showCitations(message, payload.citations);
			} else if (name === "done") {
				conversationId = payload.conversation_id || conversationId;
				message.node.classList.remove("pending");
			} else if (name === "error") {
				fail(message, payload.message || t.failed);
			}
		}

		async function readStream(response, message) {
			var buffer = "";
			var handle = function (chunk) {
				buffer += chunk.replace(/\r\n?/g, "\n");
				var end;
				while ((end = buffer.indexOf("\n\n")) >= 0) {
					applyEvent(message, buffer.slice(0, end));
					buffer = buffer.slice(end + 2);
				}
			};
			if (!response.body || !response.body.getReader) {
				handle(await response.text());
				return;
			}
			var reader = response.body.getReader();
			var decoder = new TextDecoder();
			for (;;) {
				var part = await reader.read();
				if (part.done) break;
				handle(decoder.decode(part.value, { stream: true }));
			}
			handle(decoder.decode() + "\n\n");
		}

		async function ask(question) {
			busy = true;
			send.disabled = true;
			addMessage("user", question);
			var answer = addMessage("bot pending", "");
			beacon("message_sent");
			try {
				var body = { message: question, channel: pageMode ? "link" : "widget" };
				if (conversationId) body.conversation_id = conversationId;
				var response = await fetch(api + "/messages", {
					method: "POST",
					mode: "cors",
					credentials: "omit",
					headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
					body: JSON.stringify(body)
				});
				if (!response.ok) {
					var error = await response.json().catch(function () {
						return null;
					});
					fail(answer, messageForStatus(response.status, error));
				} else {
					await readStream(response, answer);
					answer.node.classList.remove("pending");
				}
			} catch (e) {
				fail(answer, t.network);
			} finally {
				busy = false;
				send.disabled = false;
			}
		}

		form.addEventListener("submit", function (event) {
			event.preventDefault();
			var question = input.value.trim();
			if (!question || busy) return;
			input.value = "";
			ask(question);
		});

		addMessage("bot", info.greeting);
		if (!info.can_answer) log.appendChild(el("div", "notice", t.learning));
		var suggestions = Array.isArray(info.suggested_questions) ? info.suggested_questions.slice(0, 4) : [];
		if (suggestions.length) {
			var suggest = el("div", "suggest");
			suggestions.forEach(function (question) {
				var chip = el("button", "chip", question);
				chip.type = "button";
				chip.addEventListener("click", function () {
					if (busy) return;
					suggest.remove();
					ask(String(question));
				});
				suggest.appendChild(chip);
			});
			log.appendChild(suggest);
		}

		if (pageMode) {
			beacon("widget_opened");
			input.focus();
			return;
		}

		panel.hidden = true;
		var bubble = el("button", "bubble");
		bubble.type = "button";
		bubble.setAttribute("aria-label", t.open);
		bubble.setAttribute("aria-expanded", "false");
		var icon = document.createElementNS("http://www.w3.org/2000/svg", "svg");
		icon.setAttribute("viewBox", "0 0 24 24");
		icon.setAttribute("aria-hidden", "true");
		var path = document.createElementNS("http://www.w3.org/2000/svg", "path");
		path.setAttribute("d", "M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z");
		icon.appendChild(path);
		bubble.appendChild(icon);
		var close = el("button", "close", "×");
		close.type = "button";
		close.setAttribute("aria-label", t.close);
		head.appendChild(close);
		root.appendChild(bubble);

		function toggle(open) {
			panel.hidden = !open;
			root.classList.toggle("open", open);
			bubble.setAttribute("aria-expanded", String(open));
			bubble.setAttribute("aria-label", open ? t.close : t.open);
			if (open) {
				if (!opened) beacon("widget_opened");
				opened = true;
				input.focus();
				scroll();
			} else {
				bubble.focus();
			}
		}
		bubble.addEventListener("click", function () {
			toggle(panel.hidden);
		});
		close.addEventListener("click", function () {
			toggle(false);
		});
	}

	/** Waits before each new try of the info call (ms); a slow or dropped first call is not the end. */
	var INFO_RETRY_DELAYS = [1000, 3000, 6000];
	var INFO_TIMEOUT_MS = 10000;

	function boot(attempt) {
		var controller = typeof AbortController === "function" ? new AbortController() : null;
		var timer = controller && setTimeout(function () {
			controller.abort();
		}, INFO_TIMEOUT_MS);
		fetch(api, { mode: "cors", credentials: "omit", headers: { Accept: "application/json" }, signal: controller ? controller.signal : undefined })
			.then(function (response) {
				if (!response.ok) {
					var error = new Error("HTTP " + response.status);
					// An unknown chatbot stays unknown; anything else (a timeout, a busy or restarting server) may pass.
					error.final = response.status === 404;
					throw error;
				}
				return response.json();
			})
			.then(
				function (info) {
					clearTimeout(timer);
					start(info);
				},
				// Only the call and its JSON are retried; a fault while drawing is not hidden by a retry.
				function (e) {
					clearTimeout(timer);
					if (!e.final && attempt < INFO_RETRY_DELAYS.length) {
						setTimeout(function () {
							boot(attempt + 1);
						}, INFO_RETRY_DELAYS[attempt]);
						return;
					}
					if (pageMode) {
						var mount = document.querySelector("[data-chatbot-root]") || document.body;
						var words = COPY[document.documentElement.lang === "es" ? "es" : "en"];
						mount.textContent = e.final ? words.gone : words.network;
					}
					if (window.console) console.warn("Chatbot widget for " + slug + " did not load:", e && e.message);
				}
			);
	}

	if (document.body) boot(0);
	else
		document.addEventListener("DOMContentLoaded", function () {
			boot(0);
		});
})();
