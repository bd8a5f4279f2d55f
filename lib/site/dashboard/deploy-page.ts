/**
 * The Deploy page of a chatbot: its chat link and embed snippet with copy buttons, the widget
 * settings form (lib/widget/settings.ts), and a live preview of the widget that follows the form
 * as the owner types, before anything is saved. The preview is drawn by a small inline script with
 * `textContent` only; the saved settings are what the real widget and chat page use.
 */
import { chatUrl, embedSnippet } from "../../chatbots/views";
import { LOCALES } from "../../locales";
import { greeting } from "../../chat/copy";
import {
	MAX_DISPLAY_NAME,
	MAX_SUGGESTED_QUESTION,
	MAX_SUGGESTED_QUESTIONS,
	MAX_WELCOME_MESSAGE,
	textColorOn,
	WIDGET_POSITIONS,
	type WidgetSettings
} from "../../widget/settings";
import { csrfField, errorBox, PageBase } from "../account-pages";
import { escapeHtml } from "../render-markdown";
import { chatbotPagePath, insightPage, InsightPageOptions } from "./insights-frame";

export interface DeployPageOptions extends PageBase {
	chatbot: InsightPageOptions["chatbot"] & { slug: string };
	csrfToken: string;
	/** The settings shown in the form: the saved ones, or what was typed when refused. */
	settings: WidgetSettings;
	/** Raw suggested-questions text as typed (after a refusal). */
	suggestedText?: string;
	saved?: boolean;
	error?: { message: string; fields: string[] };
}

const LANGUAGE_NAMES: Record<(typeof LOCALES)[number], string> = { en: "English", es: "Español" };

function copyBlock(id: string, label: string, value: string, multiline: boolean): string {
	const field = multiline
		? `<textarea id="${id}" readonly rows="3" spellcheck="false">${escapeHtml(value)}</textarea>`
		: `<input id="${id}" type="text" readonly value="${escapeHtml(value)}">`;
	return `<div class="copy"><label for="${id}">${label}</label>${field}<button type="button" class="quiet" data-copy="${id}" aria-label="Copy the ${label.toLowerCase()}">Copy</button> <span class="copied muted" role="status" aria-live="polite"></span></div>`;
}

const SCRIPT = `<script>
(function(){
document.querySelectorAll("[data-copy]").forEach(function(button){
 button.addEventListener("click",function(){
  var field=document.getElementById(button.getAttribute("data-copy"));var note=button.parentNode.querySelector(".copied");
  var done=function(){note.textContent="Copied";setTimeout(function(){note.textContent=""},2500)};
  if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(field.value).then(done,function(){field.select();document.execCommand("copy");done()})}
  else{field.select();document.execCommand("copy");done()}
 });
});
var form=document.getElementById("widget-form");var preview=document.getElementById("preview");if(!form||!preview)return;
var greetings=JSON.parse(preview.getAttribute("data-greetings"));var fallbackName=preview.getAttribute("data-name");
function textOn(hex){var c=[1,3,5].map(function(i){var v=parseInt(hex.slice(i,i+2),16)/255;return v<=0.03928?v/12.92:Math.pow((v+0.055)/1.055,2.4)});var l=0.2126*c[0]+0.7152*c[1]+0.0722*c[2];return 1.05/(l+0.05)>=(l+0.05)/0.05?"#ffffff":"#111827"}
function draw(){
 var name=form.elements.display_name.value.trim()||fallbackName;var lang=form.elements.language.value;
 var welcome=form.elements.welcome_message.value.trim()||greetings[lang]||greetings.en;
 var color=form.elements.accent_color.value;if(!/^#[0-9a-fA-F]{6}$/.test(color))color="#2563eb";
 var ink=textOn(color);
 preview.querySelector(".p-title").textContent=name;preview.querySelector(".p-welcome").textContent=welcome;
 preview.querySelector(".p-head").style.background=color;preview.querySelector(".p-head").style.color=ink;
 preview.querySelector(".p-bubble").style.background=color;preview.querySelector(".p-bubble").style.color=ink;
 preview.querySelector(".p-send").style.background=color;preview.querySelector(".p-send").style.color=ink;
 preview.setAttribute("data-position",form.elements.position.value);
 var list=preview.querySelector(".p-suggest");list.textContent="";
 form.elements.suggested_questions.value.split("\\n").map(function(s){return s.trim()}).filter(Boolean).slice(0,${MAX_SUGGESTED_QUESTIONS}).forEach(function(q){var b=document.createElement("span");b.className="p-chip";b.textContent=q;b.style.borderColor=color;list.appendChild(b)});
}
form.addEventListener("input",draw);form.addEventListener("change",draw);draw();
})();
</script>`;

const CSS =
	"<style>" +
	".copy{display:grid;grid-template-columns:1fr auto auto;gap:6px 8px;align-items:center;margin:0 0 1em}" +
	".copy label{grid-column:1/-1;font-weight:600}" +
	".copy input,.copy textarea{font-family:var(--mono);font-size:.85rem}" +
	"#widget-form{display:grid;gap:12px}" +
	"#widget-form fieldset{border:0;padding:0;margin:0;display:flex;gap:16px;flex-wrap:wrap}" +
	"#widget-form legend{font-weight:600;padding:0;margin-bottom:4px}" +
	"#widget-form fieldset label{font-weight:400;display:inline-flex;gap:6px;align-items:center}" +
	".preview{position:relative;min-height:440px;border:1px dashed var(--line);border-radius:var(--radius);background:repeating-linear-gradient(45deg,transparent 0 12px,var(--accent-soft) 12px 13px);overflow:hidden}" +
	".p-panel{position:absolute;bottom:76px;right:14px;width:min(300px,calc(100% - 28px));background:#fff;color:#111827;border-radius:12px;box-shadow:0 8px 28px rgba(0,0,0,.22);overflow:hidden;font:14px/1.45 system-ui,sans-serif}" +
	".preview[data-position=left] .p-panel{right:auto;left:14px}" +
	".p-head{padding:10px 14px;font-weight:600}" +
	".p-log{padding:12px;background:#f9fafb;min-height:150px}" +
	".p-welcome{background:#fff;border:1px solid #e5e7eb;border-radius:12px;padding:8px 10px;white-space:pre-wrap;overflow-wrap:anywhere}" +
	".p-suggest{display:flex;flex-wrap:wrap;gap:6px;margin-top:8px}" +
	".p-chip{border:1px solid;border-radius:999px;padding:2px 10px;background:#fff;font-size:13px}" +
	".p-form{display:flex;gap:6px;padding:8px;border-top:1px solid #e5e7eb}" +
	".p-input{flex:1;border:1px solid #d1d5db;border-radius:8px;padding:6px 8px;color:#6b7280}" +
	".p-send{border-radius:8px;padding:6px 12px;font-weight:600}" +
	".p-bubble{position:absolute;bottom:14px;right:14px;width:50px;height:50px;border-radius:50%;display:flex;align-items:center;justify-content:center;box-shadow:0 6px 18px rgba(0,0,0,.25)}" +
	".preview[data-position=left] .p-bubble{right:auto;left:14px}" +
	".p-bubble svg{width:24px;height:24px;fill:currentColor}" +
	"</style>";

function settingsForm(opts: DeployPageOptions): string {
	const s = opts.settings;
	const action = escapeHtml(`${opts.baseUrl}${chatbotPagePath(opts.chatbot._id, "deploy")}/widget`);
	const invalid = (field: string) => (opts.error?.fields.includes(field) ? ' aria-invalid="true"' : "");
	const positions = WIDGET_POSITIONS.map(p => `<label><input type="radio" name="position" value="${p}"${s.position === p ? " checked" : ""}> ${p === "right" ? "Bottom right" : "Bottom left"}</label>`).join("");
	const languages = LOCALES.map(l => `<option value="${l}"${s.language === l ? " selected" : ""}>${LANGUAGE_NAMES[l]}</option>`).join("");
	return `<form id="widget-form" method="post" action="${action}">
${csrfField(opts.csrfToken)}
${opts.error ? errorBox(opts.error.message) : ""}
<label for="display_name">Display name <span class="hint">shown in the widget's header; empty uses the chatbot's name</span></label>
<input id="display_name" type="text" name="display_name" maxlength="${MAX_DISPLAY_NAME}" value="${escapeHtml(s.display_name ?? "")}" placeholder="${escapeHtml(opts.chatbot.name)}"${invalid("display_name")}>
<label for="welcome_message">Welcome message <span class="hint">the first message of every chat</span></label>
<textarea id="welcome_message" name="welcome_message" rows="2" maxlength="${MAX_WELCOME_MESSAGE}" placeholder="${escapeHtml(greeting(s.language))}"${invalid("welcome_message")}>${escapeHtml(s.welcome_message ?? "")}</textarea>
<label for="suggested_questions">Suggested questions <span class="hint">one per line, up to ${MAX_SUGGESTED_QUESTIONS}, each up to ${MAX_SUGGESTED_QUESTION} characters</span></label>
<textarea id="suggested_questions" name="suggested_questions" rows="3"${invalid("suggested_questions")}>${escapeHtml(opts.suggestedText ?? s.suggested_questions.join("\n"))}</textarea>
<label for="accent_color">Accent colour</label>
<input id="accent_color" type="color" name="accent_color" value="${escapeHtml(s.accent_color)}"${invalid("accent_color")}>
<fieldset><legend>Position</legend>${positions}</fieldset>
<label for="language">Language <span class="hint">of the widget's buttons and notices</span></label>
<select id="language" name="language">${languages}</select>
<button type="submit">Save widget settings</button>
</form>`;
}

function preview(opts: DeployPageOptions): string {
	const s = opts.settings;
	const ink = textColorOn(s.accent_color);
	const greetings = JSON.stringify(Object.fromEntries(LOCALES.map(l => [l, greeting(l)])));
	const chips = s.suggested_questions.map(q => `<span class="p-chip">${escapeHtml(q)}</span>`).join("");
	return `<div id="preview" class="preview" data-position="${s.position}" data-name="${escapeHtml(opts.chatbot.name)}" data-greetings="${escapeHtml(greetings)}" role="img" aria-label="Preview of the widget with these settings">
<div class="p-panel"><div class="p-head" style="background:${s.accent_color};color:${ink}"><span class="p-title">${escapeHtml(s.display_name ?? opts.chatbot.name)}</span></div>
<div class="p-log"><div class="p-welcome">${escapeHtml(s.welcome_message ?? greeting(s.language))}</div><div class="p-suggest">${chips}</div></div>
<div class="p-form"><span class="p-input">…</span><span class="p-send" style="background:${s.accent_color};color:${ink}">➤</span></div></div>
<div class="p-bubble" style="background:${s.accent_color};color:${ink}"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z"/></svg></div>
</div>`;
}

export function renderDeployPage(opts: DeployPageOptions): string {
	const saved = opts.saved ? `<p class="ok" role="status" data-flash="saved">Widget settings saved. The widget and the chat link use them from now on.</p>` : "";
	const body = `${CSS}${saved}
<section class="card"><h2>Share or embed</h2>
<p class="muted">Anyone with the chat link can chat with this chatbot. The snippet adds a chat bubble to any website: paste it before <code>&lt;/body&gt;</code>.</p>
${copyBlock("chat-link", "Chat link", chatUrl(opts.baseUrl, opts.chatbot.slug), false)}
${copyBlock("embed-snippet", "Embed snippet", embedSnippet(opts.baseUrl, opts.chatbot.slug), true)}
</section>
<div class="grid2">
<section class="card"><h2>Widget settings</h2>${settingsForm(opts)}</section>
<section class="card"><h2>Preview</h2><p class="muted">Follows the form as you type; saved settings go live at once.</p>${preview(opts)}</section>
</div>${SCRIPT}`;
	return insightPage({ baseUrl: opts.baseUrl, chatbot: opts.chatbot, active: "deploy", title: "Deploy", body });
}
