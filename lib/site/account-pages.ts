/**
 * The account pages (sign up, log in, settings) and the claim pages, in the site layout.
 *
 * Every form posts a CSRF token in the hidden `csrf_token` field; every value that came from a user
 * or a database (email, chatbot names, URLs) is escaped here. The pages are English only and kept
 * out of search indexes: they have no language twins and nothing in them is public content.
 */
import { CSRF_FIELD_NAME } from "../accounts/csrf";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../accounts/password";
import { EMAIL_MAX_LENGTH } from "../accounts/email";
import { SANDBOX_LIMITS } from "../accounts/plans";
import type { ApiKeyView } from "../accounts/views";
import { renderLayout } from "./layout";
import { escapeHtml } from "./render-markdown";

/** Form styling the site stylesheet does not carry (it has no forms elsewhere). */
const FORM_CSS =
	"<style>" +
	".account{max-width:34rem}" +
	".account.wide{max-width:none}" +
	".account form{display:grid;gap:12px;margin:0 0 1.4em}" +
	".account label{display:grid;gap:4px;font-weight:600}" +
	".account input[type=email],.account input[type=password],.account input[type=text]{font:inherit;padding:9px 12px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg)}" +
	".account button{font:inherit;font-weight:600;padding:10px 18px;border-radius:999px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;justify-self:start}" +
	".account button.quiet{background:none;color:var(--accent);padding:4px 12px}" +
	".account .inline{display:inline;margin:0}" +
	".account form.logout{display:block;margin:0 0 1.2em}" +
	".account td code{white-space:nowrap}" +
	".account .error{border:1px solid #d33;background:rgba(221,51,51,.08);padding:10px 14px;border-radius:var(--radius)}" +
	".account .secret{font-family:var(--mono);font-size:1rem;padding:10px 14px;border:1px dashed var(--accent);border-radius:8px;overflow-wrap:anywhere}" +
	".account .muted{color:var(--muted)}" +
	// On a phone a wide table becomes one card per row, each cell on its own labelled line.
	"@media (max-width:640px){table.stack thead{position:absolute;left:-9999px}table.stack,table.stack tbody,table.stack tr,table.stack td{display:block;width:100%}" +
	"table.stack tr{border-bottom:1px solid var(--line);padding:6px 0}table.stack td{border:0;padding:2px 12px}table.stack td[data-label]:before{content:attr(data-label) \": \";color:var(--muted);font-size:.88rem}}" +
	"</style>";

export interface PageBase {
	/** Public base URL without a trailing slash. */
	baseUrl: string;
}

/** A page of the account area (also the Billing page, `wide`, in lib/site/billing-page.ts). */
export function page(base: PageBase, title: string, description: string, inner: string, opts: { wide?: boolean } = {}): string {
	return renderLayout({
		locale: "en",
		baseUrl: base.baseUrl,
		title,
		description,
		body: `${FORM_CSS}<div class="account${opts.wide ? " wide" : ""}">${inner}</div>`,
		noindex: true
	});
}

export const csrfField = (token: string) => `<input type="hidden" name="${CSRF_FIELD_NAME}" value="${escapeHtml(token)}">`;
export const errorBox = (message: string | undefined) => (message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : "");
/** The day of a timestamp (ms) or ISO date, `YYYY-MM-DD`. */
export const day = (value: number | string | null) => (value === null ? "never" : new Date(value).toISOString().slice(0, 10));

export interface CredentialsPage extends PageBase {
	csrfToken: string;
	/** Where to go after success (a local path). */
	next: string;
	email?: string;
	error?: string;
}

function credentialsForm(opts: CredentialsPage, action: string, button: string, autocomplete: string): string {
	return `<form method="post" action="${escapeHtml(opts.baseUrl + action)}">
${csrfField(opts.csrfToken)}
<input type="hidden" name="next" value="${escapeHtml(opts.next)}">
<label>Email <input type="email" name="email" required maxlength="${EMAIL_MAX_LENGTH}" autocomplete="email" value="${escapeHtml(opts.email ?? "")}"></label>
<label>Password <input type="password" name="password" required minlength="${PASSWORD_MIN_LENGTH}" maxlength="${PASSWORD_MAX_LENGTH}" autocomplete="${autocomplete}"></label>
<button type="submit">${button}</button>
</form>`;
}

const withNext = (base: PageBase, path: string, next: string) => `${escapeHtml(base.baseUrl + path)}?next=${encodeURIComponent(next)}`;

export function renderSignupPage(opts: CredentialsPage): string {
	return page(
		opts,
		"Sign up",
		"Create an account to keep chatbots and create API keys for the tool server.",
		`<h1>Create your account</h1>
<p class="lead">Keep your chatbots and give agents an API key for the tool server. New accounts start on the Free plan.</p>
${errorBox(opts.error)}
${credentialsForm(opts, "/account/signup", "Create account", "new-password")}
<p class="muted">Passwords need at least ${PASSWORD_MIN_LENGTH} characters. Already have an account? <a href="${withNext(opts, "/account/login", opts.next)}">Log in</a>.</p>`
	);
}

export function renderLoginPage(opts: CredentialsPage): string {
	return page(
		opts,
		"Log in",
		"Log in to your account.",
		`<h1>Log in</h1>
${errorBox(opts.error)}
${credentialsForm(opts, "/account/login", "Log in", "current-password")}
<p class="muted">No account yet? <a href="${withNext(opts, "/account/signup", opts.next)}">Sign up</a>.</p>`
	);
}

export interface AccountChatbotRow {
	chatbot_id: string;
	name: string;
	chat_url: string;
	website_url: string;
	/** The status in words (lib/site/dashboard/shell.ts `statusLabel`). */
	status: string;
	created_at: string;
	/** Sources by kind. */
	sources: { url: number; file: number; text: number; qa: number };
	/** Messages answered this period, against the plan's messages. */
	messages: { used: number; limit: number };
}

export interface AccountPage extends PageBase {
	csrfToken: string;
	email: string;
	plan: { name: string; limits: { chatbots: number; pages: number; files: number; messages: number; chars: number } };
	chatbots: AccountChatbotRow[];
	keys: ApiKeyView[];
	/** A key created by this request: shown this once. */
	newKey?: string;
	error?: string;
}

function sourcesCell(sources: AccountChatbotRow["sources"]): string {
	const parts = [
		[sources.url, "page", "pages"],
		[sources.file, "file", "files"],
		[sources.text, "text", "texts"],
		[sources.qa, "Q&A pair", "Q&A pairs"]
	]
		.filter(([count]) => (count as number) > 0)
		.map(([count, one, many]) => `${count} ${count === 1 ? one : many}`);
	return parts.length ? escapeHtml(parts.join(", ")) : `<span class="muted">none</span>`;
}

function chatbotTable(base: PageBase, rows: AccountChatbotRow[]): string {
	const create = `<p><a class="button primary" href="${escapeHtml(base.baseUrl)}/account/chatbots/new" data-action="new-chatbot">New chatbot</a></p>`;
	if (rows.length === 0) {
		return `<p class="muted">No chatbots yet. Make one from your website, files, text or questions and answers; an agent can also make one with the <code>create_chatbot</code> tool, and a sandbox joins this list when you open its claim link.</p>${create}`;
	}
	const body = rows
		.map(row => {
			const dashboard = `${base.baseUrl}/account/chatbots/${encodeURIComponent(row.chatbot_id)}`;
			return `<tr data-chatbot="${escapeHtml(row.chatbot_id)}"><td><a href="${escapeHtml(dashboard)}"><strong>${escapeHtml(row.name)}</strong></a><br><span class="muted">${escapeHtml(row.website_url)}</span></td><td data-label="Status">${escapeHtml(row.status)}</td><td data-label="Sources">${sourcesCell(row.sources)}</td><td data-label="Messages this period">${row.messages.used.toLocaleString("en-US")} / ${row.messages.limit.toLocaleString("en-US")}</td><td data-label="Created">${escapeHtml(row.created_at.slice(0, 10))}</td><td><a href="${escapeHtml(row.chat_url)}">Chat link</a></td></tr>`;
		})
		.join("\n");
	return `<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Chatbot</th><th scope="col">Status</th><th scope="col">Sources</th><th scope="col">Messages this period</th><th scope="col">Created</th><th scope="col"><span class="muted">Open</span></th></tr></thead><tbody>
${body}
</tbody></table></div>${create}`;
}

function keyTable(base: PageBase, rows: ApiKeyView[], csrfToken: string): string {
	if (rows.length === 0) return `<p class="muted">No API keys.</p>`;
	const body = rows
		.map(
			row => `<tr><td><code>cbk_live_…${escapeHtml(row.last4)}</code>${row.name ? `<br>${escapeHtml(row.name)}` : ""}</td><td>${day(row.created_at)}</td><td>${day(row.last_used_at)}</td>
<td><form class="inline" method="post" action="${escapeHtml(`${base.baseUrl}/account/api-keys/${encodeURIComponent(row.id)}/revoke`)}">${csrfField(csrfToken)}<button class="quiet" type="submit">Revoke</button></form></td></tr>`
		)
		.join("\n");
	return `<div class="table-wrap"><table><thead><tr><th>Key</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>
${body}
</tbody></table></div>`;
}

export function renderAccountPage(opts: AccountPage): string {
	const { limits } = opts.plan;
	const newKey = opts.newKey
		? `<div class="notice" role="status"><p><strong>Your new API key.</strong> Copy it now: it is shown only this once.</p><p class="secret">${escapeHtml(opts.newKey)}</p>
<p>Use it as <code>Authorization: Bearer &lt;key&gt;</code> on <code>${escapeHtml(opts.baseUrl)}/mcp</code>.</p></div>`
		: "";
	return page(
		opts,
		"Account",
		"Your chatbots and API keys.",
		`<h1>Account</h1>
<p>Logged in as <strong>${escapeHtml(opts.email)}</strong> · ${escapeHtml(opts.plan.name)} plan: ${limits.chatbots} chatbots, ${limits.pages.toLocaleString("en-US")} pages, ${limits.files.toLocaleString("en-US")} files and ${limits.chars.toLocaleString("en-US")} training characters per chatbot, ${limits.messages.toLocaleString("en-US")} messages a month. <a href="${escapeHtml(opts.baseUrl)}/account/billing">Billing and plans</a></p>
<form class="logout" method="post" action="${escapeHtml(opts.baseUrl)}/account/logout">${csrfField(opts.csrfToken)}<button class="quiet" type="submit">Log out</button></form>
${errorBox(opts.error)}
${newKey}
<h2>Chatbots</h2>
${chatbotTable(opts, opts.chatbots)}
<h2>API keys</h2>
<p>An agent with a key works on this account's chatbots through the MCP tool server, under your plan, with no claim step.</p>
${keyTable(opts, opts.keys, opts.csrfToken)}
<form method="post" action="${escapeHtml(opts.baseUrl)}/account/api-keys">
${csrfField(opts.csrfToken)}
<label>Name (optional) <input type="text" name="name" maxlength="60" placeholder="e.g. my coding agent"></label>
<button type="submit">Create API key</button>
</form>`,
		{ wide: true }
	);
}

export interface ClaimPage extends PageBase {
	/** The claim link's path, `/claim/{token}` (the form posts back to it). */
	claimPath: string;
	chatbot: { name: string; chat_url: string; website_url: string; expires_at: number | null };
	/** The logged-in viewer, or null. */
	viewer: { email: string; csrfToken: string } | null;
	error?: string;
}

export function renderClaimPage(opts: ClaimPage): string {
	const { chatbot, viewer } = opts;
	const expiry = chatbot.expires_at === null ? "" : ` Unless it is kept, it is deleted on ${day(chatbot.expires_at)}.`;
	const action = viewer
		? `<form method="post" action="${escapeHtml(opts.baseUrl + opts.claimPath)}">${csrfField(viewer.csrfToken)}
<button type="submit">Keep this chatbot</button></form>
<p class="muted">It joins the account of ${escapeHtml(viewer.email)}. Not you? <a href="${escapeHtml(opts.baseUrl)}/account">Switch accounts</a> by logging out first.</p>`
		: `<p><a class="button primary" href="${withNext(opts, "/account/signup", opts.claimPath)}">Sign up to keep it</a> <a class="button secondary" href="${withNext(opts, "/account/login", opts.claimPath)}">Log in</a></p>
<p class="muted">After signing up or logging in you come back here and keep it with one click.</p>`;
	return page(
		opts,
		"Keep your chatbot",
		"An agent built a chatbot for you. Keep it in your account.",
		`<h1>Keep your chatbot</h1>
<p class="lead">An agent built <strong>${escapeHtml(chatbot.name)}</strong> from <span class="muted">${escapeHtml(chatbot.website_url)}</span> for you. It is a sandbox for now: ${SANDBOX_LIMITS.pages} pages, ${SANDBOX_LIMITS.messages} answered messages.${expiry}</p>
<p>Try it first: <a href="${escapeHtml(chatbot.chat_url)}">${escapeHtml(chatbot.chat_url)}</a></p>
${errorBox(opts.error)}
${action}`
	);
}

export function renderClaimedPage(opts: PageBase & { chatbot: { chatbot_id: string; name: string; chat_url: string } }): string {
	return page(
		opts,
		"Chatbot kept",
		"The chatbot is now in your account.",
		`<h1>It is yours</h1>
<p class="lead"><strong>${escapeHtml(opts.chatbot.name)}</strong> is now in your account, under your plan's limits, and is no longer deleted after ${SANDBOX_LIMITS.retentionDays} days.</p>
<p><a class="button primary" href="${escapeHtml(`${opts.baseUrl}/account/chatbots/${encodeURIComponent(opts.chatbot.chatbot_id)}`)}">Open its dashboard</a> <a class="button secondary" href="${escapeHtml(opts.chatbot.chat_url)}">Open the chat</a> <a class="button secondary" href="${escapeHtml(opts.baseUrl)}/account">Your account</a></p>`
	);
}

/** A page that explains why something did not happen (a used claim link, an expired form). */
export function renderNoticePage(opts: PageBase & { title: string; message: string; link?: { href: string; label: string } }): string {
	const link = opts.link ? `<p><a href="${escapeHtml(opts.link.href)}">${escapeHtml(opts.link.label)}</a></p>` : "";
	return page(opts, opts.title, opts.message, `<h1>${escapeHtml(opts.title)}</h1>\n<p class="lead">${escapeHtml(opts.message)}</p>\n${link}`);
}
