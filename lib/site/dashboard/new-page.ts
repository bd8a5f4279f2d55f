/**
 * The New chatbot page: a name, a language, and where its knowledge comes from — a website (read
 * within the plan's page limit, its sitemap.xml included, then trained) or files, text and Q&A
 * pairs added on its Sources tab next.
 */
import { csrfField, page } from "../account-pages";
import { escapeHtml } from "../render-markdown";
import { DASHBOARD_CSS } from "./overview-page";

export interface NewChatbotPage {
	baseUrl: string;
	csrfToken: string;
	plan: { name: string; pages: number; files: number; chars: number; chatbots: number };
	error?: string;
	typed?: { name?: string; language?: string; start?: string; website_url?: string };
}

const NEW_CSS = "<style>.choice{border:1px solid var(--line);border-radius:var(--radius);padding:8px 14px;margin:0;display:grid;gap:8px}.choice legend{font-weight:600;padding:0 4px}.account label.radio{display:flex;gap:8px;align-items:flex-start;font-weight:500}</style>";

export function renderNewChatbotPage(opts: NewChatbotPage): string {
	const typed = opts.typed ?? {};
	const fromSite = typed.start !== "content";
	const error = opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : "";
	const n = (v: number) => v.toLocaleString("en-US");
	return page(
		opts,
		"New chatbot",
		"Make a chatbot from your website, files, text or questions and answers.",
		`${DASHBOARD_CSS}${NEW_CSS}<p><a href="${escapeHtml(opts.baseUrl)}/account">← Your chatbots</a></p><h1>New chatbot</h1>
<p class="lead">Your ${escapeHtml(opts.plan.name)} plan gives each chatbot ${n(opts.plan.pages)} pages, ${n(opts.plan.files)} files and ${n(opts.plan.chars)} training characters.</p>
${error}
<form method="post" action="${escapeHtml(opts.baseUrl)}/account/chatbots">${csrfField(opts.csrfToken)}
<label>Name <input type="text" name="name" maxlength="200" placeholder="e.g. Harbor Bikes help" value="${escapeHtml(typed.name ?? "")}"></label>
<label>Language of its answers <select name="language"><option value="en"${typed.language === "es" ? "" : " selected"}>English</option><option value="es"${typed.language === "es" ? " selected" : ""}>Español</option></select></label>
<fieldset class="choice"><legend>Start from</legend>
<label class="radio"><input type="radio" name="start" value="website"${fromSite ? " checked" : ""}> <span>A website: it reads up to ${n(opts.plan.pages)} pages (following links and the site's sitemap.xml), then trains.</span></label>
<label>Website address <input type="url" name="website_url" maxlength="2048" placeholder="https://example.com" value="${escapeHtml(typed.website_url ?? "")}"></label>
<label class="radio"><input type="radio" name="start" value="content"${fromSite ? "" : " checked"}> <span>Files, text or questions and answers: you add them next, on its Sources tab.</span></label>
</fieldset>
<button type="submit" data-action="create-chatbot">Create chatbot</button>
</form>`
	);
}
