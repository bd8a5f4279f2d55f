/**
 * The visitor's sandbox page (`/sandbox/{id}`): a chatbot made from the website a visitor pasted on
 * the home page, with no account. It follows the crawl page by page (found, read, failed with the
 * reason), then the training, then offers a chat in place and "Keep this chatbot" (the claim link).
 * In the chatbot's language (English or Spanish). Its JSON twin is what the page polls.
 */
import type { Chatbot, Source } from "../chatbots/model";
import { chatbotState, ChatbotPhase } from "../chatbots/status";
import type { Locale } from "../locales";
import { renderLayout } from "./layout";
import { escapeHtml } from "./render-markdown";
import { CHAT_BOX_CSS, chatBox, ChatBoxCopy } from "./dashboard/chat-box";
import { csrfField } from "./account-pages";

export interface SandboxView {
	chatbot_id: string;
	name: string;
	website_url: string | null;
	status: ChatbotPhase;
	status_label: string;
	can_answer: boolean;
	failure_reason: string | null;
	found: number;
	crawled: number;
	failed: number;
	max_pages: number;
	pages: Array<{ url: string; title: string | null; char_count: number | null }>;
	failures: Array<{ url: string; reason: string }>;
	messages_used: number;
	max_messages: number;
	expires_at: string | null;
	chat_api: string;
	claim_url: string;
	page_url: string;
}

interface Copy {
	title: (host: string) => string;
	lead: string;
	labels: Record<ChatbotPhase, string>;
	found: string;
	read: string;
	failedPages: string;
	training: string;
	ready: string;
	keep: string;
	keepNote: (days: number) => string;
	again: string;
	chat: ChatBoxCopy;
	empty: string;
	usage: (used: number, max: number) => string;
	confirmTitle: string;
	confirmLead: (url: string) => string;
	confirmButton: string;
}

const COPY: Record<Locale, Copy> = {
	en: {
		title: host => `Your chatbot for ${host}`,
		lead: "It reads your website, learns from it, and answers from what it read, with its sources.",
		labels: { crawling: "Reading your website", training: "Training", ready: "Ready", failed: "Could not be built", idle: "Waiting" },
		found: "Pages found",
		read: "Pages read",
		failedPages: "Pages that could not be used",
		training: "Training on what it read…",
		ready: "Ready. Ask it something your website answers.",
		keep: "Keep this chatbot",
		keepNote: days => `Sign up (or log in) to keep it in your account: it gets your plan's limits, a dashboard, and it is no longer deleted after ${days} days.`,
		again: "Try another address",
		chat: { label: "Your question", placeholder: "Ask about your website…", send: "Send", thinking: "Thinking…", sources: "Sources", failed: "No answer" },
		empty: "No messages yet.",
		usage: (used, max) => `${used} of ${max} messages used in this trial.`,
		confirmTitle: "Build a chatbot from your website",
		confirmLead: url => `We will read up to 5 pages of ${url}, train a chatbot on them, and let you chat with it here.`,
		confirmButton: "Build my chatbot"
	},
	es: {
		title: host => `Tu chatbot para ${host}`,
		lead: "Lee tu sitio web, aprende de él y responde con lo que leyó, citando sus fuentes.",
		labels: { crawling: "Leyendo tu sitio web", training: "Entrenando", ready: "Listo", failed: "No se pudo crear", idle: "En espera" },
		found: "Páginas encontradas",
		read: "Páginas leídas",
		failedPages: "Páginas que no se pudieron usar",
		training: "Entrenando con lo que leyó…",
		ready: "Listo. Pregúntale algo que responda tu sitio web.",
		keep: "Quedarme con este chatbot",
		keepNote: days => `Regístrate (o inicia sesión) para guardarlo en tu cuenta: tendrá los límites de tu plan, un panel, y ya no se borrará a los ${days} días.`,
		again: "Probar otra dirección",
		chat: { label: "Tu pregunta", placeholder: "Pregunta sobre tu sitio web…", send: "Enviar", thinking: "Pensando…", sources: "Fuentes", failed: "Sin respuesta" },
		empty: "Aún no hay mensajes.",
		usage: (used, max) => `${used} de ${max} mensajes usados en esta prueba.`,
		confirmTitle: "Crea un chatbot con tu sitio web",
		confirmLead: url => `Leeremos hasta 5 páginas de ${url}, entrenaremos un chatbot con ellas y podrás chatear con él aquí.`,
		confirmButton: "Crear mi chatbot"
	}
};

export function sandboxView(chatbot: Chatbot, sources: readonly Source[], urls: { publicUrl: string; claimUrl: string }): SandboxView {
	const state = chatbotState(chatbot);
	const copy = COPY[chatbot.locale];
	const pages = sources
		.filter(s => s.kind === "url" && s.url)
		.sort((a, b) => a.created_at - b.created_at)
		.map(s => ({ url: s.url as string, title: s.title, char_count: s.char_count }));
	return {
		chatbot_id: chatbot._id,
		name: chatbot.name,
		website_url: chatbot.crawl.start_url,
		status: state.phase,
		status_label: copy.labels[state.phase],
		can_answer: state.can_answer,
		failure_reason: state.failure_reason ?? null,
		found: chatbot.crawl.found,
		crawled: chatbot.crawl.crawled,
		failed: chatbot.crawl.failed,
		max_pages: chatbot.crawl.max_pages,
		pages,
		failures: chatbot.crawl.failures ?? [],
		messages_used: chatbot.counts.messages,
		max_messages: chatbot.limits.max_messages,
		expires_at: chatbot.expires_at === null ? null : new Date(chatbot.expires_at).toISOString(),
		chat_api: `${urls.publicUrl}/api/chat/${encodeURIComponent(chatbot.slug)}/messages`,
		claim_url: urls.claimUrl,
		page_url: `${urls.publicUrl}/sandbox/${encodeURIComponent(chatbot._id)}`
	};
}

export function sandboxUnderway(view: SandboxView): boolean {
	return view.status === "crawling" || view.status === "training";
}

const PAGE_CSS =
	"<style>" +
	".progress{list-style:none;padding:0;margin:0 0 1.2em;display:grid;gap:4px}" +
	".progress li{padding:6px 10px;border-radius:8px;background:var(--card);border:1px solid var(--line);overflow-wrap:anywhere}" +
	".progress li.ok:before{content:'✓ ';color:#2e7d32;font-weight:700}" +
	".progress li.bad:before{content:'✗ ';color:#c62828;font-weight:700}" +
	".progress .why{display:block;color:var(--muted);font-size:.9rem}" +
	".counts{display:flex;flex-wrap:wrap;gap:6px 18px;margin:0 0 .8em;font-weight:600}" +
	".keep{border:1px solid var(--accent);background:var(--accent-soft);border-radius:var(--radius);padding:12px 18px;margin:1.4em 0;max-width:46rem}" +
	".keep .button{margin-top:4px}" +
	"</style>";

function pageItems(view: SandboxView): string {
	const ok = view.pages.map(p => `<li class="ok" data-page="read">${escapeHtml(p.title ?? p.url)}<span class="why">${escapeHtml(p.url)}</span></li>`);
	const bad = view.failures.map(f => `<li class="bad" data-page="failed">${escapeHtml(f.url)}<span class="why">${escapeHtml(f.reason)}</span></li>`);
	return [...ok, ...bad].join("");
}

/** Polls the page's JSON twin: counts and the page list are rewritten, and the page reloads when done. */
function progressScript(url: string): string {
	return `<script>(function(){
var url=${JSON.stringify(url)};
function li(cls,kind,text,why){var el=document.createElement("li");el.className=cls;el.setAttribute("data-page",kind);el.append(document.createTextNode(text));var s=document.createElement("span");s.className="why";s.textContent=why;el.append(s);return el;}
function tick(){fetch(url,{headers:{Accept:"application/json"},cache:"no-store"}).then(function(r){return r.ok?r.json():null;}).then(function(j){if(!j){setTimeout(tick,4000);return;}var v=j.sandbox;
["found","crawled","failed","status_label"].forEach(function(k){var el=document.querySelector("[data-live="+k+"]");if(el)el.textContent=String(v[k]);});
var list=document.querySelector(".progress");if(list){list.textContent="";v.pages.forEach(function(p){list.append(li("ok","read",p.title||p.url,p.url));});v.failures.forEach(function(f){list.append(li("bad","failed",f.url,f.reason));});}
if(j.underway)setTimeout(tick,1500);else location.reload();}).catch(function(){setTimeout(tick,4000);});}
setTimeout(tick,1500);})();</script>`;
}

export function renderSandboxPage(opts: { baseUrl: string; locale: Locale; view: SandboxView; retentionDays: number }): string {
	const { view, locale } = opts;
	const copy = COPY[locale];
	const host = view.website_url ? new URL(view.website_url).hostname : view.name;
	const underway = sandboxUnderway(view);
	const stage =
		view.status === "training"
			? `<p class="notice" role="status">${escapeHtml(copy.training)}</p>`
			: view.status === "failed" || view.status === "idle"
				? `<p class="notice" role="alert">${escapeHtml(view.failure_reason ?? "")}</p><p><a href="${escapeHtml(opts.baseUrl + (locale === "es" ? "/es/" : "/"))}">${escapeHtml(copy.again)}</a></p>`
				: view.can_answer
					? `<p role="status">${escapeHtml(copy.ready)}</p>`
					: "";
	const usageTemplate = copy.usage(-1, -2);
	const chat = view.can_answer
		? `${CHAT_BOX_CSS}${chatBox(view.chat_api, copy.chat, copy.empty)}<p class="muted" data-field="usage">${escapeHtml(copy.usage(view.messages_used, view.max_messages))}</p>
<script>document.addEventListener("chat:answered",function(e){var t=${JSON.stringify(usageTemplate).replace(/</g, "\\u003c")};document.querySelector("[data-field=usage]").textContent=t.replace("-1",e.detail.messages_used).replace("-2",e.detail.max_messages);});</script>`
		: "";
	const keep = `<div class="keep"><p>${escapeHtml(copy.keepNote(opts.retentionDays))}</p><a class="button primary" href="${escapeHtml(view.claim_url)}" data-action="keep">${escapeHtml(copy.keep)}</a></div>`;
	const body = `${PAGE_CSS}<h1>${escapeHtml(copy.title(host))}</h1>
<p class="lead">${escapeHtml(copy.lead)}</p>
<p><span class="badge" data-field="status"><span data-live="status_label">${escapeHtml(view.status_label)}</span></span></p>
<p class="counts" aria-live="polite"><span>${escapeHtml(copy.found)}: <span data-live="found">${view.found}</span></span><span>${escapeHtml(copy.read)}: <span data-live="crawled">${view.crawled}</span> / ${view.max_pages}</span><span>${escapeHtml(copy.failedPages)}: <span data-live="failed">${view.failed}</span></span></p>
<ul class="progress" aria-label="${escapeHtml(copy.read)}">${pageItems(view)}</ul>
${stage}${chat}${keep}${underway ? progressScript(view.page_url) : ""}`;
	return renderLayout({ locale, baseUrl: opts.baseUrl, title: copy.title(host), description: copy.lead, body: `<style>.badge{display:inline-block;font-size:.9rem;font-weight:600;padding:2px 12px;border-radius:999px;background:var(--accent-soft);border:1px solid var(--line)}</style>${body}`, noindex: true });
}

/** The page a visitor without a script reaches from the home form: the address again, and a CSRF-protected button. */
export function renderSandboxConfirmPage(opts: { baseUrl: string; locale: Locale; csrfToken: string; websiteUrl: string; error?: string }): string {
	const copy = COPY[opts.locale];
	const error = opts.error ? `<p class="notice" role="alert">${escapeHtml(opts.error)}</p>` : "";
	return renderLayout({
		locale: opts.locale,
		baseUrl: opts.baseUrl,
		title: copy.confirmTitle,
		description: copy.confirmTitle,
		noindex: true,
		body: `<h1>${escapeHtml(copy.confirmTitle)}</h1>${error}
<p class="lead">${escapeHtml(copy.confirmLead(opts.websiteUrl))}</p>
<form method="post" action="${escapeHtml(opts.baseUrl)}/sandbox" class="paste">${csrfField(opts.csrfToken)}<input type="hidden" name="language" value="${opts.locale}">
<p><label>URL <input type="url" name="website_url" required maxlength="2048" value="${escapeHtml(opts.websiteUrl)}"></label></p>
<p><button class="button primary" type="submit" data-action="build-sandbox">${escapeHtml(copy.confirmButton)}</button></p></form>`
	});
}
