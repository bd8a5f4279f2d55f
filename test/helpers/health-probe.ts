/**
 * Calls `/v2/health` again and again from a worker thread, as an outside client would, and records
 * how long each call took. The app under test runs in the test's own process: a prober on the main
 * thread could not even send while the event loop is blocked, so it would miss the very stalls it
 * is meant to see. From its own thread, a call made during a stall waits for it, and says so.
 */
import { Worker } from "node:worker_threads";

export interface HealthProbe {
	/**
	 * Stops probing (after the call in flight) and returns the duration in ms of each call made since
	 * the probe started, and any failed call.
	 */
	stop(): Promise<{ durations: number[]; failures: string[] }>;
}

const PROBER = `
const { parentPort, workerData } = require("node:worker_threads");
let running = true;
const durations = [];
const failures = [];
parentPort.on("message", () => { running = false; });
(async () => {
	// One call to open a connection and start the thread's fetch machinery, not counted.
	await fetch(workerData.url).then(res => res.text()).catch(() => undefined);
	parentPort.postMessage({ ready: true });
	while (running) {
		const started = performance.now();
		try {
			const res = await fetch(workerData.url);
			await res.text();
			if (res.status !== 200) failures.push("HTTP " + res.status);
		} catch (err) {
			failures.push(String(err));
		}
		durations.push(performance.now() - started);
		await new Promise(resolve => setTimeout(resolve, workerData.pauseMs));
	}
	parentPort.postMessage({ durations, failures });
})();
`;

type ProbeMessage = { ready: true } | { durations: number[]; failures: string[] };

/** Starts probing `${baseUrl}/v2/health`, one call after another, `pauseMs` apart; resolves once probing runs. */
export async function startHealthProbe(baseUrl: string, pauseMs = 10): Promise<HealthProbe> {
	const worker = new Worker(PROBER, { eval: true, execArgv: [], workerData: { url: `${baseUrl}/v2/health`, pauseMs } });
	let ready: () => void = () => undefined;
	const started = new Promise<void>(resolve => (ready = resolve));
	const result = new Promise<{ durations: number[]; failures: string[] }>((resolve, reject) => {
		worker.on("message", (message: ProbeMessage) => ("ready" in message ? ready() : resolve(message)));
		worker.once("error", reject);
	});
	await Promise.race([started, result]);
	return {
		async stop() {
			worker.postMessage("stop");
			const outcome = await result;
			await worker.terminate();
			return outcome;
		}
	};
}
