/**
 * A small Prometheus registry: counters, gauges and histograms with labels, rendered in the text
 * exposition format (version 0.0.4). Hand-written because the process needs a dozen series, not a
 * client library; one registry per process (`processMetrics`), read by GET /metrics on OPS_PORT.
 */

type Labels = Record<string, string>;

interface Series {
	labels: Labels;
	value: number;
}

interface HistogramSeries {
	labels: Labels;
	counts: number[];
	sum: number;
	count: number;
}

function escapeLabel(value: string): string {
	return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function labelText(labels: Labels, extra?: [string, string]): string {
	const pairs = Object.entries(labels);
	if (extra) pairs.push(extra);
	if (pairs.length === 0) return "";
	return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}`;
}

/** One key per label set, whatever the order of its names (length-prefixed, so no two sets collide). */
function keyOf(labels: Labels): string {
	const names = Object.keys(labels);
	if (names.length > 1) names.sort();
	let key = "";
	for (const name of names) {
		const value = labels[name];
		key += `${name.length}:${name}${value.length}:${value}`;
	}
	return key;
}

function numberText(value: number): string {
	if (Number.isNaN(value)) return "NaN";
	if (value === Infinity) return "+Inf";
	if (value === -Infinity) return "-Inf";
	return String(value);
}

/** A counter's series for one label set, found once: for hot paths that count the same labels again and again. */
export interface CounterSeries {
	inc(by?: number): void;
}

/** A histogram's series for one label set, found once. */
export interface HistogramSeriesHandle {
	observe(value: number): void;
}

export class Counter {
	private readonly series = new Map<string, Series>();
	constructor(
		readonly name: string,
		readonly help: string
	) {}
	inc(labels: Labels = {}, by = 1): void {
		this.seriesOf(keyOf(labels), labels).value += by;
	}
	/** The series appears in the output at its first `inc`, as with `inc(labels)`. */
	labelled(labels: Labels): CounterSeries {
		const key = keyOf(labels);
		let found: Series | undefined;
		return { inc: (by = 1) => void ((found ??= this.seriesOf(key, labels)).value += by) };
	}
	private seriesOf(key: string, labels: Labels): Series {
		let found = this.series.get(key);
		if (!found) this.series.set(key, (found = { labels: { ...labels }, value: 0 }));
		return found;
	}
	get(labels: Labels = {}): number {
		return this.series.get(keyOf(labels))?.value ?? 0;
	}
	render(): string[] {
		return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`, ...[...this.series.values()].map(s => `${this.name}${labelText(s.labels)} ${numberText(s.value)}`)];
	}
}

/** A gauge read when scraped (`collect`), or set by the code that knows its value. */
export class Gauge {
	private readonly series = new Map<string, Series>();
	constructor(
		readonly name: string,
		readonly help: string,
		private readonly collect?: () => number
	) {}
	set(value: number, labels: Labels = {}): void {
		this.series.set(keyOf(labels), { labels: { ...labels }, value });
	}
	render(): string[] {
		const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
		if (this.collect) lines.push(`${this.name} ${numberText(this.collect())}`);
		for (const s of this.series.values()) lines.push(`${this.name}${labelText(s.labels)} ${numberText(s.value)}`);
		return lines;
	}
}

export class Histogram {
	private readonly series = new Map<string, HistogramSeries>();
	constructor(
		readonly name: string,
		readonly help: string,
		private readonly buckets: readonly number[]
	) {}
	observe(value: number, labels: Labels = {}): void {
		this.record(this.seriesOf(keyOf(labels), labels), value);
	}
	/** The series appears in the output at its first `observe`, as with `observe(value, labels)`. */
	labelled(labels: Labels): HistogramSeriesHandle {
		const key = keyOf(labels);
		let found: HistogramSeries | undefined;
		return { observe: value => this.record((found ??= this.seriesOf(key, labels)), value) };
	}
	private seriesOf(key: string, labels: Labels): HistogramSeries {
		let found = this.series.get(key);
		if (!found) this.series.set(key, (found = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
		return found;
	}
	private record(series: HistogramSeries, value: number): void {
		const buckets = this.buckets;
		const counts = series.counts;
		for (let i = 0; i < buckets.length; i++) if (value <= buckets[i]) counts[i]++;
		series.sum += value;
		series.count++;
	}
	render(): string[] {
		const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
		for (const s of this.series.values()) {
			this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket${labelText(s.labels, ["le", numberText(bound)])} ${s.counts[i]}`));
			lines.push(`${this.name}_bucket${labelText(s.labels, ["le", "+Inf"])} ${s.count}`);
			lines.push(`${this.name}_sum${labelText(s.labels)} ${numberText(s.sum)}`);
			lines.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
		}
		return lines;
	}
}

type Metric = Counter | Gauge | Histogram;

export class MetricsRegistry {
	private readonly metrics = new Map<string, Metric>();

	private add<M extends Metric>(metric: M): M {
		const existing = this.metrics.get(metric.name);
		if (existing) {
			if (existing.constructor !== metric.constructor) throw new Error(`Metric ${metric.name} is already registered as another type`);
			return existing as M;
		}
		this.metrics.set(metric.name, metric);
		return metric;
	}
	counter(name: string, help: string): Counter {
		return this.add(new Counter(name, help));
	}
	gauge(name: string, help: string, collect?: () => number): Gauge {
		return this.add(new Gauge(name, help, collect));
	}
	histogram(name: string, help: string, buckets: readonly number[]): Histogram {
		return this.add(new Histogram(name, help, buckets));
	}
	/** The text exposition format, ending with a newline. */
	render(): string {
		return [...this.metrics.values()].flatMap(m => m.render()).join("\n") + "\n";
	}
}

/** Seconds buckets for calls and requests: 5 ms to 60 s. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

/** The registry of this process. */
export const processMetrics = new MetricsRegistry();
