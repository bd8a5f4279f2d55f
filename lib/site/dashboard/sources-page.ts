/**
 * The Sources tab: one table of every page, file, text and Q&A pair with its status, characters,
 * when it was last fetched or added and, for a failed one, the reason in words; forms to add each
 * kind (files upload straight to storage with a progress bar per file); remove (confirmed on a page
 * of its own, so it works without a script and by keyboard) and fetch a page again. When sources
 * changed since the last training, it says so above the table, with the retrain button.
 */
import { ACCEPTED_UPLOAD_TYPES, MAX_TEXT_CHARS, MAX_UPLOAD_BYTES, type Chatbot, type Source, type SourceKind, type SourceStatus } from "../../chatbots/model";
import { csrfField } from "../account-pages";
import { escapeHtml } from "../render-markdown";
import { liveScript } from "./live-script";
import { DASHBOARD_CSS } from "./overview-page";
import { dashboardPage, dashboardPath } from "./shell";
import { DashboardView, underway } from "./view";

/** One row of the table, also the JSON twin's `sources[]`. */
export interface SourceRow {
	id: string;
	kind: SourceKind;
	status: SourceStatus;
	/** The page's address, the file's name, the text's title or opening, the question. */
	label: string;
	url: string | null;
	title: string | null;
	char_count: number | null;
	/** When the page was fetched, the file read or the text added (ISO). */
	fetched_at: string | null;
	failure: Source["failure"];
}

const KIND_WORDS: Record<SourceKind, string> = { url: "Page", file: "File", text: "Text", qa: "Q&A" };
const STATUS_WORDS: Record<SourceStatus, string> = { pending: "Waiting to be read", processing: "Being read", ready: "Ready", failed: "Failed" };
const LABEL_LENGTH = 90;

function opening(text: string | null): string {
	const flat = (text ?? "").replace(/\s+/g, " ").trim();
	return flat.length > LABEL_LENGTH ? `${flat.slice(0, LABEL_LENGTH - 1)}…` : flat;
}

export function sourceRow(source: Source): SourceRow {
	const label =
		source.kind === "url"
			? (source.url ?? "")
			: source.kind === "file"
				? (source.file_name ?? source.title ?? "file")
				: source.kind === "qa"
					? (source.question ?? opening(source.text))
					: (source.title ?? opening(source.text));
	return {
		id: source._id,
		kind: source.kind,
		status: source.status,
		label: label || "(empty)",
		url: source.url,
		title: source.title,
		char_count: source.char_count,
		fetched_at: new Date(source.updated_at).toISOString(),
		failure: source.failure
	};
}

/** Newest first within the order pages, files, texts, Q&A. */
export function sourceRows(sources: readonly Source[]): SourceRow[] {
	const order: SourceKind[] = ["url", "file", "text", "qa"];
	return [...sources].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind) || b.created_at - a.created_at).map(sourceRow);
}

export interface SourcesPage {
	baseUrl: string;
	csrfToken: string;
	chatbot: Chatbot;
	view: DashboardView;
	rows: SourceRow[];
	/** A refused form: which form, and why (shown next to it, the typed values kept). */
	error?: { form: "page" | "text" | "qa" | "file" | "row"; message: string };
	typed?: { url?: string; text?: string; title?: string; question?: string; answer?: string };
	notice?: string;
}

const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "—");

function rowHtml(opts: SourcesPage, row: SourceRow): string {
	const base = `${opts.baseUrl}${dashboardPath(opts.view.chatbot_id, "sources")}/${encodeURIComponent(row.id)}`;
	const label = row.kind === "url" ? `<a href="${escapeHtml(row.label)}" rel="noopener noreferrer">${escapeHtml(row.label)}</a>` : escapeHtml(row.label);
	const title = row.kind === "url" && row.title ? `<br><span class="muted">${escapeHtml(row.title)}</span>` : "";
	const failure = row.failure ? `<br><span class="failure">${escapeHtml(row.failure.message)}</span>` : "";
	const refetch =
		row.kind === "url"
			? `<form class="inline" method="post" action="${escapeHtml(`${base}/refetch`)}">${csrfField(opts.csrfToken)}<button class="quiet" type="submit" data-action="refetch" aria-label="Fetch ${escapeHtml(row.label)} again">Fetch again</button></form>`
			: "";
	const remove = `<form class="inline" method="post" action="${escapeHtml(`${base}/remove`)}">${csrfField(opts.csrfToken)}<button class="quiet" type="submit" data-action="remove" aria-label="Remove ${escapeHtml(row.label)}">Remove…</button></form>`;
	const chars = row.char_count === null ? "—" : row.char_count.toLocaleString("en-US");
	return `<tr data-source="${escapeHtml(row.id)}" data-kind="${row.kind}" data-status="${row.status}"><td data-label="Kind">${KIND_WORDS[row.kind]}</td><td class="label" data-label="Source">${label}${title}${failure}</td><td data-label="Status">${STATUS_WORDS[row.status]}</td><td class="num" data-label="Characters">${chars}</td><td data-label="Fetched or added">${when(row.fetched_at)}</td><td class="row-actions">${refetch}${remove}</td></tr>`;
}

function table(opts: SourcesPage): string {
	if (opts.rows.length === 0) return `<p class="muted" data-field="no-sources">No sources yet. Add a page, a file, a text or a question and its answer below.</p>`;
	return `<div class="table-wrap"><table class="sources"><caption class="muted">${opts.rows.length} sources · ${opts.view.usage.chars_used.toLocaleString("en-US")} of ${opts.view.usage.chars_limit.toLocaleString("en-US")} training characters</caption>
<thead><tr><th scope="col">Kind</th><th scope="col">Source</th><th scope="col">Status</th><th scope="col">Characters</th><th scope="col">Fetched or added</th><th scope="col"><span class="muted">Actions</span></th></tr></thead>
<tbody>${opts.rows.map(row => rowHtml(opts, row)).join("\n")}</tbody></table></div>`;
}

/** Pages the site crawl found but could not add, with the reason (the first ones; the count covers all). */
function crawlFailures(opts: SourcesPage): string {
	const failures = opts.chatbot.crawl.failures ?? [];
	if (failures.length === 0) return "";
	const items = failures.map(f => `<li data-crawl-failure><span class="label">${escapeHtml(f.url)}</span><br><span class="failure">${escapeHtml(f.reason)}</span></li>`).join("");
	const more = opts.chatbot.crawl.failed > failures.length ? `<p class="muted">…and ${opts.chatbot.crawl.failed - failures.length} more.</p>` : "";
	return `<details class="crawl-failures"><summary>${opts.chatbot.crawl.failed === 1 ? "1 page" : `${opts.chatbot.crawl.failed} pages`} of the website could not be added</summary><ul>${items}</ul>${more}<p class="muted">Fix them on the site and add them as pages, or add their content as text.</p></details>`;
}

function retrainNotice(opts: SourcesPage): string {
	const { view } = opts;
	if (view.status === "training") return `<p class="notice" role="status" data-state="training">Training on these sources… The previous training keeps answering until it is done. <span class="live" data-live="dashboard.status_label"></span></p>`;
	if (!view.needs_retrain) return "";
	const action = escapeHtml(`${opts.baseUrl}${dashboardPath(view.chatbot_id)}/training`);
	return `<div class="notice" role="status" data-state="needs-retrain"><p><strong>Needs retraining.</strong> Sources changed since the last training; answers do not include the changes until you retrain.</p>
<form method="post" action="${action}">${csrfField(opts.csrfToken)}<button type="submit" data-action="retrain">Retrain now</button></form></div>`;
}

function errorFor(opts: SourcesPage, form: NonNullable<SourcesPage["error"]>["form"]): string {
	return opts.error?.form === form ? `<p class="error" role="alert">${escapeHtml(opts.error.message)}</p>` : "";
}

function addForms(opts: SourcesPage): string {
	const root = `${opts.baseUrl}${dashboardPath(opts.view.chatbot_id, "sources")}`;
	const typed = opts.typed ?? {};
	const accept = [...ACCEPTED_UPLOAD_TYPES, ".pdf", ".docx", ".doc", ".txt", ".md"].join(",");
	return `<h2>Add sources</h2>
<div class="add-grid">
<section class="add" id="add-page" aria-labelledby="add-page-h"><h3 id="add-page-h">A web page</h3>${errorFor(opts, "page")}
<form method="post" action="${escapeHtml(`${root}/pages`)}">${csrfField(opts.csrfToken)}
<label>Page address <input type="url" name="url" required maxlength="2048" placeholder="https://example.com/pricing" value="${escapeHtml(typed.url ?? "")}"></label>
<button type="submit" data-action="add-page">Add page</button></form></section>
<section class="add" id="add-file" aria-labelledby="add-file-h"><h3 id="add-file-h">Files</h3>${errorFor(opts, "file")}
<form data-upload="${escapeHtml(root)}">
<label>PDF, Word (DOCX, DOC), text or Markdown, up to ${Math.floor(MAX_UPLOAD_BYTES / 1_000_000)} MB each <input type="file" name="files" multiple required accept="${escapeHtml(accept)}"></label>
<button type="submit" data-action="upload">Upload</button>
<ul class="uploads" aria-live="polite"></ul></form>
<noscript><p class="muted">Uploading needs JavaScript.</p></noscript></section>
<section class="add" id="add-text" aria-labelledby="add-text-h"><h3 id="add-text-h">Text</h3>${errorFor(opts, "text")}
<form method="post" action="${escapeHtml(`${root}/texts`)}">${csrfField(opts.csrfToken)}
<label>Title (optional) <input type="text" name="title" maxlength="200" value="${escapeHtml(typed.title ?? "")}"></label>
<label>Text <textarea name="text" required maxlength="${MAX_TEXT_CHARS}">${escapeHtml(typed.text ?? "")}</textarea></label>
<button type="submit" data-action="add-text">Add text</button></form></section>
<section class="add" id="add-qa" aria-labelledby="add-qa-h"><h3 id="add-qa-h">Question and answer</h3>${errorFor(opts, "qa")}
<form method="post" action="${escapeHtml(`${root}/qa`)}">${csrfField(opts.csrfToken)}
<label>Question <input type="text" name="question" required maxlength="1000" value="${escapeHtml(typed.question ?? "")}"></label>
<label>Answer <textarea name="answer" required maxlength="10000">${escapeHtml(typed.answer ?? "")}</textarea></label>
<button type="submit" data-action="add-qa">Add Q&amp;A pair</button></form></section>
</div>${uploadScript()}`;
}

const SOURCES_CSS =
	"<style>" +
	"table.sources td.label{overflow-wrap:anywhere;min-width:12em}" +
	"table.sources td.num{text-align:right;white-space:nowrap}" +
	"table.sources caption{caption-side:top;text-align:left;padding:8px 12px}" +
	".row-actions{white-space:nowrap}" +
	// A phone shows each source as a card: one labelled line per column, nothing to scroll sideways.
	"@media (max-width:640px){table.sources thead{position:absolute;left:-9999px}table.sources,table.sources tbody,table.sources tr,table.sources td{display:block;width:100%}" +
	"table.sources tr{border-bottom:1px solid var(--line);padding:6px 0}table.sources td{border:0;padding:2px 12px}table.sources td.num{text-align:left}" +
	"table.sources td[data-label]:before{content:attr(data-label) \": \";color:var(--muted);font-size:.88rem}table.sources td.label:before{display:block}table.sources caption{display:block;width:100%}}" +
	".failure{color:#b3261e}" +
	".crawl-failures{margin:0 0 1.4em}.crawl-failures summary{cursor:pointer;font-weight:600}.crawl-failures li{overflow-wrap:anywhere}" +
	"@media (prefers-color-scheme:dark){.failure{color:#ff8a80}}" +
	".add-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:16px}" +
	".add{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:4px 16px 8px}" +
	".add h3{margin-top:.7em}" +
	".uploads{list-style:none;padding:0;margin:0}.uploads li{display:grid;gap:2px;margin:0 0 8px}.uploads progress{width:100%}" +
	"</style>";

/**
 * Uploads each chosen file the way the demo API does, from the page: ask for an upload grant, PUT
 * the bytes to the presigned address (progress from the XHR upload events), then attach the file.
 * JSON requests from our own origin pass the CSRF check without a token (lib/accounts/csrf.ts).
 */
function uploadScript(): string {
	return `<script>(function(){
var form=document.querySelector("form[data-upload]");if(!form)return;
var root=form.getAttribute("data-upload");var list=form.querySelector(".uploads");
function post(path,body){return fetch(root+path,{method:"POST",credentials:"same-origin",headers:{"Content-Type":"application/json",Accept:"application/json"},body:JSON.stringify(body)}).then(function(r){return r.json().then(function(j){if(!r.ok)throw new Error((j.errors&&j.errors.detail)||j.message||("HTTP "+r.status));return j;});});}
function put(target,file,bar){return new Promise(function(ok,fail){var x=new XMLHttpRequest();x.open("PUT",target.upload_url);var h=target.headers||{};Object.keys(h).forEach(function(k){if(k.toLowerCase()!=="content-length")x.setRequestHeader(k,h[k]);});if(!h["Content-Type"]&&!h["content-type"])x.setRequestHeader("Content-Type",target.content_type);
x.upload.onprogress=function(e){if(e.lengthComputable)bar.value=Math.round(e.loaded/e.total*100);};x.onload=function(){x.status<300?ok():fail(new Error("The upload was refused ("+x.status+")."));};x.onerror=function(){fail(new Error("The upload failed."));};x.send(file);});}
function typeOf(f){if(f.type)return f.type;var n=f.name.toLowerCase();return n.endsWith(".md")?"text/markdown":n.endsWith(".txt")?"text/plain":n.endsWith(".pdf")?"application/pdf":n.endsWith(".docx")?"application/vnd.openxmlformats-officedocument.wordprocessingml.document":n.endsWith(".doc")?"application/msword":"application/octet-stream";}
function one(file){var li=document.createElement("li");var name=document.createElement("span");name.textContent=file.name;var bar=document.createElement("progress");bar.max=100;bar.value=0;bar.setAttribute("aria-label","Upload of "+file.name);var note=document.createElement("span");note.className="muted";li.append(name,bar,note);list.append(li);var type=typeOf(file);
return post("/uploads",{filename:file.name,content_type:type,size:file.size}).then(function(t){t.content_type=type;note.textContent="Uploading…";return put(t,file,bar).then(function(){note.textContent="Attaching…";return post("/files",{file_name:file.name,file_s3_key:t.s3_key,file_size:file.size,file_content_type:type});});}).then(function(){bar.value=100;note.textContent="Uploaded; it is being read.";li.setAttribute("data-upload-state","done");},function(e){note.textContent=e.message;note.className="failure";li.setAttribute("data-upload-state","failed");});}
form.addEventListener("submit",function(e){e.preventDefault();var input=form.querySelector("input[type=file]");var files=Array.prototype.slice.call(input.files);if(!files.length)return;var button=form.querySelector("button");button.disabled=true;list.textContent="";
files.reduce(function(p,f){return p.then(function(){return one(f);});},Promise.resolve()).then(function(){button.disabled=false;input.value="";if(!list.querySelector("[data-upload-state=failed]"))setTimeout(function(){location.reload();},600);});});
})();</script>`;
}

export function renderSourcesPage(opts: SourcesPage): string {
	const notice = opts.notice ? `<p class="notice" role="status">${escapeHtml(opts.notice)}</p>` : "";
	const live = underway(opts.view) ? liveScript(opts.baseUrl + dashboardPath(opts.view.chatbot_id)) : "";
	return dashboardPage({
		baseUrl: opts.baseUrl,
		chatbot: opts.chatbot,
		active: "sources",
		title: "Sources",
		description: "Pages, files, texts and Q&A pairs the chatbot answers from.",
		body: `${DASHBOARD_CSS}${SOURCES_CSS}${notice}${retrainNotice(opts)}${errorFor(opts, "row")}
<h2 class="first">Sources</h2>
${table(opts)}
${crawlFailures(opts)}
${addForms(opts)}${live}`
	});
}

export interface RemoveConfirmPage {
	baseUrl: string;
	csrfToken: string;
	chatbot: Chatbot;
	row: SourceRow;
}

/** "Remove this source?": the confirmation a remove button leads to. */
export function renderRemoveConfirmPage(opts: RemoveConfirmPage): string {
	const sources = `${opts.baseUrl}${dashboardPath(opts.chatbot._id, "sources")}`;
	const what = opts.row.kind === "file" ? "the uploaded file, " : "";
	return dashboardPage({
		baseUrl: opts.baseUrl,
		chatbot: opts.chatbot,
		active: "sources",
		title: "Remove a source",
		body: `${DASHBOARD_CSS}<h2 class="first">Remove this source?</h2>
<p><strong>${KIND_WORDS[opts.row.kind]}:</strong> ${escapeHtml(opts.row.label)}</p>
<p>This deletes the source, ${what}its text and its ${opts.row.char_count?.toLocaleString("en-US") ?? 0} training characters. The chatbot is retrained without it right away; until then its previous training keeps answering.</p>
<form method="post" action="${escapeHtml(`${sources}/${encodeURIComponent(opts.row.id)}/remove`)}">${csrfField(opts.csrfToken)}<input type="hidden" name="confirm" value="yes">
<p class="actions"><button class="danger-button" type="submit" data-action="confirm-remove">Remove source</button> <a class="button secondary" href="${escapeHtml(sources)}">Cancel</a></p></form>`
	});
}
