import { MetricsRegistry } from "../../lib/ops/metrics";
import { stopWaves } from "../../lib/ops/stop-order";

describe("stopWaves", () => {
	it("stops the gateway first, the callers next, then the workers, and the store owners last", () => {
		expect(stopWaves(["vectors", "trainer", "gateway", "chatbots", "mcp", "crawler", "storage", "chat"])).toEqual([
			["gateway"],
			["mcp", "chat"],
			["crawler", "trainer"],
			["chatbots", "vectors", "storage"]
		]);
	});

	it("leaves out empty waves and stops an unlisted service before the stores", () => {
		expect(stopWaves(["chatbots", "probe"])).toEqual([["probe"], ["chatbots"]]);
		expect(stopWaves([])).toEqual([]);
	});
});

describe("MetricsRegistry", () => {
	it("renders counters, gauges and histograms in the Prometheus text format", () => {
		const registry = new MetricsRegistry();
		const calls = registry.counter("calls_total", "Calls.");
		calls.inc({ action: "chat.ask", outcome: "ok" });
		calls.inc({ action: "chat.ask", outcome: "ok" }, 2);
		calls.inc({ outcome: "timeout", action: "chat.ask" });
		registry.gauge("up", "Up.", () => 1);
		const durations = registry.histogram("duration_seconds", "Durations.", [0.1, 1]);
		durations.observe(0.05);
		durations.observe(0.5);
		durations.observe(5);
		expect(registry.render()).toBe(
			[
				"# HELP calls_total Calls.",
				"# TYPE calls_total counter",
				'calls_total{action="chat.ask",outcome="ok"} 3',
				'calls_total{outcome="timeout",action="chat.ask"} 1',
				"# HELP up Up.",
				"# TYPE up gauge",
				"up 1",
				"# HELP duration_seconds Durations.",
				"# TYPE duration_seconds histogram",
				'duration_seconds_bucket{le="0.1"} 1',
				'duration_seconds_bucket{le="1"} 2',
				'duration_seconds_bucket{le="+Inf"} 3',
				"duration_seconds_sum 5.55",
				"duration_seconds_count 3",
				""
			].join("\n")
		);
	});

	it("counts through a labelled series as through labels, and shows it only once used", () => {
		const registry = new MetricsRegistry();
		const calls = registry.counter("calls_total", "Calls.");
		const ok = calls.labelled({ outcome: "ok", action: "a" });
		calls.labelled({ action: "never", outcome: "ok" }); // made, never counted
		const durations = registry.histogram("duration_seconds", "Durations.", [1]);
		const timed = durations.labelled({ action: "a" });
		expect(registry.render()).not.toContain("never");
		expect(registry.render()).not.toContain("duration_seconds_count");
		ok.inc();
		calls.inc({ action: "a", outcome: "ok" }, 2);
		ok.inc(3);
		timed.observe(0.5);
		durations.observe(2, { action: "a" });
		// Label sets that would run together if joined plainly stay apart.
		calls.inc({ action: "a:b", outcome: "c" });
		calls.inc({ action: "a", outcome: "b:c" });
		const text = registry.render();
		expect(text).toContain('calls_total{outcome="ok",action="a"} 6');
		expect(text).toContain('calls_total{action="a:b",outcome="c"} 1');
		expect(text).toContain('calls_total{action="a",outcome="b:c"} 1');
		expect(text).not.toContain("never");
		expect(text).toContain('duration_seconds_bucket{action="a",le="1"} 1');
		expect(text).toContain('duration_seconds_count{action="a"} 2');
	});

	it("escapes label values and refuses one name for two types", () => {
		const registry = new MetricsRegistry();
		registry.counter("odd_total", "Odd.").inc({ path: 'a"b\\c\nd' });
		expect(registry.render()).toContain('odd_total{path="a\\"b\\\\c\\nd"} 1');
		expect(registry.counter("odd_total", "Again.")).toBe(registry.counter("odd_total", "Odd."));
		expect(() => registry.gauge("odd_total", "Clash.")).toThrow(/another type/);
	});
});
