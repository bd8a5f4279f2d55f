/**
 * The Analytics page of a chatbot: pictures of its last 7, 30 or 90 days — messages per day
 * (answered and declined stacked), widget opens per day (the widget's beacons), the share of
 * answered and declined questions, and the questions asked most. Drawn as SVG by lib/site/charts.ts.
 */
import type { QuestionGroup } from "../../chat/question-groups";
import type { PageBase } from "../account-pages";
import { dailyBarChart, labelledBarChart, lastDays, ringChart, valuesByDay } from "../charts";
import { escapeHtml } from "../render-markdown";
import { chatbotPagePath, insightPage, InsightPageOptions } from "./insights-frame";

export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];

export interface DayCounts {
	day: string;
	answered: number;
	declined: number;
	widget_opened: number;
}

export interface AnalyticsPageOptions extends PageBase {
	chatbot: InsightPageOptions["chatbot"];
	range: AnalyticsRange;
	/** Now, for the last day of the range. */
	now: number;
	days: readonly DayCounts[];
	/** The range's questions, grouped, largest first. */
	topQuestions: readonly QuestionGroup[];
}

const ANSWERED = "#2563eb";
const DECLINED = "#d97706";
const OPENS = "#0d9488";

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

export function renderAnalyticsPage(opts: AnalyticsPageOptions): string {
	const days = lastDays(opts.now, opts.range);
	const answered = valuesByDay(opts.days, days, d => d.answered);
	const declined = valuesByDay(opts.days, days, d => d.declined);
	const opens = valuesByDay(opts.days, days, d => d.widget_opened);
	const totalAnswered = sum(answered);
	const totalDeclined = sum(declined);
	const total = totalAnswered + totalDeclined;
	const base = opts.baseUrl + chatbotPagePath(opts.chatbot._id, "analytics");
	const ranges = ANALYTICS_RANGES.map(r => `<a href="${escapeHtml(`${base}?days=${r}`)}"${r === opts.range ? ' aria-current="page"' : ""}>${r} days</a>`).join("");
	const span = `the last ${opts.range} days`;

	const messages = dailyBarChart({
		label: `Messages per day over ${span}: ${total} in all, ${totalAnswered} answered and ${totalDeclined} declined.`,
		days,
		series: [
			{ label: "answered", color: ANSWERED, values: answered },
			{ label: "declined", color: DECLINED, values: declined }
		]
	});
	const widget = dailyBarChart({ label: `Widget opens per day over ${span}: ${sum(opens)} in all.`, days, series: [{ label: "widget opens", color: OPENS, values: opens }] });
	const share = total === 0 ? "–" : `${Math.round((totalAnswered / total) * 100)}%`;
	const ring = ringChart({
		label: `Answered versus declined over ${span}: ${totalAnswered} answered, ${totalDeclined} declined.`,
		centre: share,
		series: [
			{ label: "answered", color: ANSWERED, value: totalAnswered },
			{ label: "declined", color: DECLINED, value: totalDeclined }
		]
	});
	const top = opts.topQuestions.slice(0, 8);
	const questions =
		top.length === 0
			? `<p class="muted" data-empty>No questions in ${span}.</p>`
			: labelledBarChart({
					label: `The ${top.length} questions asked most over ${span}: ${top.map(g => `“${g.question}”, ${g.count}`).join("; ")}.`,
					color: ANSWERED,
					rows: top.map(g => ({ label: g.question, value: g.count, note: g.declined > 0 ? `${g.declined} declined` : undefined }))
				});
	const legend = (color: string, label: string) => `<span class="key"><span class="swatch" style="background:${color}"></span>${label}</span>`;

	const body = `<style>.key{display:inline-flex;align-items:center;gap:6px;margin-right:14px;font-size:.92rem}.swatch{width:12px;height:12px;border-radius:3px;display:inline-block}.ringrow{display:flex;flex-wrap:wrap;align-items:center;gap:18px}.big{font-size:1.6rem;font-weight:700}</style>
<nav class="filters" aria-label="Time range">${ranges}</nav>
<div class="grid2">
<section class="card" data-chart="messages"><h2>Messages per day</h2><p>${legend(ANSWERED, "Answered")}${legend(DECLINED, "Declined")}</p>${messages}</section>
<section class="card" data-chart="opens"><h2>Widget opens</h2><p>${legend(OPENS, "Opens of the website widget and the chat link")}</p>${widget}</section>
<section class="card" data-chart="answered"><h2>Answered vs declined</h2><div class="ringrow">${ring}<p><span class="big" data-total="${total}">${total}</span> questions<br>${legend(ANSWERED, `${totalAnswered} answered`)}<br>${legend(DECLINED, `${totalDeclined} declined`)}</p></div></section>
<section class="card" data-chart="questions"><h2>Top questions</h2>${questions}</section>
</div>`;
	return insightPage({ baseUrl: opts.baseUrl, chatbot: opts.chatbot, active: "analytics", title: "Analytics", body });
}
