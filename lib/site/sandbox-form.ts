/**
 * The home page's "paste your website URL" form. With a script (the usual case) it posts JSON to
 * `POST /sandbox` — JSON from our own origin passes the CSRF check without a token, and no other
 * origin can send it (no CORS preflight is ever granted) — and opens the new sandbox's page. Without
 * one, it GETs `/sandbox/new`, which asks once more with a CSRF-protected button: the home page is a
 * cached document for everyone and carries no per-visitor token.
 */
import type { SandboxForm } from "./blocks";
import { escapeHtml } from "./render-markdown";

export const SANDBOX_FORM_CSS =
	".paste{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:14px 18px;margin:8px 0 26px;max-width:46rem}" +
	".paste h2{border:0;padding:0;margin:.2em 0 .4em;font-size:1.25rem}" +
	".paste form{display:flex;flex-wrap:wrap;gap:10px;align-items:end;margin:0}" +
	".paste label{flex:1 1 16rem;display:grid;gap:4px;font-weight:600}" +
	".paste input[type=url]{font:inherit;padding:10px 12px;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg);width:100%}" +
	".paste button{font:inherit;font-weight:600;padding:10px 18px;border-radius:999px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer}" +
	".paste .note{color:var(--muted);font-size:.92rem;margin:.6em 0 0}" +
	".paste .error{border:1px solid #d33;background:rgba(221,51,51,.08);padding:8px 12px;border-radius:8px;margin:.6em 0 0}";

export function sandboxFormHtml(form: SandboxForm): string {
	return `<section class="paste" aria-labelledby="paste-h"><style>${SANDBOX_FORM_CSS}</style><h2 id="paste-h">${escapeHtml(form.heading)}</h2>
<form method="get" action="${escapeHtml(form.action)}" data-sandbox="${escapeHtml(form.endpoint)}">
<input type="hidden" name="language" value="${form.language}">
<label>${escapeHtml(form.label)} <input type="url" name="website_url" required maxlength="2048" placeholder="${escapeHtml(form.placeholder)}" autocomplete="url"></label>
<button type="submit" data-action="build-sandbox">${escapeHtml(form.button)}</button>
</form>
<p class="error" role="alert" hidden></p>
<p class="note">${escapeHtml(form.note)}</p>
<script>(function(){
var form=document.querySelector("form[data-sandbox]");if(!form||!window.fetch)return;var box=form.parentNode.querySelector(".error");var button=form.querySelector("button");var label=button.textContent;
form.addEventListener("submit",function(e){e.preventDefault();box.hidden=true;button.disabled=true;button.textContent=${JSON.stringify(form.working)};
fetch(form.getAttribute("data-sandbox"),{method:"POST",credentials:"same-origin",headers:{"Content-Type":"application/json",Accept:"application/json"},body:JSON.stringify({website_url:form.website_url.value,language:form.language.value})})
.then(function(r){return r.json();}).then(function(j){if(j.ok&&j.page_url){location.assign(j.page_url);return;}box.textContent=(j.errors&&j.errors.detail)||j.message||"Error";box.hidden=false;button.disabled=false;button.textContent=label;})
.catch(function(){box.textContent="The service could not be reached. Try again.";box.hidden=false;button.disabled=false;button.textContent=label;});});
})();</script></section>`;
}
