/**
 * The Billing page of an account: the plans side by side with their limits and prices, the current
 * plan and the period messages are counted in, usage meters, "Upgrade" (a Stripe Checkout Session)
 * and "Manage billing" (Stripe's customer portal), the notice of a failed payment, and — when the
 * account holds more chatbots than its plan allows — the choice of which ones keep answering.
 *
 * Every value that came from a user or a database (chatbot names, the email) is escaped here.
 */
import type { AccountPlanId } from "../accounts/plans";
import { csrfField, day, errorBox, page, PageBase } from "./account-pages";
import { escapeHtml } from "./render-markdown";

const BILLING_CSS =
	"<style>" +
	".plans .card{display:flex;flex-direction:column;gap:6px}" +
	".plans .card.current{border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}" +
	".plans .price{font-size:1.3rem;font-weight:700;margin:0}" +
	".plans ul{padding-left:1.1em;margin:0 0 .6em}" +
	".plans form{margin:auto 0 0}" +
	".badge{display:inline-block;font-size:.8rem;font-weight:600;padding:1px 10px;border-radius:999px;background:var(--accent-soft);color:var(--fg)}" +
	".badge.paused{background:var(--warn-bg);border:1px solid var(--warn-line)}" +
	".account meter{width:100%;min-width:6rem;height:10px}" +
	".account meter.short{width:12rem}" +
	".usage td{min-width:7rem}" +
	".choice label{display:flex;gap:10px;align-items:center;font-weight:500}" +
	".account .row{display:flex;flex-wrap:wrap;gap:10px;align-items:center}" +
	"</style>";

export interface PlanCard {
	id: AccountPlanId;
	name: string;
	limits: { chatbots: number; pages: number; messages: number; chars: number };
	/** The price as configured for display; null: free, or shown at checkout. */
	price: string | null;
	/** A Stripe price is configured for it, so it can be bought. */
	buyable: boolean;
}

export interface BillingChatbotRow {
	id: string;
	name: string;
	chat_url: string;
	paused: boolean;
	messages: number;
	max_messages: number;
	chars: number;
	max_chars: number;
	pages: number;
	max_pages: number;
}

export interface BillingPage extends PageBase {
	csrfToken: string;
	email: string;
	/** False when the operator has not configured Stripe. */
	enabled: boolean;
	plan: AccountPlanId;
	/** The period messages are counted in now. */
	period: { start: number; end: number; paid: boolean };
	plans: PlanCard[];
	/** A subscription that still stands (active, trialing or past due): plan changes go through the portal. */
	subscribed: boolean;
	/** Stripe knows the account as a customer: the portal can open. */
	customer: boolean;
	/** A payment failed: when the plan falls back to Free unless it is paid. */
	pastDue: { graceEndsAt: number } | null;
	maxChatbots: number;
	chatbots: BillingChatbotRow[];
	notice?: string;
	error?: string;
}

const RANK: Record<AccountPlanId, number> = { free: 0, pro: 1, business: 2 };
const n = (value: number) => value.toLocaleString("en-US");
/** The last day of a period whose end is exclusive. */
const lastDay = (end: number) => day(end - 1);

function postButton(base: PageBase, csrfToken: string, action: string, label: string, fields: Record<string, string> = {}, quiet = false): string {
	const hidden = Object.entries(fields)
		.map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
		.join("");
	return `<form method="post" action="${escapeHtml(base.baseUrl + action)}">${csrfField(csrfToken)}${hidden}<button type="submit"${quiet ? ' class="quiet"' : ""}>${escapeHtml(label)}</button></form>`;
}

function planAction(opts: BillingPage, card: PlanCard): string {
	if (card.id === opts.plan) return `<p><span class="badge">Current plan</span></p>`;
	if (!opts.enabled) return "";
	if (opts.subscribed) {
		const verb = RANK[card.id] < RANK[opts.plan] ? "Downgrade" : "Upgrade";
		return `<p class="muted">${verb} with Manage billing.</p>`;
	}
	if (card.buyable && RANK[card.id] > RANK[opts.plan]) return postButton(opts, opts.csrfToken, "/account/billing/checkout", `Upgrade to ${card.name}`, { plan: card.id });
	return "";
}

function planCards(opts: BillingPage): string {
	const cards = opts.plans
		.map(card => {
			const { limits } = card;
			const price = card.id === "free" ? "No charge" : (card.price ?? "Price shown at checkout");
			return `<section class="card${card.id === opts.plan ? " current" : ""}" aria-label="${escapeHtml(card.name)} plan">
<h3>${escapeHtml(card.name)}</h3>
<p class="price">${escapeHtml(price)}</p>
<ul>
<li>${n(limits.chatbots)} chatbots</li>
<li>${n(limits.messages)} messages per chatbot a ${card.id === "free" ? "month" : "billing period"}</li>
<li>${n(limits.pages)} pages per chatbot</li>
<li>${n(limits.chars)} training characters per chatbot</li>
</ul>
${planAction(opts, card)}
</section>`;
		})
		.join("\n");
	return `<div class="cards plans">\n${cards}\n</div>`;
}

function meter(used: number, max: number, label: string): string {
	return `<meter min="0" max="${Math.max(max, 1)}" value="${Math.min(used, Math.max(max, 1))}" aria-label="${escapeHtml(label)}"></meter><br>${n(used)} of ${n(max)}`;
}

function usageTable(opts: BillingPage): string {
	if (opts.chatbots.length === 0) return `<p class="muted">No chatbots yet.</p>`;
	const rows = opts.chatbots
		.map(
			row => `<tr><td><a href="${escapeHtml(row.chat_url)}">${escapeHtml(row.name)}</a>${row.paused ? ` <span class="badge paused">Paused</span>` : ""}</td>
<td>${meter(row.messages, row.max_messages, `Messages this period of ${row.name}`)}</td>
<td>${meter(row.chars, row.max_chars, `Training characters of ${row.name}`)}</td>
<td>${meter(row.pages, row.max_pages, `Pages of ${row.name}`)}</td></tr>`
		)
		.join("\n");
	return `<div class="table-wrap usage"><table><thead><tr><th>Chatbot</th><th>Messages this period</th><th>Training characters</th><th>Pages</th></tr></thead><tbody>
${rows}
</tbody></table></div>`;
}

function choiceForm(opts: BillingPage): string {
	const held = opts.chatbots.length;
	if (held <= opts.maxChatbots) return "";
	const boxes = opts.chatbots
		.map(row => `<label><input type="checkbox" name="chatbot_ids" value="${escapeHtml(row.id)}"${row.paused ? "" : " checked"}> ${escapeHtml(row.name)}${row.paused ? ` <span class="badge paused">Paused</span>` : ""}</label>`)
		.join("\n");
	return `<h2 id="choose">Choose which chatbots answer</h2>
<p class="notice" role="status">Your plan lets ${n(opts.maxChatbots)} chatbots answer and the account holds ${n(held)}. Nothing was deleted: the paused ones keep their sources and settings, and their chat page, widget and channels say they are paused. Choose up to ${n(opts.maxChatbots)} to keep answering, or move to a larger plan.</p>
<form class="choice" method="post" action="${escapeHtml(opts.baseUrl)}/account/billing/chatbots">
${csrfField(opts.csrfToken)}
${boxes}
<button type="submit">Keep these answering</button>
</form>`;
}

export function renderBillingPage(opts: BillingPage): string {
	const current = opts.plans.find(card => card.id === opts.plan);
	const periodLine = opts.period.paid
		? `This billing period: ${day(opts.period.start)} to ${lastDay(opts.period.end)}. Messages count from its start.`
		: `Messages are counted per calendar month (UTC): this one runs from ${day(opts.period.start)} to ${lastDay(opts.period.end)}.`;
	const off = opts.enabled
		? ""
		: `<p class="notice" role="status">Billing is off on this service: the operator has not set up payments, so plans cannot be bought here. Your plan and its limits stay as they are.</p>`;
	const pastDue = opts.pastDue
		? `<p class="notice" role="alert"><strong>Your last payment failed.</strong> Your ${escapeHtml(current?.name ?? "")} plan stays until ${day(opts.pastDue.graceEndsAt)} while the payment is retried; update your payment method with Manage billing, or the account moves to the Free plan then.</p>`
		: "";
	const notice = opts.notice ? `<p class="notice" role="status">${escapeHtml(opts.notice)}</p>` : "";
	const paused = opts.chatbots.filter(row => row.paused).length;
	const pausedNotice =
		opts.chatbots.length > opts.maxChatbots
			? `<p class="notice" role="status"><strong>${n(paused)} of your chatbots ${paused === 1 ? "is" : "are"} paused.</strong> Your plan lets ${n(opts.maxChatbots)} answer. <a href="#choose">Choose which ones answer</a>.</p>`
			: "";
	const manage = opts.enabled && opts.customer ? postButton(opts, opts.csrfToken, "/account/billing/portal", "Manage billing") : "";
	return page(
		opts,
		"Billing",
		"Your plan, its limits and usage, and payments.",
		`${BILLING_CSS}<h1>Billing</h1>
<p class="muted"><a href="${escapeHtml(opts.baseUrl)}/account">← Account</a> · ${escapeHtml(opts.email)}</p>
${errorBox(opts.error)}
${notice}${off}${pastDue}${pausedNotice}
<h2>Your plan</h2>
<p><strong>${escapeHtml(current?.name ?? opts.plan)}</strong> plan. ${periodLine}</p>
<div class="row">${manage}</div>
<h2>Plans</h2>
${planCards(opts)}
<h2>Usage</h2>
<p class="row"><strong>Chatbots</strong> <meter class="short" min="0" max="${Math.max(opts.maxChatbots, 1)}" value="${Math.min(opts.chatbots.length, Math.max(opts.maxChatbots, 1))}" aria-label="Chatbots"></meter> ${n(opts.chatbots.length)} of ${n(opts.maxChatbots)}</p>
${usageTable(opts)}
${choiceForm(opts)}`,
		{ wide: true }
	);
}
