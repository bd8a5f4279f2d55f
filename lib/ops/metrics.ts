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

function keyOf(labels: Labels): string {
	return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function numberText(value: number): string {
	if (Number.isNaN(value)) return "NaN";
	if (value === Infinity) return "+Inf";
	if (value === -Infinity) return "-Inf";
	return String(value);
}

export class Counter {
	private readonly series = new Map<string, Series>();
	constructor(
		readonly name: string,
		readonly help: string
	) {}
	inc(labels: Labels = {}, by = 1): void {
		const key = keyOf(labels);
		const found = this.series.get(key);
		if (found) found.value += by;
		else this.series.set(key, { labels: { ...labels }, value: by });
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
		const key = keyOf(labels);
		let s = this.series.get(key);
		if (!s) {
			s = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
			this.series.set(key, s);
		}
		this.buckets.forEach((bound, i) => {
			if (value <= bound) (s as HistogramSeries).counts[i]++;
		});
		s.sum += value;
		s.count++;
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
