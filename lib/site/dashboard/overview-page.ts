/**
 * The Overview tab of a chatbot's dashboard: what it is doing now (with live progress while its
 * website is read or it trains), whether it needs retraining, its sources at a glance, the
 * messages used this period against the plan, its chat link, and deleting it (with confirmation).
 */
import type { Chatbot } from "../../chatbots/model";
import { csrfField } from "../account-pages";
import { escapeHtml } from "../render-markdown";
import { liveScript } from "./live-script";
import { dashboardPage, dashboardPath } from "./shell";
import { DashboardView, underway } from "./view";

export interface OverviewPage {
	baseUrl: string;
	csrfToken: string;
	chatbot: Chatbot;
	view: DashboardView;
	/** A refusal of the last form (a retrain that could not start), shown above. */
	error?: string;
	/** A note after a form succeeded. */
	notice?: string;
}

export const DASHBOARD_CSS =
	"<style>" +
	".stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:12px;margin:0 0 1.4em}" +
	".stat{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:12px 16px}" +
	".stat .k{display:block;color:var(--muted);font-size:.88rem}" +
	".stat .v{display:block;font-size:1.35rem;font-weight:700}" +
	".stat .s{display:block;color:var(--muted);font-size:.88rem}" +
	"meter{width:100%;height:10px}" +
	".danger{border:1px solid #d33;border-radius:var(--radius);padding:4px 18px 10px;margin-top:2em}" +
	".danger h2{border:0;margin-top:.6em;padding:0}" +
	".account button.danger-button{background:#c62828;border-color:#c62828;color:#fff}" +
	".account label.check{display:flex;gap:8px;align-items:flex-start;font-weight:500}" +
	".account textarea,.account select,.account input[type=url],.account input[type=file]{font:inherit;padding:9px 12px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);width:100%}" +
	".account textarea{min-height:7em;resize:vertical}" +
	".live{font-weight:600}" +
	"</style>";

const n = (value: number) => value.toLocaleString("en-US");

function progressBlock(view: DashboardView): string {
	if (view.status === "crawling") {
		return `<p class="notice" role="status" aria-live="polite" data-state="crawling">Reading <strong>${escapeHtml(view.crawl.start_url ?? "the website")}</strong>: <span class="live" data-live="dashboard.crawl.crawled">${view.crawl.crawled}</span> pages read, <span class="live" data-live="dashboard.crawl.failed">${view.crawl.failed}</span> failed, <span class="live" data-live="dashboard.crawl.found">${view.crawl.found}</span> found (at most ${n(view.crawl.max_pages)} pages on your plan). Training starts when it is done.</p>`;
	}
	if (view.status === "training") {
		const still = view.can_answer ? " The previous training keeps answering until the new one is ready." : "";
		return `<p class="notice" role="status" aria-live="polite" data-state="training"><span class="live" data-live="dashboard.status_label">${escapeHtml(view.status_label)}</span>…${still}</p>`;
	}
	return "";
}

function retrainBlock(opts: OverviewPage): string {
	const { view } = opts;
	if (view.status === "training" || view.status === "crawling") return "";
	const action = escapeHtml(`${opts.baseUrl}${dashboardPath(view.chatbot_id)}/training`);
	const form = `<form method="post" action="${action}">${csrfField(opts.csrfToken)}<button type="submit" data-action="retrain">${view.can_answer ? "Retrain now" : "Train now"}</button></form>`;
	if (view.needs_retrain) {
		return `<div class="notice" role="status" data-state="needs-retrain"><p><strong>Needs retraining.</strong> Its sources changed since the last training: answers do not include the changes until you retrain.</p>${form}</div>`;
	}
	if (view.failure_reason) return `<div class="notice" role="status"><p>${escapeHtml(view.failure_reason)}</p>${form}</div>`;
	return `<p class="muted">Trained on its current sources.</p>${form}`;
}

function stats(view: DashboardView, baseUrl: string): string {
	const s = view.sources;
	const pct = (used: number, limit: number) => (limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : 100);
	const period = view.usage.period_end ? `this period (until ${view.usage.period_end.slice(0, 10)})` : "in total";
	return `<div class="stats">
<div class="stat"><span class="k">Sources</span><span class="v" data-field="sources-total">${n(s.url.total + s.file.total + s.text.total + s.qa.total)}</span><span class="s">${n(s.url.total)} pages · ${n(s.file.total)} files · ${n(s.text.total)} texts · ${n(s.qa.total)} Q&amp;A</span><span class="s"><a href="${escapeHtml(baseUrl + dashboardPath(view.chatbot_id, "sources"))}">Manage sources</a></span></div>
<div class="stat"><span class="k">Messages ${period}</span><span class="v" data-field="messages">${n(view.usage.messages_used)} / ${n(view.usage.messages_limit)}</span><meter min="0" max="100" value="${pct(view.usage.messages_used, view.usage.messages_limit)}" aria-label="Messages used">${pct(view.usage.messages_used, view.usage.messages_limit)}%</meter></div>
<div class="stat"><span class="k">Training characters</span><span class="v">${n(view.usage.chars_used)} / ${n(view.usage.chars_limit)}</span><meter min="0" max="100" value="${pct(view.usage.chars_used, view.usage.chars_limit)}" aria-label="Training characters used">${pct(view.usage.chars_used, view.usage.chars_limit)}%</meter></div>
</div>`;
}

function deleteBlock(opts: OverviewPage): string {
	const action = escapeHtml(`${opts.baseUrl}${dashboardPath(opts.view.chatbot_id)}/delete`);
	return `<section class="danger" aria-labelledby="delete-heading"><h2 id="delete-heading">Delete this chatbot</h2>
<p>Deletes <strong>${escapeHtml(opts.view.name)}</strong> with all its sources, uploaded files and trained index. Its chat link and widget stop answering. This cannot be undone.</p>
<form method="post" action="${action}">${csrfField(opts.csrfToken)}
<label class="check"><input type="checkbox" name="confirm" value="yes" required> Yes, delete this chatbot and everything in it</label>
<button class="danger-button" type="submit" data-action="delete-chatbot">Delete chatbot</button></form></section>`;
}

export function renderOverviewPage(opts: OverviewPage): string {
	const { view } = opts;
	const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : "";
	const notice = opts.notice ? `<p class="notice" role="status">${escapeHtml(opts.notice)}</p>` : "";
	const chat = view.can_answer
		? `<p>Chat link: <a href="${escapeHtml(view.chat_url)}" data-field="chat-url">${escapeHtml(view.chat_url)}</a> · <a href="${escapeHtml(opts.baseUrl + dashboardPath(view.chatbot_id, "try"))}">Try it here</a></p>`
		: `<p class="muted">The chat link works once the first training is done: ${escapeHtml(view.chat_url)}</p>`;
	const live = underway(view) ? liveScript(opts.baseUrl + dashboardPath(view.chatbot_id)) : "";
	return dashboardPage({
		baseUrl: opts.baseUrl,
		chatbot: opts.chatbot,
		active: "overview",
		title: "Overview",
		description: "The chatbot's status, sources and usage.",
		body: `${DASHBOARD_CSS}${error}${notice}${progressBlock(view)}${retrainBlock(opts)}
${stats(view, opts.baseUrl)}
${chat}
${deleteBlock(opts)}${live}`
	});
}
