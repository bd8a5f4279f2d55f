/**
 * The Improve page of a chatbot: the questions it declined or answered without a source, grouped
 * when they ask the same thing (lib/chat/question-groups.ts), largest group first. Each group has
 * an "add an answer" form that turns it into a Q&A pair source; the chatbot then needs retraining,
 * which the page says plainly with a button to retrain (the Overview's training form); the first
 * button of each group adds the answer and retrains at once.
 */
import { MAX_CHAT_MESSAGE_CHARS } from "../../chat/wire";
import type { QuestionGroup } from "../../chat/question-groups";
import { csrfField, errorBox, PageBase } from "../account-pages";
import { escapeHtml } from "../render-markdown";
import { chatbotPagePath, insightPage, InsightPageOptions, when } from "./insights-frame";
import { dashboardPath } from "./shell";

/** Longest answer the form takes (a Q&A pair is a small source). */
export const MAX_QA_ANSWER_CHARS = 5000;

export interface ImprovePageOptions extends PageBase {
	chatbot: InsightPageOptions["chatbot"];
	csrfToken: string;
	groups: readonly QuestionGroup[];
	/** Sources changed since the last training run. */
	needsRetrain: boolean;
	/** A training run is going on (the previous index answers meanwhile). */
	training: boolean;
	/** What just happened (after adding an answer). */
	flash?: "added" | "added_training";
	/** A refused form: which group and why, with what was typed. */
	error?: { key: string; message: string; question: string; answer: string };
}

function groupHtml(opts: ImprovePageOptions, group: QuestionGroup, index: number): string {
	const action = escapeHtml(`${opts.baseUrl}${chatbotPagePath(opts.chatbot._id, "improve")}/answers`);
	const failed = opts.error?.key === group.key ? opts.error : undefined;
	const why = group.declined === group.count ? "declined" : group.declined === 0 ? "answered without a source" : `declined ${group.declined}×, answered without a source ${group.count - group.declined}×`;
	const times = group.count === 1 ? "Asked once" : `Asked ${group.count} times`;
	const wordings = group.wordings.length > 1 ? `<p class="muted">Also asked as: ${group.wordings.slice(1).map(w => `“${escapeHtml(w)}”`).join(", ")}</p>` : "";
	const qId = `q-${index}`;
	const aId = `a-${index}`;
	return `<section class="card group" data-group="${escapeHtml(group.key)}">
<h2>${escapeHtml(group.question)}</h2>
<p><span class="pill declined">${times}</span> <span class="muted">${why} · last ${when(group.last_at)}</span></p>${wordings}
<form method="post" action="${action}">
${csrfField(opts.csrfToken)}
<input type="hidden" name="group" value="${escapeHtml(group.key)}">
<label for="${qId}">Question</label><input id="${qId}" type="text" name="question" required maxlength="${MAX_CHAT_MESSAGE_CHARS}" value="${escapeHtml(failed?.question ?? group.question)}">
<label for="${aId}">Answer <span class="hint">what the chatbot should say; it becomes a Q&amp;A source</span></label><textarea id="${aId}" name="answer" rows="3" required maxlength="${MAX_QA_ANSWER_CHARS}">${escapeHtml(failed?.answer ?? "")}</textarea>
${failed ? errorBox(failed.message) : ""}
<div class="buttons"><button type="submit" name="then" value="train">Add answer and retrain</button> <button class="quiet" type="submit" name="then" value="none">Add answer only</button></div>
</form></section>`;
}

export function renderImprovePage(opts: ImprovePageOptions): string {
	const flash =
		opts.flash === "added_training"
			? `<p class="ok" role="status" data-flash="added_training">Answer added. The chatbot is retraining; it keeps answering from its previous training until the new one is ready.</p>`
			: opts.flash === "added"
				? `<p class="ok" role="status" data-flash="added">Answer added as a Q&amp;A source.</p>`
				: "";
	const state = opts.training
		? `<p class="notice" role="status" data-state="training">Retraining now. New answers are used as soon as it finishes.</p>`
		: opts.needsRetrain
			? `<div class="notice" role="status" data-state="needs-retrain"><p><strong>Needs retraining:</strong> the sources changed since the last training, so the chatbot does not use the newest answers yet.</p><form method="post" action="${escapeHtml(opts.baseUrl + dashboardPath(opts.chatbot._id))}/training">${csrfField(opts.csrfToken)}<button type="submit" data-action="retrain">Retrain now</button></form></div>`
			: "";
	const groups =
		opts.groups.length === 0
			? `<p class="muted" data-empty>Nothing to improve: every recent question was answered from a source.</p>`
			: opts.groups.map((g, i) => groupHtml(opts, g, i)).join("\n");
	const body = `<style>.group form{margin-top:.6em}.group h2{overflow-wrap:anywhere}.buttons{display:flex;flex-wrap:wrap;gap:8px}</style>
${flash}${state}<p class="muted">Questions the chatbot declined or answered without citing a source, grouped when they ask the same thing. Add an answer and the chatbot learns it at its next training.</p>
${groups}`;
	return insightPage({ baseUrl: opts.baseUrl, chatbot: opts.chatbot, active: "improve", title: "Improve", body });
}
