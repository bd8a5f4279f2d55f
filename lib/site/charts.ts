/**
 * The Analytics page's charts, drawn as SVG on the server.
 *
 * Why hand-made SVG and not a chart library: the page needs four plain shapes (daily bars, stacked
 * daily bars, a two-part ring, labelled horizontal bars). Drawn here they are a few dozen lines of
 * pure functions, tested without a browser, sent as part of the page (no script to load, nothing
 * to draw on a phone's CPU, nothing that breaks with scripts off), and every label is escaped by
 * the same `escapeHtml` as the rest of the site. A library would add a client bundle, a build step
 * the project does not have, and a dependency to keep patched, for less control over accessibility.
 *
 * Every chart is an `<svg role="img">` with a `<title>` and an `aria-label` that says in words what
 * the picture shows (totals and the busiest day), so a screen reader gets the gist without a table.
 * Sizes are in viewBox units and the SVG scales to its container's width.
 */
import { escapeHtml } from "./render-markdown";

export interface Series {
	label: string;
	color: string;
	values: readonly number[];
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 16, right: 10, bottom: 34, left: 52 };

/** A round number at or above `max` for the top of the axis (1, 2, 5 × 10^n). */
export function niceCeiling(max: number): number {
	if (max <= 0) return 1;
	const power = 10 ** Math.floor(Math.log10(max));
	for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
	return 10 * power;
}

const num = (n: number) => (Math.round(n * 10) / 10).toString();
const shortDay = (day: string) => day.slice(5);

function svgOpen(label: string, width: number, height: number, extraClass = ""): string {
	const text = escapeHtml(label);
	return `<svg class="chart${extraClass}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${text}" preserveAspectRatio="xMidYMid meet"><title>${text}</title>`;
}

/**
 * Bars per day, stacked when there are several series (answered below declined). `days` are
 * `YYYY-MM-DD`, one per value, oldest first.
 */
export function dailyBarChart(opts: { label: string; days: readonly string[]; series: readonly Series[] }): string {
	const { days, series } = opts;
	const totals = days.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
	const top = niceCeiling(Math.max(0, ...totals));
	const plotW = WIDTH - PAD.left - PAD.right;
	const plotH = HEIGHT - PAD.top - PAD.bottom;
	const slot = plotW / Math.max(1, days.length);
	const barW = Math.max(1, slot * 0.72);
	const y = (value: number) => PAD.top + plotH - (value / top) * plotH;
	const parts: string[] = [svgOpen(opts.label, WIDTH, HEIGHT)];
	// Grid lines and their values: zero, half (when it is a whole number: messages come whole), top.
	for (const value of Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]) {
		parts.push(`<line x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${num(y(value))}" y2="${num(y(value))}" class="grid"/>`);
		parts.push(`<text x="${PAD.left - 8}" y="${num(y(value) + 6)}" text-anchor="end" class="tick">${num(value)}</text>`);
	}
	days.forEach((day, i) => {
		let base = 0;
		const x = PAD.left + i * slot + (slot - barW) / 2;
		for (const s of series) {
			const value = s.values[i] ?? 0;
			if (value > 0) {
				const h = (value / top) * plotH;
				parts.push(`<rect x="${num(x)}" y="${num(y(base + value))}" width="${num(barW)}" height="${num(h)}" fill="${s.color}" data-day="${day}" data-series="${escapeHtml(s.label)}" data-value="${value}"><title>${escapeHtml(`${day}: ${value} ${s.label}`)}</title></rect>`);
			}
			base += value;
		}
	});
	// Day labels: first, middle and last, so a 90-day chart stays legible on a phone.
	const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);
	for (const i of labelled) {
		if (i < 0 || i >= days.length) continue;
		const x = PAD.left + i * slot + slot / 2;
		parts.push(`<text x="${num(x)}" y="${HEIGHT - 8}" text-anchor="${i === 0 ? "start" : i === days.length - 1 ? "end" : "middle"}" class="tick">${shortDay(days[i])}</text>`);
	}
	parts.push("</svg>");
	return parts.join("");
}

/** A ring split between the series (answered and declined), with the total in its middle. */
export function ringChart(opts: { label: string; series: readonly { label: string; color: string; value: number }[]; centre: string }): string {
	const size = 160;
	const r = 60;
	const stroke = 24;
	const c = size / 2;
	const total = opts.series.reduce((sum, s) => sum + s.value, 0);
	const circumference = 2 * Math.PI * r;
	const parts = [svgOpen(opts.label, size, size, " ring")];
	parts.push(`<circle cx="${c}" cy="${c}" r="${r}" fill="none" class="ring-empty" stroke-width="${stroke}"/>`);
	let offset = 0;
	for (const s of opts.series) {
		if (total === 0 || s.value === 0) continue;
		const length = (s.value / total) * circumference;
		// Each part is the same circle with a dash as long as its share, turned to start where the last ended.
		parts.push(
			`<circle cx="${c}" cy="${c}" r="${r}" fill="none" stroke="${s.color}" stroke-width="${stroke}" stroke-dasharray="${num(length)} ${num(circumference - length)}" stroke-dashoffset="${num(-offset)}" transform="rotate(-90 ${c} ${c})" data-series="${escapeHtml(s.label)}" data-value="${s.value}"/>`
		);
		offset += length;
	}
	parts.push(`<text x="${c}" y="${c + 7}" text-anchor="middle" class="centre">${escapeHtml(opts.centre)}</text></svg>`);
	return parts.join("");
}

/** Horizontal bars with their label above each: the top questions and how often they were asked. */
export function labelledBarChart(opts: { label: string; rows: readonly { label: string; value: number; note?: string }[]; color: string }): string {
	// Narrower than the daily charts, so its words stay legible when a phone shrinks it.
	const width = 400;
	const rowH = 52;
	const height = Math.max(1, opts.rows.length) * rowH + 4;
	const max = Math.max(1, ...opts.rows.map(r => r.value));
	const barMax = width - 130;
	const parts = [svgOpen(opts.label, width, height, " bars")];
	opts.rows.forEach((row, i) => {
		const y = i * rowH;
		const text = row.label.length > 46 ? `${row.label.slice(0, 45)}…` : row.label;
		const w = Math.max(2, (row.value / max) * barMax);
		parts.push(`<text x="0" y="${y + 17}" class="label"><title>${escapeHtml(row.label)}</title>${escapeHtml(text)}</text>`);
		parts.push(`<rect x="0" y="${y + 25}" width="${num(w)}" height="18" rx="3" fill="${opts.color}" data-value="${row.value}"/>`);
		parts.push(`<text x="${num(w + 6)}" y="${y + 40}" class="note">${row.value}${row.note ? ` · ${escapeHtml(row.note)}` : ""}</text>`);
	});
	parts.push("</svg>");
	return parts.join("");
}

/** The last `count` UTC days ending with `today` (`YYYY-MM-DD`), oldest first. */
export function lastDays(today: number, count: number): string[] {
	const days: string[] = [];
	const dayMs = 24 * 3600_000;
	for (let i = count - 1; i >= 0; i--) days.push(new Date(today - i * dayMs).toISOString().slice(0, 10));
	return days;
}

/** Values of `field` for each day, 0 where nothing was counted. */
export function valuesByDay<T extends { day: string }>(rows: readonly T[], days: readonly string[], field: (row: T) => number): number[] {
	const byDay = new Map(rows.map(row => [row.day, field(row)]));
	return days.map(day => byDay.get(day) ?? 0);
}

/** The charts' CSS (colours follow the site's light and dark themes through its variables). */
export const CHART_CSS =
	".chart{display:block;width:100%;height:auto;max-width:100%}" +
	".chart .grid{stroke:var(--line);stroke-width:1}" +
	".chart .tick{fill:var(--muted);font-size:20px}" +
	".chart .label{fill:var(--fg);font-size:15px}" +
	".chart .note{fill:var(--muted);font-size:14px}" +
	".chart.ring{max-width:180px}" +
	".chart .ring-empty{stroke:var(--line)}" +
	".chart .centre{fill:var(--fg);font-size:22px;font-weight:700}";
