/**
 * What the Deploy, Conversations, Improve and Analytics pages of a chatbot share: styles, the
 * time format, and the dashboard shell (shell.ts) around their bodies.
 */
import type { PageBase } from "../account-pages";
import { CHART_CSS } from "../charts";
import { dashboardPage, dashboardPath, DashboardPageOptions } from "./shell";

export type InsightTab = "deploy" | "conversations" | "improve" | "analytics";

/** The local path of one of a chatbot's pages. */
export function chatbotPagePath(chatbotId: string, tab: InsightTab): string {
	return dashboardPath(chatbotId, tab);
}

export const INSIGHTS_CSS =
	"<style>" +
	CHART_CSS +
	".card{border:1px solid var(--line);border-radius:var(--radius);background:var(--card);padding:6px 18px 16px;margin:0 0 1.2em}" +
	".card h2{border-top:0;padding-top:0;margin-top:.7em;font-size:1.2rem}" +
	".grid2{display:grid;gap:0 1.2em;grid-template-columns:1fr}" +
	"@media (min-width:900px){.grid2{grid-template-columns:1fr 1fr}}" +
	".account textarea,.account select,.account input[type=color]{font:inherit;padding:9px 12px;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg);width:100%;box-sizing:border-box}" +
	".account input[type=text]{width:100%;box-sizing:border-box}" +
	".account input[type=color]{padding:2px;height:44px;max-width:120px}" +
	".account .hint{font-weight:400;color:var(--muted);font-size:.9rem}" +
	".pill{display:inline-block;font-size:.8rem;font-weight:600;padding:1px 9px;border-radius:999px;border:1px solid var(--line);background:var(--accent-soft)}" +
	".pill.declined{background:var(--warn-bg);border-color:var(--warn-line)}" +
	".filters{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 1em}" +
	".filters a{padding:4px 14px;border-radius:999px;border:1px solid var(--line);text-decoration:none;color:var(--fg)}" +
	".filters a[aria-current=page]{background:var(--accent);border-color:var(--accent);color:var(--accent-fg)}" +
	".notice{border:1px solid var(--warn-line);background:var(--warn-bg);padding:10px 14px;border-radius:var(--radius);margin:0 0 1.2em}" +
	".ok{border:1px solid var(--line);background:var(--accent-soft);padding:10px 14px;border-radius:var(--radius);margin:0 0 1.2em}" +
	"</style>";

export interface InsightPageOptions extends PageBase {
	chatbot: DashboardPageOptions["chatbot"];
	active: InsightTab;
	title: string;
	body: string;
}

/** A whole page: the dashboard shell with the chatbot's name, status and tabs, then `body` (trusted HTML). */
export function insightPage(opts: InsightPageOptions): string {
	return dashboardPage({ baseUrl: opts.baseUrl, chatbot: opts.chatbot, active: opts.active, title: opts.title, body: `${INSIGHTS_CSS}${opts.body}` });
}

/** `YYYY-MM-DD HH:MM UTC` of a time in ms. */
export function when(at: number): string {
	const iso = new Date(at).toISOString();
	return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
