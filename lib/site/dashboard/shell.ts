/**
 * The frame of every dashboard page of one chatbot (`/account/chatbots/{id}/…`): the chatbot's
 * name and status, and a tab bar linking its pages. Each page renders only its own body and calls
 * `dashboardPage`; the ownership check is done before, once, by the `owns: "chatbot"` action
 * property (middlewares/owns.middleware.ts).
 *
 * The tabs are plain links in a labelled `<nav>` (Tab and Enter move between them, the current one
 * carries `aria-current="page"`); on a phone they wrap onto several lines instead of scrolling
 * sideways, so every tab stays visible.
 */
import type { Chatbot } from "../../chatbots/model";
import { chatbotState, ChatbotState } from "../../chatbots/status";
import { page, PageBase } from "../account-pages";
import { escapeHtml } from "../render-markdown";

/** The dashboard's tabs, in the order the bar shows them. */
export const DASHBOARD_TABS = ["overview", "sources", "try", "deploy", "conversations", "improve", "analytics", "channels"] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

const TAB_LABELS: Record<DashboardTab, string> = {
	overview: "Overview",
	sources: "Sources",
	try: "Try it",
	deploy: "Deploy",
	conversations: "Conversations",
	improve: "Improve",
	analytics: "Analytics",
	channels: "Channels"
};

/** The local path of a chatbot's dashboard tab (`/account/chatbots/{id}` for the overview). */
export function dashboardPath(chatbotId: string, tab: DashboardTab = "overview"): string {
	const root = `/account/chatbots/${encodeURIComponent(chatbotId)}`;
	return tab === "overview" ? root : `${root}/${tab}`;
}

/** The status words a person reads, from the one public status (lib/chatbots/status.ts). */
export function statusLabel(state: ChatbotState): string {
	switch (state.phase) {
		case "crawling":
			return "Reading the website";
		case "training":
			return state.can_answer ? "Retraining (still answering)" : "Training";
		case "ready":
			return state.needs_retrain ? "Ready · needs retraining" : "Ready";
		case "failed":
			return "Not answering";
		case "idle":
			return "Not trained yet";
	}
}

const SHELL_CSS =
	"<style>" +
	".dash-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 14px;margin:0 0 .6em}" +
	".dash-head h1{margin:0;font-size:clamp(1.5rem,4vw,2.1rem);overflow-wrap:anywhere}" +
	".dash-head .crumb{flex-basis:100%;font-size:.92rem}" +
	".badge{display:inline-block;font-size:.85rem;font-weight:600;padding:2px 10px;border-radius:999px;background:var(--accent-soft);color:var(--fg);border:1px solid var(--line)}" +
	".badge.phase-failed,.badge.phase-idle{background:var(--warn-bg);border-color:var(--warn-line)}" +
	"nav.tabs{margin:0 0 1.6em;border-bottom:1px solid var(--line)}" +
	"nav.tabs ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:2px 4px}" +
	"nav.tabs li{margin:0}" +
	"nav.tabs a{display:block;padding:8px 12px;text-decoration:none;color:var(--muted);font-weight:600;border-bottom:3px solid transparent;border-radius:6px 6px 0 0}" +
	"nav.tabs a:hover{color:var(--fg)}" +
	"nav.tabs a:focus-visible{outline:2px solid var(--accent);outline-offset:-2px}" +
	"nav.tabs a[aria-current=page]{color:var(--fg);border-bottom-color:var(--accent)}" +
	"@media (max-width:600px){nav.tabs a{padding:6px 9px;font-size:.95rem}}" +
	"</style>";

export interface DashboardPageOptions extends PageBase {
	/** The chatbot whose dashboard this is (as `ownedChatbotOf(ctx)` gives it). */
	chatbot: Pick<Chatbot, "_id" | "name"> & Partial<Chatbot>;
	/** The tab this page is. */
	active: DashboardTab;
	/** Page title (the chatbot's name is added). */
	title: string;
	/** Inner HTML below the tab bar. Trusted: callers escape what they insert. */
	body: string;
	/** Meta description; defaults to the title. */
	description?: string;
}

function tabBar(opts: DashboardPageOptions): string {
	const items = DASHBOARD_TABS.map(tab => {
		const href = escapeHtml(opts.baseUrl + dashboardPath(opts.chatbot._id, tab));
		const current = tab === opts.active ? ' aria-current="page"' : "";
		return `<li><a href="${href}" data-tab="${tab}"${current}>${TAB_LABELS[tab]}</a></li>`;
	});
	return `<nav class="tabs" aria-label="Chatbot sections"><ul>${items.join("")}</ul></nav>`;
}

/** The status badge, when the chatbot's stored state is at hand. */
function badge(chatbot: DashboardPageOptions["chatbot"]): string {
	if (chatbot.generation === undefined || chatbot.crawl === undefined || chatbot.counts === undefined) return "";
	const state = chatbotState(chatbot as Chatbot);
	return `<span class="badge phase-${state.phase}" data-field="status">${escapeHtml(statusLabel(state))}</span>`;
}

/** A whole dashboard page: site layout, the chatbot's name and status, the tabs, then `body`. */
export function dashboardPage(opts: DashboardPageOptions): string {
	const name = escapeHtml(opts.chatbot.name);
	const head = `${SHELL_CSS}<div class="dash-head"><a class="crumb" href="${escapeHtml(opts.baseUrl)}/account">← Your chatbots</a><h1>${name}</h1>${badge(opts.chatbot)}</div>`;
	return page(opts, `${opts.title} · ${opts.chatbot.name}`, opts.description ?? opts.title, `${head}\n${tabBar(opts)}\n${opts.body}`, { wide: true });
}
