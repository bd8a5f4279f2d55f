/**
 * The channels page of a chatbot (English, like the other account pages): connect or disconnect
 * Telegram and Crisp, see each channel's state and its last delivery failure. Every value from a
 * user or a provider is escaped; secrets are never rendered, except the Crisp hook URL the owner
 * has to paste into Crisp.
 */
import { csrfField, errorBox, PageBase } from "../site/account-pages";
import { dashboardPage } from "../site/dashboard/shell";
import { escapeHtml } from "../site/render-markdown";
import type { ChannelKind } from "./model";
import type { ChannelStatus, ChannelsView, CrispView, TelegramView } from "./views";

const CSS =
	"<style>" +
	".channel{border:1px solid var(--line);border-radius:var(--radius);padding:4px 18px 14px;margin:0 0 1.4em;background:var(--card)}" +
	".channel h2{border-top:0;padding-top:0;margin-top:.8em}" +
	".channel .state{font-weight:600}" +
	".channel input[readonly]{font-family:var(--mono);font-size:.85rem;width:100%;box-sizing:border-box}" +
	".account input[type=password]{width:100%;box-sizing:border-box}" +
	"</style>";

export interface ChannelsPage extends PageBase {
	csrfToken: string;
	view: ChannelsView;
	/** A refused connect or disconnect: which channel, and why. */
	error?: { channel: ChannelKind; message: string };
	/** What the owner typed into the Crisp form (never the key or secret), to show it again. */
	crispForm?: { website_id?: string; plugin_identifier?: string };
}

/** The page's path for a chatbot. */
export function channelsPath(chatbotId: string): string {
	return `/account/chatbots/${encodeURIComponent(chatbotId)}/channels`;
}

const when = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

function statusLines(status: ChannelStatus): string {
	const reply = status.last_reply_at ? `Last reply sent ${when(status.last_reply_at)}.` : "No reply sent yet.";
	const failure = status.last_failure
		? `<p class="error" role="status"><strong>A reply could not be delivered</strong> (${when(status.last_failure.at)}): ${escapeHtml(status.last_failure.message)}</p>`
		: "";
	return `<p class="muted">Connected ${when(status.connected_at)}. ${reply}</p>${failure}`;
}

function disconnectForm(opts: ChannelsPage, channel: ChannelKind, label: string): string {
	const action = `${opts.baseUrl}${channelsPath(opts.view.chatbot_id)}/${channel}/disconnect`;
	return `<form method="post" action="${escapeHtml(action)}">${csrfField(opts.csrfToken)}<button class="quiet" type="submit" data-action="disconnect-${channel}">${label}</button></form>`;
}

function telegramSection(opts: ChannelsPage, telegram: TelegramView | null): string {
	const error = opts.error?.channel === "telegram" ? errorBox(opts.error.message) : "";
	if (telegram) {
		return `<p class="state">Connected to <a href="${escapeHtml(telegram.bot_url)}">@${escapeHtml(telegram.bot_username)}</a></p>
${statusLines(telegram)}${error}
<p>People who message the bot get answers from this chatbot; <code>/start</code> shows its welcome message.</p>
${disconnectForm(opts, "telegram", "Disconnect Telegram")}`;
	}
	const action = `${opts.baseUrl}${channelsPath(opts.view.chatbot_id)}/telegram`;
	return `<p>Create a bot with <a href="https://t.me/BotFather">@BotFather</a> (<code>/newbot</code>), then paste the token it gives you. The service checks it, and tells Telegram to send the bot's messages here.</p>
${error}
<form method="post" action="${escapeHtml(action)}">
${csrfField(opts.csrfToken)}
<label>Bot token <input type="password" name="token" required maxlength="300" autocomplete="off" spellcheck="false" placeholder="123456789:AA…"></label>
<button type="submit" data-action="connect-telegram">Connect Telegram</button>
</form>`;
}

function crispSection(opts: ChannelsPage, crisp: CrispView | null): string {
	const error = opts.error?.channel === "crisp" ? errorBox(opts.error.message) : "";
	if (crisp) {
		return `<p class="state">Connected to website <code>${escapeHtml(crisp.website_id)}</code></p>
${statusLines(crisp)}${error}
<p>Plugin <code>${escapeHtml(crisp.plugin_identifier)}</code>, key <code>${escapeHtml(crisp.plugin_key_hint)}</code>. Signed hooks: ${crisp.signed_hooks ? "accepted (hook secret set)" : "not set up"}.</p>
<p>In Crisp, add this URL as a Web Hook for the events <code>message:send</code>, <code>message:received</code> and <code>session:removed</code>:</p>
<label>Hook URL <input type="text" readonly value="${escapeHtml(crisp.hook_url)}" data-field="hook-url"></label>
<p class="muted">Keep this URL private: its <code>key</code> is what lets Crisp's messages in. When a human operator writes in a conversation, the bot stays quiet there for a while.</p>
${disconnectForm(opts, "crisp", "Disconnect Crisp")}`;
	}
	const action = `${opts.baseUrl}${channelsPath(opts.view.chatbot_id)}/crisp`;
	const typed = opts.crispForm ?? {};
	return `<p>Give the website id and the plugin token (identifier and key) the bot replies with. After connecting, this page shows the hook URL to paste into Crisp.</p>
${error}
<form method="post" action="${escapeHtml(action)}">
${csrfField(opts.csrfToken)}
<label>Website id <input type="text" name="website_id" required maxlength="100" autocomplete="off" spellcheck="false" value="${escapeHtml(typed.website_id ?? "")}"></label>
<label>Plugin identifier <input type="text" name="plugin_identifier" required maxlength="100" autocomplete="off" spellcheck="false" value="${escapeHtml(typed.plugin_identifier ?? "")}"></label>
<label>Plugin key <input type="password" name="plugin_key" required maxlength="200" autocomplete="off"></label>
<label>Hook secret (optional, for signed plugin hooks) <input type="password" name="hook_secret" maxlength="200" autocomplete="off"></label>
<button type="submit" data-action="connect-crisp">Connect Crisp</button>
</form>`;
}

export function renderChannelsPage(opts: ChannelsPage): string {
	const { view } = opts;
	const notReady = view.can_answer
		? ""
		: `<p class="notice" role="status">This chatbot has not finished its first training: until it has, every message gets a "still learning" reply.</p>`;
	return dashboardPage({
		baseUrl: opts.baseUrl,
		chatbot: { _id: view.chatbot_id, name: view.chatbot_name },
		active: "channels",
		title: "Channels",
		description: "Answer on Telegram and in Crisp.",
		body: `${CSS}
<p class="lead">Let <strong>${escapeHtml(view.chatbot_name)}</strong> answer on Telegram and in Crisp, with the same answers as its chat link.</p>
${notReady}
<section class="channel" id="telegram"><h2>Telegram</h2>
${telegramSection(opts, view.telegram)}
</section>
<section class="channel" id="crisp"><h2>Crisp</h2>
${crispSection(opts, view.crisp)}
</section>`
	});
}
